import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { useHarness } from "../helpers/harness.js";

// Results the model reads whole: what repeats on every row, or means nothing, is left out.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

describe("result sizes", () => {
  it("a month of revenue by day fits in 2,500 tokens: the shop's formulas are not repeated on every row unless asked for", async () => {
    const r = await h.call("get_sales_analytics", { since: "2026-10-01", until: "2026-10-31" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.rows).toHaveLength(31);
    expect(countTokens(r.text)).toBeLessThan(2_500);
  });

  it("a page of products keys stock by warehouse name and holds at most 50 rows, near 5,000 tokens", async () => {
    const r = await h.call("search_products", { limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.variations).toHaveLength(50);
    expect(countTokens(r.text)).toBeLessThan(5_500);
    const more = await h.call("search_products", { limit: 100 });
    expect(more.isError).toBe(true);
    expect(more.text).toContain("limit");
  });
});
