import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// A shop number is found among the order list's search hits, and phones and notes holding its
// digits come along. get_order and search_orders read the same number of hit pages, so a number
// one of them finds the other finds too.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

describe("an order number deep in the search hits", () => {
  it("is found by get_order as by search_orders", async () => {
    const orders = h.sandbox.pos.orders;
    const target = orders.find((o) => o.display_id === 9)!;
    // Every newer order's note holds "9" ("giao trước 9h"): hundreds of hits come before #9.
    const newer = orders.filter((o) => !o.is_removed && o.inserted_at > target.inserted_at);
    for (const o of newer) o.note = "Giao trước 9h";
    expect(newer.length).toBeGreaterThan(500);

    const searched = await h.call("search_orders", { search: "#9" });
    expect(searched.isError, searched.text).toBe(false);
    expect(searched.data.orders.map((o: { id: string }) => o.id)).toEqual([String(target.id)]);
    const read = await h.call("get_order", { order_id: "#9" });
    expect(read.isError, read.text).toBe(false);
    expect(read.data.order.id).toBe(String(target.id));
  });
});
