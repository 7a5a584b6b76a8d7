import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/types.js";
import { useHarness } from "../../helpers/harness.js";

// Issues 33 and 39: an order canceled or deleted, whenever that happened (after confirmation too),
// is no sale, while the POS's statistics count an order from success_status on. The tool leaves
// them out by default, says what it left out (totals.canceled), and counts them when asked
// (include_canceled, or a filter naming their status). Checked against the sandbox's raw records.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

// biome-ignore lint/suspicious/noExplicitAny: rows are read by their split names
type Row = Record<string, any>;

const SINCE = "2026-09-01";
const UNTIL = "2026-11-22";
const CANCELED = new Set([6, 7]);
const at = (recordTime: string) => Date.parse(`${recordTime}Z`);

/** Every order created in the range (shop days) the list holds: sales, and the canceled and deleted ones. */
function sales(): OrderRecord[] {
  const from = Date.parse(`${SINCE}T00:00:00+07:00`);
  const to = Date.parse(`${UNTIL}T23:59:59+07:00`);
  return h.sandbox.pos.orders.filter((o) => !o.is_removed && at(o.inserted_at) >= from && at(o.inserted_at) <= to);
}
const units = (orders: OrderRecord[]) => orders.reduce((n, o) => n + o.items.reduce((m, it) => m + it.quantity, 0), 0);
const price = (orders: OrderRecord[]) => orders.reduce((n, o) => n + o.items.reduce((m, it) => m + it.variation_info.retail_price * it.quantity, 0), 0);

/** Units per variation id of these orders. */
function unitsPerVariation(orders: OrderRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of orders) for (const it of o.items) out[it.variation_id] = (out[it.variation_id] ?? 0) + it.quantity;
  return out;
}

const amount = (orders: OrderRecord[]) => orders.reduce((n, o) => n + o.total_price_after_sub_discount, 0);
const ofStatus = (orders: OrderRecord[], status: number) => orders.filter((o) => o.status === status);
/** What the canceled (6) or deleted (7) orders among these came to, as totals.canceled / totals.deleted say it. */
const apart = (orders: OrderRecord[], status: number) => {
  const some = ofStatus(orders, status);
  return { order_count: some.length, product_count: units(some), price: price(some), amount: amount(some) };
};
/** The same by variant: units and goods, no order count (one order holds several variants). */
const apartByVariant = (orders: OrderRecord[], status: number) => {
  const { product_count, price } = apart(orders, status);
  return product_count ? { product_count, price } : { order_count: 0 };
};

const perVariation = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r["Variation.id"], r.product_count]));

