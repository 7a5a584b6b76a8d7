import { afterAll, describe, expect, it } from "vitest";
import { allTools } from "../../src/tools/index.js";
import { Sandbox } from "../../src/sandbox/index.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { startHarness, type Harness } from "../helpers/harness.js";
import { pageTokenSends, richCalls } from "./rich-calls.js";

/**
 * Every request the tools send, checked against the vendor's OpenAPI (and the seed specs) as the
 * sandbox receives it. Each call is checked on its own, so a failure names the tool and arguments.
 */
describe("the vendor's contract: every request a tool sends", () => {
  let h: Harness;
  const open = async () => {
    h ??= await startHarness({ sandbox: { ratePerSecond: 10_000 } });
    return h;
  };
  afterAll(() => h?.close());

  it.each(allTools.map((t) => t.name))("%s (fixture arguments)", async (name) => {
    const harness = await open();
    const r = await harness.call(name, argsFor(name, harness.sandbox));
    expect(r.isError, r.text).toBe(false);
    expect(harness.contractRecorder.take().join("\n")).toBe("");
  });

  it.each(richCalls.map(([name, args], i) => [`${name} #${i}`, name, args] as const))("%s (every optional argument)", async (_label, name, args) => {
    const harness = await open();
    const r = await harness.call(name, args(harness.sandbox));
    expect(r.isError, r.text).toBe(false);
    expect(harness.contractRecorder.take().join("\n")).toBe("");
  });
});

describe("the vendor's contract: sends with page tokens only (the OpenAPI's form)", () => {
  let h: Harness;
  const open = async () => {
    if (h) return h;
    const probe = new Sandbox();
    h = await startHarness({ sandbox: { ratePerSecond: 10_000 }, credentials: false, config: { pageAccessTokens: probe.credentials.pageTokens } });
    return h;
  };
  afterAll(() => h?.close());

  it.each(pageTokenSends.map(([name, args], i) => [`${name} #${i}`, name, args] as const))("%s", async (_label, name, args) => {
    const harness = await open();
    const r = await harness.call(name, args(harness.sandbox));
    expect(r.isError, r.text).toBe(false);
    expect(harness.contractRecorder.take().join("\n")).toBe("");
  });
});
