import { expect } from "vitest";
import type { OrderRecord, PosState } from "../../../src/sandbox/pos/index.js";
import type { ReturnOrderRecord } from "../../../src/sandbox/pos/types.js";
import type { CallOutcome, Harness } from "../../helpers/harness.js";

// The figures of a span computed from the sandbox's raw records, by the one definition every tool
// answers by default (design.md, "One meaning per word"): an order is dated by its creation, in
// shop days (UTC+7); one canceled or deleted, whenever that happened, is no sale and no buyer;
// removed (erased) orders are in no list and no statistic.

export const CANCELED = 6;
export const DELETED = 7;
const HOUR = 3_600_000;

export const recordMs = (recordTime: string) => Date.parse(`${recordTime}Z`);
export const shopDay = (recordTime: string) => new Date(recordMs(recordTime) + 7 * HOUR).toISOString().slice(0, 10);

export const isVoid = (o: OrderRecord) => o.status === CANCELED || o.status === DELETED;
export const units = (o: OrderRecord) => o.items.reduce((n, it) => n + it.quantity, 0);
/** Goods before discounts: the statistics' price. */
export const price = (o: OrderRecord) => o.items.reduce((n, it) => n + it.variation_info.retail_price * it.quantity, 0);
/** Every discount: the statistics' discount. */
export const discount = (o: OrderRecord) => o.total_discount + o.items.reduce((n, it) => n + it.discount_each_product * it.quantity, 0);
/** Goods after discounts, shipping excluded: search_orders' amount. */
export const amount = (o: OrderRecord) => o.total_price_after_sub_discount;
export const shippingFee = (o: OrderRecord) => (o.is_free_shipping ? 0 : o.shipping_fee);
export const sum = (orders: readonly OrderRecord[], pick: (o: OrderRecord) => number) => orders.reduce((n, o) => n + pick(o), 0);

/** A buyer as search_orders groups them: the POS customer, else the phone. */
export const buyerOf = (o: OrderRecord) => o.shop_customer_id ?? o.customer?.id ?? `phone ${o.bill_phone_number}`;

/** Units per variation of these orders. */
export function unitsPerVariation(orders: readonly OrderRecord[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of orders) for (const it of o.items) out.set(it.variation_id, (out.get(it.variation_id) ?? 0) + it.quantity);
  return out;
}

/** Orders per key of these orders. */
export function countBy(orders: readonly OrderRecord[], key: (o: OrderRecord) => string): Map<string, OrderRecord[]> {
  const out = new Map<string, OrderRecord[]>();
  for (const o of orders) out.set(key(o), [...(out.get(key(o)) ?? []), o]);
  return out;
}

/** A span of shop days, both ends included. */
export interface Span {
  since: string;
  until: string;
}

/** What the span holds, by the one definition. */
export function truthOf(pos: PosState, span: Span) {
  const from = Date.parse(`${span.since}T00:00:00+07:00`);
  const to = Date.parse(`${span.until}T23:59:59.999+07:00`);
  const listed = pos.orders.filter((o) => !o.is_removed);
  const placed = listed.filter((o) => recordMs(o.inserted_at) >= from && recordMs(o.inserted_at) <= to);
  const sales = placed.filter((o) => !isVoid(o));
  const earlier = listed.filter((o) => recordMs(o.inserted_at) < from && !isVoid(o));
  const buyersBefore = new Set(earlier.map(buyerOf));
  const buyers = countBy(sales, buyerOf);
  return {
    /** Every order created in the span, canceled and deleted ones included: search_orders' total. */
    placed,
    sales,
    canceled: placed.filter((o) => o.status === CANCELED),
    deleted: placed.filter((o) => o.status === DELETED),
    buyers,
    /** Buyers of the span who bought before it too (a canceled or deleted order is no purchase). */
    returning: [...buyers.keys()].filter((b) => buyersBefore.has(b)),
    /** Of the sales, the orders the carrier brought back (the statistics' returned, status 5). */
    returned: sales.filter((o) => o.status === 5),
  };
}

/** What one unit of a line cost the customer. */
const unitPaid = (line: OrderRecord["items"][number]) => line.variation_info.retail_price - line.discount_each_product;

