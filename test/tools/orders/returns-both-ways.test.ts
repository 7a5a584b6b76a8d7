import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { ReturnOrderRecord } from "../../../src/sandbox/pos/types.js";
import { useHarness } from "../../helpers/harness.js";
import { cameBackIn, reachedAt as reached, returnValue as valueIn, worth } from "../figures/truth.js";

// Issue 39: "What were the goods customers sent back in November worth?" took 6 calls and 71k
// tokens: list_return_orders showed no value, and the orders the carrier brought back were not
// found. One call answers it both ways, each named and dated: the return orders the shop made for
// goods sent back, and the orders the carrier returned (whole or in part), valued alike at what
// the customer paid for the goods.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;
const NOVEMBER = { since: "2026-11-01", until: "2026-11-30" };
const [FROM, TO] = [Date.parse("2026-11-01T00:00:00+07:00"), Date.parse("2026-11-30T23:59:59+07:00")];
const inNovember = (recordTime: string | null | undefined) => {
  const at = Date.parse(`${recordTime}Z`);
  return at >= FROM && at <= TO;
};

const orderOf = (r: ReturnOrderRecord) => pos().orders.find((o) => o.id === r.order_id_to_returned)!;
const returnValue = (r: ReturnOrderRecord) => valueIn(pos(), r);

describe("list_return_orders: what came back, both ways, in one call", () => {
  it("gives November's return orders and carrier returns, each counted and valued as the raw records say", async () => {
    const r = await h.call("list_return_orders", NOVEMBER);
    expect(r.isError, r.text).toBe(false);

    // Return orders made in November; canceled ones counted apart.
    const made = pos().returnOrders.filter((x) => inNovember(x.inserted_at));
    const live = made.filter((x) => x.status !== 4);
    expect(live.length).toBeGreaterThan(5);
    const byStatus: Record<string, number> = {};
    for (const x of live) {
      const name = ["new", "completed", "shipped"][x.status]!;
      byStatus[name] = (byStatus[name] ?? 0) + 1;
    }
    expect(r.data.came_back.return_orders).toEqual({
      count: live.length,
      units: live.reduce((n, x) => n + x.returned_items.reduce((m, it) => m + it.returned_quantity, 0), 0),
      value: live.reduce((n, x) => n + returnValue(x), 0),
      by_status: byStatus,
      ...(made.length > live.length ? { canceled: made.length - live.length } : {}),
      dated_by: "created",
    });

    // Orders the carrier brought back in November, each dated by reaching its status; deleted ones are none.
    const kept = pos().orders.filter((o) => !o.is_removed);
    const returned = kept.filter((o) => o.status === 5 && inNovember(reached(o, 5)));
    const partly = kept.filter((o) => o.status === 15 && inNovember(reached(o, 15)));
    expect(returned.length).toBeGreaterThan(0);
    expect(partly.length).toBeGreaterThan(0);
    const value = returned.reduce((n, o) => n + o.total_price_after_sub_discount, 0) + partly.reduce((n, o) => n + worth(o, (line) => line.returned_count), 0);
    const units = returned.reduce((n, o) => n + o.items.reduce((m, it) => m + it.quantity, 0), 0) + partly.reduce((n, o) => n + o.items.reduce((m, it) => m + it.returned_count, 0), 0);
    expect(r.data.came_back.carrier_returned).toEqual({
      orders: returned.length + partly.length,
      units,
      value,
      returned: returned.length,
      partly_returned: partly.length,
      dated_by: "reached returned / partly_returned",
    });

    // Together, each order's goods once: a return order for an order the carrier brought back is
    // the same goods (in the seed, every one), named as the overlap.
    const back = cameBackIn(pos(), NOVEMBER);
    expect(back.overlap.count).toBe(live.length);
    expect(r.data.came_back.overlap).toEqual(back.overlap);
    expect(r.data.came_back.total).toEqual(back.total);
    expect(r.data.came_back.total).toEqual({ orders: returned.length + partly.length, units, value });

    // The rows are the month's return orders, each with its value and the order it returns by number.
    expect(r.data.total).toBe(made.length);
    for (const row of r.data.return_orders) {
      const raw = made.find((x) => String(x.id) === row.id)!;
      expect(row.value, row.id).toBe(returnValue(raw));
      expect(row.original_order, row.id).toBe(`#${orderOf(raw).display_id}`);
    }
    expect(r.data.range).toEqual({ since: "2026-11-01T00:00:00+07:00", until: "2026-11-30T23:59:59+07:00" });
    expect(r.data.figures).toMatch(/return_orders \(.*\) and carrier_returned \(.*total \(the figure to quote\).*less overlap.*dated by the day the return was recorded.*not the order's date/);
    expect(r.data.currency).toBe("VND");
    // The whole answer, rows and all, stays small enough to read at once.
    expect(countTokens(r.text)).toBeLessThan(2_000);
  });

  it("answers the totals alone with limit 0, and values a return order dated by its status", async () => {
    const totals = await h.call("list_return_orders", { ...NOVEMBER, limit: 0 });
    expect(totals.data.return_orders).toEqual([]);
    expect(totals.data.came_back.return_orders.count).toBeGreaterThan(0);
    expect(countTokens(totals.text)).toBeLessThan(400);

    const completed = await h.call("list_return_orders", { ...NOVEMBER, time_field: "completed", status: "completed", limit: 100 });
    const raw = pos().returnOrders.filter((x) => x.status === 1 && inNovember(x.status_histories.find((s) => s.status === 1)?.updated_at));
    expect(completed.data.came_back.return_orders).toMatchObject({ count: raw.length, value: raw.reduce((n, x) => n + returnValue(x), 0), dated_by: "reached completed" });
    expect(completed.data.return_orders.map((x: { id: string }) => x.id).sort()).toEqual(raw.map((x) => String(x.id)).sort());
    // One status of return orders, or their last update: not all that came back, so no total.
    expect(completed.data.came_back.total).toBeUndefined();
    const updated = await h.call("list_return_orders", { ...NOVEMBER, time_field: "updated_at", limit: 0 });
    expect(updated.data.came_back.return_orders.dated_by).toBe("updated");
    expect(updated.data.came_back.total).toBeUndefined();
    expect(totals.data.came_back.total).toBeDefined();
  });

  it("adds a return order for an order the carrier did not bring back to the total, once", async () => {
    // A delivered order the customer sends part of back: goods the carrier's notion does not hold.
    const original = pos().orders.find((o) => o.status === 3 && !o.is_removed && o.items.some((it) => it.quantity > it.returned_count))!;
    const line = original.items.find((it) => it.quantity > it.returned_count)!;
    const made = await h.call("create_return_order", { order_id: original.id, items: [{ variation_id: line.variation_id, quantity: 1 }], warehouse_id: original.warehouse_id });
    expect(made.isError, made.text).toBe(false);

    // All time: every return order and every order the carrier brought back.
    const r = await h.call("list_return_orders", { limit: 0 });
    expect(r.isError, r.text).toBe(false);
    const ALL = { since: "2000-01-01", until: "2100-01-01" };
    const back = cameBackIn(pos(), ALL);
    const added = pos().returnOrders.find((x) => String(x.id) === made.data.id)!;
    expect(back.overlap.count).toBe(back.returnOrders.length - 1);
    expect(r.data.came_back.overlap).toEqual(back.overlap);
    expect(r.data.came_back.total).toEqual({
      orders: back.returned.length + back.partly.length + 1,
      units: back.carrierUnits + 1,
      value: back.carrierValue + returnValue(added),
    });
    expect(r.data.came_back.total).toEqual(back.total);
  });
});