describe("get_sales_analytics and orders canceled after confirmation", () => {
  it("by default counts units sold per variant as the raw orders not canceled or deleted, and says what it left out", async () => {
    const all = sales();
    const live = all.filter((o) => !CANCELED.has(o.status));
    const gone = all.filter((o) => CANCELED.has(o.status));
    // The seed has orders confirmed and canceled since, in the range: what the question is about.
    expect(gone.some((o) => o.status_history.some((s) => s.status === 1))).toBe(true);
    expect(unitsPerVariation(live)).not.toEqual(unitsPerVariation(all));

    const r = await h.call("get_sales_analytics", { since: SINCE, until: UNTIL, split_by: ["Variation.id"], limit: 500 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.truncated).toBeUndefined();
    expect(perVariation(r.data.rows)).toEqual(unitsPerVariation(live));
    expect(r.data.totals.success.product_count).toBe(units(live));
    // What was left out, said: their units and their goods (by variant, orders do not add up:
    // one order holds several variants, so neither success nor canceled counts orders here).
    expect(r.data.totals.canceled).toEqual(apartByVariant(all, 6));
    expect(r.data.totals.deleted).toEqual(apartByVariant(all, 7));
    expect(r.data.totals.canceled.product_count + r.data.totals.deleted.product_count).toBe(units(gone));
    expect(r.data.totals.success.order_count).toBeUndefined();
    expect(r.data.figures).toContain("canceled and deleted left out");
  });

  it("counts them when asked, and success - canceled is the default's figure", async () => {
    const all = sales();
    const gone = all.filter((o) => CANCELED.has(o.status));
    const counted = await h.call("get_sales_analytics", { since: SINCE, until: UNTIL, split_by: ["Variation.id"], include_canceled: true, limit: 500 });
    expect(counted.isError, counted.text).toBe(false);
    expect(perVariation(counted.data.rows)).toEqual(unitsPerVariation(all));
    expect(counted.data.totals.canceled).toEqual(apartByVariant(all, 6));
    expect(counted.data.totals.deleted).toEqual(apartByVariant(all, 7));
    expect(counted.data.figures).toContain("canceled and deleted counted in");

    // By order-level splits the orders add up too.
    const byDay = await h.call("get_sales_analytics", { since: SINCE, until: UNTIL });
    const withCanceled = await h.call("get_sales_analytics", { since: SINCE, until: UNTIL, include_canceled: true });
    expect(withCanceled.data.totals.success.order_count).toBe(all.length);
    // Each set apart with its count and amount, beside the sales: success + canceled + deleted = every order.
    expect(ofStatus(all, 6).length).toBeGreaterThan(0);
    expect(ofStatus(all, 7).length).toBeGreaterThan(0);
    expect(byDay.data.totals.canceled).toEqual(apart(all, 6));
    expect(byDay.data.totals.deleted).toEqual(apart(all, 7));
    expect(byDay.data.totals.success).toMatchObject({
      order_count: all.length - gone.length,
      product_count: units(all) - units(gone),
      price: price(all) - price(gone),
    });
    expect(withCanceled.data.totals.canceled).toEqual(byDay.data.totals.canceled);
    expect(byDay.data.totals.success.amount).toBe(amount(all) - amount(gone));
  });

  it("keeps to the statuses a filter asks for, in one request", async () => {
    const all = sales();
    const canceledOnly = all.filter((o) => o.status === 6);
    const before = h.sandbox.server.requests.length;
    const only = await h.call("get_sales_analytics", { since: SINCE, until: UNTIL, filter: { "Order.status": ["canceled", "received"] } });
    expect(only.isError, only.text).toBe(false);
    expect(only.data.totals.canceled).toEqual(apart(all, 6));
    expect(only.data.totals.deleted).toEqual({ order_count: 0 });
    // Asked for by their status, the canceled orders are what is counted.
    expect(only.data.totals.success.order_count).toBe(canceledOnly.length + all.filter((o) => o.status === 3).length);
    // A filter that keeps no canceled status: none of what it counts is canceled, and it says so.
    const none = await h.call("get_sales_analytics", { since: SINCE, until: UNTIL, filter: { "Order.status_exclude": ["canceled", "deleted"] } });
    expect(none.isError, none.text).toBe(false);
    expect(none.data.totals.canceled).toEqual({ order_count: 0 });
    expect(none.data.totals.deleted).toEqual({ order_count: 0 });
    expect(none.data.totals.success.order_count).toBe(all.filter((o) => !CANCELED.has(o.status)).length);
    // Each answer is one request of the statistics (split by status as well as asked).
    const asked = h.sandbox.server.requests.slice(before).filter((q) => q.path.endsWith("/analytics/sale"));
    expect(asked).toHaveLength(2);
  });

  it("keeps the rows by status when a shop formula is asked for (a formula does not add up)", async () => {
    const formula = h.sandbox.pos.formulas[0]!;
    const field = `custom_formula_${formula.id}`;
    const r = await h.call("get_sales_analytics", { since: SINCE, until: UNTIL, split_by: ["Time.month"], select_fields: ["price", "shipping_fee", "order_count", field] });
    expect(r.isError, r.text).toBe(false);
    for (const row of r.data.rows as Row[]) {
      expect(row["Order.status"], JSON.stringify(row)).toEqual(expect.any(String));
      expect(row[field]).toBe(row.price - row.shipping_fee);
    }
    expect(r.data.totals.canceled).toMatchObject({ order_count: ofStatus(sales(), 6).length, price: price(ofStatus(sales(), 6)) });
    expect(r.data.totals.deleted).toMatchObject({ order_count: ofStatus(sales(), 7).length, price: price(ofStatus(sales(), 7)) });
  });

  it("the daily report leaves out the day's orders canceled since, and says how many", async () => {
    const gone = sales().filter((o) => CANCELED.has(o.status));
    const shopDay = (o: OrderRecord) => new Date(at(o.inserted_at) + 7 * 3_600_000).toISOString().slice(0, 10);
    const day = shopDay(gone[0]!);
    const ofDay = sales().filter((o) => shopDay(o) === day);
    const r = await h.call("get_daily_report", { date: day });
    expect(r.isError, r.text).toBe(false);
    const live = ofDay.filter((o) => !CANCELED.has(o.status));
    expect(r.data.sales).toMatchObject({ order_count: live.length, canceled_orders: ofDay.length - live.length, price: price(live) });
    expect(r.data.sales.canceled_orders).toBeGreaterThan(0);
  });
});