/** What `units(line)` of each line were worth of the order's amount: at what the customer paid, its discounts shared by the lines. */
export function worth(order: OrderRecord, units: (line: OrderRecord["items"][number]) => number): number {
  const whole = order.items.reduce((n, line) => n + line.quantity * unitPaid(line), 0);
  const part = order.items.reduce((n, line) => n + Math.min(units(line), line.quantity) * unitPaid(line), 0);
  return part > 0 ? Math.round((order.total_price_after_sub_discount * part) / whole) : 0;
}

/** What a return order's goods were worth on the order they came from. */
export const returnValue = (pos: PosState, r: ReturnOrderRecord) => {
  const order = pos.orders.find((o) => o.id === r.order_id_to_returned)!;
  return worth(order, (line) => r.returned_items.filter((it) => it.variation_id === line.variation_id).reduce((n, it) => n + it.returned_quantity, 0));
};

/** When an order reached a status, from its history. */
export const reachedAt = (o: OrderRecord, status: number) => o.status_history.find((s) => s.status === status)?.updated_at;

/** What came back in a span, both ways, from the raw records: return orders created in it (canceled apart), orders the carrier brought back in it. */
export function cameBackIn(pos: PosState, span: Span) {
  const from = Date.parse(`${span.since}T00:00:00+07:00`);
  const to = Date.parse(`${span.until}T23:59:59.999+07:00`);
  const inSpan = (recordTime: string | null | undefined) => !!recordTime && recordMs(recordTime) >= from && recordMs(recordTime) <= to;
  const made = pos.returnOrders.filter((x) => inSpan(x.inserted_at));
  const live = made.filter((x) => x.status !== 4);
  const kept = pos.orders.filter((o) => !o.is_removed);
  const returned = kept.filter((o) => o.status === 5 && inSpan(reachedAt(o, 5)));
  const partly = kept.filter((o) => o.status === 15 && inSpan(reachedAt(o, 15)));
  const carrierValue = returned.reduce((n, o) => n + o.total_price_after_sub_discount, 0) + partly.reduce((n, o) => n + worth(o, (line) => line.returned_count), 0);
  const carrierUnits = returned.reduce((n, o) => n + units(o), 0) + partly.reduce((n, o) => n + o.items.reduce((m, it) => m + it.returned_count, 0), 0);
  // A return order for an order the carrier brought back (now in its status) is those same goods.
  const carrierIds = new Set([...returned, ...partly].map((o) => o.id));
  const same = (x: ReturnOrderRecord) => carrierIds.has(x.order_id_to_returned) || [5, 15].includes(pos.orders.find((o) => o.id === x.order_id_to_returned)?.status ?? -1);
  const overlap = live.filter(same);
  const more = live.filter((x) => !same(x));
  const returnUnits = (xs: ReturnOrderRecord[]) => xs.reduce((n, x) => n + x.returned_items.reduce((m, it) => m + it.returned_quantity, 0), 0);
  const worthOf = (xs: ReturnOrderRecord[]) => xs.reduce((n, x) => n + returnValue(pos, x), 0);
  return {
    returnOrders: live,
    canceledReturnOrders: made.length - live.length,
    returnOrdersUnits: returnUnits(live),
    returnOrdersValue: worthOf(live),
    returned,
    partly,
    carrierUnits,
    carrierValue,
    overlap: { count: overlap.length, units: returnUnits(overlap), value: worthOf(overlap) },
    /** Each order's goods once: the carrier's, and the return orders for other orders. */
    total: { orders: returned.length + partly.length + new Set(more.map((x) => x.order_id_to_returned)).size, units: carrierUnits + returnUnits(more), value: carrierValue + worthOf(more) },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: rows are read by their figure names
export type Row = Record<string, any>;

/** A tool call that must answer: the failure names the call and the error. */
export const asking =
  (h: Harness) =>
  async (name: string, args: Record<string, unknown>): Promise<CallOutcome> => {
    const r = await h.call(name, args);
    expect(r.isError, `${name} ${JSON.stringify(args)}: ${r.text}`).toBe(false);
    return r;
  };
