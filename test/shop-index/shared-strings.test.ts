import { describe, expect, it } from "vitest";
import { shareStrings } from "../../src/shop-index/shared-strings.js";

describe("shareStrings", () => {
  it("leaves every value of a row equal, nested records and lines included", () => {
    const text = JSON.stringify({
      id: 7,
      updated_at: "2026-11-28T10:00:00",
      status_history: [{ status: 1, updated_at: "2026-11-28T10:00:00" }, null],
      items: [{ variation_id: "6f2de293-df13-474a-a9fd-c0458c882fe0", quantity: 2, is_bonus_product: false }],
      note: "x".repeat(500),
      tags: ["a", "b", 3],
      empty: {},
    });
    const row = JSON.parse(text);
    expect(shareStrings(row)).toBe(row);
    expect(row).toEqual(JSON.parse(text));
  });

  it("answers the same values for rows parsed apart, past the pool's size", () => {
    const rows = Array.from({ length: 60_000 }, (_, i) => JSON.parse(JSON.stringify({ id: `order-${i}`, page: "112233445566778" })));
    for (const row of rows) shareStrings(row);
    expect(rows.every((row, i) => row.id === `order-${i}` && row.page === "112233445566778")).toBe(true);
  });
});
