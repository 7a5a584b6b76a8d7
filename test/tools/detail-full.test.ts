import { describe, expect, it } from "vitest";
import { allTools } from "../../src/tools/index.js";
import { detailRowsInput, FULL_DETAIL_ROWS } from "../../src/tools/inputs.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { useHarness } from "../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 }, config: { pageRatePerSecond: 10_000 } });

const listTools = allTools.filter((t) => t.input.shape.detail === detailRowsInput);

describe('detail: "full" on every list tool', () => {
  it("covers the list tools that take detail and a row limit", () => {
    expect(listTools.map((t) => t.name).sort()).toEqual(
      allTools.filter((t) => "detail" in t.input.shape && "limit" in t.input.shape).map((t) => t.name).sort(),
    );
  });

  it.each(listTools.map((t) => t.name))("%s gives raw records, at most 10 a call, within its output schema", async (name) => {
    const r = await h.call(name, { ...argsFor(name, h.sandbox), limit: 50, detail: "full" });
    expect(r.isError, r.text).toBe(false);
    const rows = Object.values(r.data).find(Array.isArray) as unknown[] | undefined;
    expect(rows, r.text).toBeDefined();
    expect(rows!.length).toBeGreaterThan(0);
    expect(rows!.length).toBeLessThanOrEqual(FULL_DETAIL_ROWS);
  });
});
