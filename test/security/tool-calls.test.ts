import { describe, expect, it } from "vitest";
import { allTools } from "../../src/tools/index.js";
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
