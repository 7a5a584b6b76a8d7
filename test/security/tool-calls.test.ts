import { describe, expect, it } from "vitest";
import { allTools } from "../../src/tools/index.js";
import { listedTool } from "../../src/tools/listing.js";
import { argsFor, toolCalls } from "../fixtures/tool-calls.js";
import { useHarness } from "../helpers/harness.js";

describe("fixture: valid arguments for every tool", () => {
  const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

  it("covers exactly the registered tools", () => {
    expect(Object.keys(toolCalls).sort()).toEqual(allTools.map((t) => t.name).sort());
  });

  it.each(allTools.map((t) => t.name))("%s succeeds with its fixture arguments", async (name) => {
    const r = await h.call(name, argsFor(name, h.sandbox));
    expect(r.isError, r.text).toBe(false);
    expect(JSON.parse(r.text)).toEqual(r.data);
  });
});

describe("a required parameter left out", () => {
  const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
  const withRequired = allTools.map(listedTool).filter((t) => ((t.inputSchema.required as string[] | undefined) ?? []).length > 0);

  it.each(withRequired.map((t) => [t.name, t.inputSchema.required as string[]] as const))("%s names each one as missing", async (name, required) => {
    const r = await h.call(name, {});
    expect(r.isError).toBe(true);
    for (const field of required) expect(r.text).toContain(`missing (required) at ${field}`);
  });
});
