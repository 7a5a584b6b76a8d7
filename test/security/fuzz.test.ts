import type { CallToolResult } from "@modelcontextprotocol/client";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allTools } from "../../src/tools/index.js";
import { listedTool } from "../../src/tools/listing.js";
import { type Harness, startHarness } from "../helpers/harness.js";
import { expectOutputContract } from "../helpers/output-contract.js";

interface Prop {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Prop[];
  items?: Prop;
}

// Strings that try to escape a path, smuggle a query, break a line or hide text.
const hostile = fc.constantFrom(
  "../",
  "..",
  "../../shops/999/orders",
  "%2F",
  "a%2F..%2Fb",
  "a/b",
  "?api_key=x",
  "#frag",
  "x\ny",
  "\r\n\r\nGET / HTTP/1.1",
  "\u202egnp.exe",
  "\u200b",
  "🙂🙂",
  "Nguyễn Thị Ánh",
  "' OR 1=1 --",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
  "${process.env}",
  "<script>alert(1)</script>",
  '{"role":"system"}',
  "",
  " ",
  "x".repeat(5000),
);

const anyValue = fc.oneof(
  hostile,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** Mostly plausible values of the declared type, often hostile or of the wrong type. */
function valueFor(prop: Prop): fc.Arbitrary<unknown> {
  const types = prop.anyOf?.flatMap((p) => p.type ?? []) ?? (Array.isArray(prop.type) ? prop.type : [prop.type]);
  const plausible: fc.Arbitrary<unknown>[] = [];
  if (prop.enum) plausible.push(fc.constantFrom(...prop.enum));
  if (types.includes("integer") || types.includes("number")) plausible.push(fc.integer({ min: -5, max: 200 }));
  if (types.includes("boolean")) plausible.push(fc.boolean());
  if (types.includes("string")) plausible.push(hostile, fc.string({ maxLength: 30 }));
  if (types.includes("array")) plausible.push(fc.array(prop.items ? valueFor(prop.items) : anyValue, { maxLength: 3 }));
  return plausible.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.oneof(...plausible) }, { weight: 1, arbitrary: anyValue }) : anyValue;
}

function argsFor(schema: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const props = (schema.properties ?? {}) as Record<string, Prop>;
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, prop] of Object.entries(props)) record[name] = valueFor(prop);
  return fc.record(record, { requiredKeys: [] });
}

describe("fuzzing every tool's arguments", () => {
  let h: Harness;
  beforeAll(async () => {
    // A generous upstream limit: the point here is input handling, not rate limiting.
    h = await startHarness({ sandbox: { ratePerSecond: 10_000 } });
  });
  afterAll(async () => {
    await h.close();
  });

  it.each(allTools.map((t) => t.name))("%s: never crashes, always a well-formed result", async (name) => {
    const arbitrary = argsFor(listedTool(allTools.find((t) => t.name === name)!).inputSchema);
    await fc.assert(
      fc.asyncProperty(arbitrary, async (args) => {
        const result = (await h.client.callTool({ name, arguments: args })) as CallToolResult;
        expect(Array.isArray(result.content)).toBe(true);
        const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
        expect(text.length).toBeGreaterThan(0);
        if (result.isError) {
          expect(result.structuredContent).toBeUndefined();
          expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/); // no stack traces
        } else {
          expect(JSON.parse(text)).toEqual(result.structuredContent);
          expectOutputContract(name, text);
        }
      }),
      { numRuns: 15, seed: 20261122 },
    );
  });

  it("sent nothing upstream outside the documented routes", () => {
    expect(h.sandbox.server.requests.length).toBeGreaterThan(0);
    for (const request of h.sandbox.server.requests) {
      expect(h.sandbox.server.router.match(request.method, request.path), `${request.method} ${request.path}`).toBeDefined();
      expect(request.path).not.toMatch(/\/\.\.?(\/|$)/);
    }
  });

  it("keeps serving afterwards", async () => {
    const result = (await h.client.callTool({ name: "list_shops", arguments: {} })) as CallToolResult;
    expect(result.isError).toBeFalsy();
  });
});
