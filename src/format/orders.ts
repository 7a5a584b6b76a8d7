import { z } from "zod";
import { BEFORE_DELIVERY, ORDER_STATUSES, PAYMENT_TYPES, RETURN_ORDER_STATUSES, statusName } from "../clients/pos-codes.js";
import type { PosOrder, PosOrderItem, PosReturnOrder } from "../clients/schemas/pos.js";
import { id, num } from "./compact.js";
import { sanitizeDeep, sanitizeName, sanitizeText } from "../text/sanitize.js";
import { shortDuration } from "./duration.js";
import { recordDate, recordTime } from "./time.js";

// Projections of POS orders and return orders, shared by the order tools and the prompts.
// Money stays in integers of the shop currency; results carry `currency` once at the top.

export const DEFAULT_CURRENCY = "VND";

/** Names for ids an order only references (carriers, warehouses), when the caller has them. */
export interface OrderNames {
  carriers?: ReadonlyMap<string, string>;
  warehouses?: ReadonlyMap<string, string>;
}

type Loose = Record<string, unknown>;
const rec = (value: unknown): Loose => (typeof value === "object" && value !== null ? (value as Loose) : {});

/** The currency of a set of orders: the first one that names it, else the shop default. */
export function orderCurrency(orders: readonly { order_currency?: string | null }[]): string {
  return orders.find((o) => o.order_currency)?.order_currency ?? DEFAULT_CURRENCY;
}

export const orderStatusName = (code: unknown) => statusName(ORDER_STATUSES, code);

/**
 * The number the shop shows an order by ("#444"): what its owner, staff and customers say, and
 * what every tool taking an order accepts. The id the API is keyed by ("58444") means nothing to them.
 */
export const orderNumber = (displayId: unknown): string | undefined => {
  const n = id(displayId);
  return n === undefined ? undefined : `#${n}`;
};
export const returnStatusName = (code: unknown) => statusName(RETURN_ORDER_STATUSES, code);

// Only fields that keep one type in the compact row and in the upstream record are typed, so the
// same schema also holds the upstream record (`fields`, `detail: "full"`).
export const orderRowSchema = z.looseObject({
  id: z.string(),
  number: z.string().optional().describe('The shop\'s order number, "#444"'),
  status_name: z.string().optional(),
  customer_name: z.string().optional(),
  customer_id: z.string().optional().describe("The POS customer"),
  amount: z.number().optional().describe("Goods after discounts, shipping excluded"),
  cod: z.number().optional().describe("Cash on delivery: what the carrier collects from the buyer"),
  created_at: z.string().optional(),
});
export type OrderRow = z.infer<typeof orderRowSchema>;

/** An upstream record passed through as is, with its id as text like every projected row. */
export function upstreamRecord<T extends { id: string | number }>(record: T): { [key: string]: unknown; id: string } {
  return { ...(sanitizeDeep(record) as object), id: String(record.id) };
}

/** One line per order: who, what state, how much, how it ships. */
export function orderRow(order: PosOrder, timeZone: string, names: OrderNames = {}) {
  const partner = order.partner;
  const carrierId = id(partner?.partner_id);
  return {
    id: String(order.id),
    number: orderNumber(order.display_id),
    status: num(order.status),
    status_name: orderStatusName(order.status),
    // A deleted order keeps its last status; without this it read as a live, paid order.
    deleted: (order as Loose).is_removed === true || undefined,
    customer_name: sanitizeName(order.bill_full_name ?? order.customer?.name),
    customer_id: customerIdOf(order),
    phone: sanitizeName(order.bill_phone_number),
    item_count: num(order.total_quantity) ?? order.items?.reduce((sum, it) => sum + (it.quantity ?? 0), 0),
    amount: num(order.total_price_after_sub_discount) ?? num(order.total_price),
    returned_amount: returnedAmountOf(order) || undefined,
    cod: num(order.cod),
    carrier: carrierId === undefined ? undefined : (names.carriers?.get(carrierId) ?? carrierId),
    tracking: sanitizeName(partner?.extend_code),
    source: sanitizeName(order.order_sources_name) ?? id(order.order_sources),
    created_at: recordTime(order.inserted_at, timeZone),
    updated_at: recordTime(order.updated_at, timeZone),
  };
}

/** What one unit of a line cost the customer: its price less the line's discount (an amount, or a percent). */
function unitPaid(line: Loose): number {
  const price = num(rec(line.variation_info).retail_price) ?? num(line.retail_price) ?? 0;
  const discount = num(line.discount_each_product) ?? 0;
  return line.is_discount_percent === true ? price * (1 - discount / 100) : price - discount;
}

/**
 * What some units of an order's lines were worth to the customer: the order's amount (goods after
 * every discount) shared by the lines' value, of `units(line)` units of each (at most its quantity).
 */
function paidFor(order: PosOrder, units: (line: PosOrderItem) => number): number {
  const amount = num(order.total_price_after_sub_discount) ?? num(order.total_price) ?? 0;
  let part = 0;
  let whole = 0;
  for (const item of order.items ?? []) {
    const quantity = num(item.quantity) ?? 0;
    const unit = unitPaid(item as Loose);
    whole += quantity * unit;
    part += Math.min(units(item), quantity) * unit;
  }
  return part > 0 && whole > 0 ? Math.round((amount * part) / whole) : 0;
}

/**
 * What came back of an order, at what the customer paid: all of it for a returned order; for a
 * partly returned one, its amount (goods after discounts) shared by the lines' value, of the
 * units returned. 0 when nothing came back.
 */
export function returnedAmountOf(order: PosOrder): number {
  if (order.status === 5) return num(order.total_price_after_sub_discount) ?? num(order.total_price) ?? 0;
  return paidFor(order, (item) => num(item.returned_count) ?? 0);
}

/** Units that came back of an order: every unit of a returned one, the lines' returned count of a partly returned one. */
export const unitsBackOf = (order: PosOrder): number =>
  (order.items ?? []).reduce((n, item) => n + ((order.status === 5 ? num(item.quantity) : num(item.returned_count)) ?? 0), 0);

/** Units a return order takes back. */
export const returnedUnits = (r: PosReturnOrder): number => (r.returned_items ?? []).reduce((n, it) => n + (num(it.returned_quantity) ?? 0), 0);

/**
 * What the goods of a return order were worth, as returnedAmountOf values an order's: at what the
 * customer paid for them on the order they came from (its discounts shared by the lines), or,
 * when the record carries no such order, at the returned lines' own prices.
 */
export function returnValueOf(r: PosReturnOrder): number {
  const items = (r.returned_items ?? []) as Loose[];
  const original = r.order_to_returned;
  if (!original?.items?.length) return Math.round(items.reduce((total, it) => total + (num(it.returned_quantity) ?? 0) * unitPaid(it), 0));
  // Units back per variation, taken line by line (a variation on two lines fills the first first).
  const back = new Map<string, number>();
  for (const it of items) back.set(String(it.variation_id), (back.get(String(it.variation_id)) ?? 0) + (num(it.returned_quantity) ?? 0));
  return paidFor(original, (line) => {
    const key = String(line.variation_id);
    const taken = Math.min(back.get(key) ?? 0, num(line.quantity) ?? 0);
    back.set(key, (back.get(key) ?? 0) - taken);
    return taken;
  });
}

/** The POS customer an order is for: the shop's customer record it names. */
export const customerIdOf = (order: PosOrder): string | undefined => id((order as Loose).shop_customer_id) ?? id(order.customer?.id);

/** How long an order has been in its status ("3d 4h"), from its last status change. */
export function inStatusFor(order: PosOrder, now = Date.now()): string | undefined {
  const since = recordDate((order as Loose).last_update_status_at);
  return since && shortDuration(now - since.getTime());
}

/** An order line: what was sold, how many, at what unit price. */
export function orderItemLine(item: PosOrderItem) {
  const info = item.variation_info;
  return {
    variation_id: id(item.variation_id),
    name: sanitizeName(info?.name),
    variant: sanitizeName(info?.detail),
    sku: id(info?.display_id),
    quantity: num(item.quantity),
    price: num(info?.retail_price),
    discount_each: num(item.discount_each_product) || undefined,
    returned: num(item.returned_count) || undefined,
    bonus: item.is_bonus_product || undefined,
  };
}

/** Money already paid, per channel; only channels with an amount. */
function payments(order: PosOrder): Record<string, number> {
  const raw = order as Loose;
  const out: Record<string, number> = {};
  for (const field of PAYMENT_TYPES) {
    const amount = num(raw[field]);
    if (amount) out[field] = amount;
  }
  for (const [account, amount] of Object.entries(rec(raw.bank_payments))) {
    const n = num(amount);
    if (n) out[`bank:${account}`] = n;
  }
  return out;
}

export const orderDetailSchema = orderRowSchema.extend({
  items: z.array(z.looseObject({ name: z.string().optional(), quantity: z.number().optional() })).optional(),
  address: z.looseObject({}).optional(),
  payments: z.record(z.string(), z.number()).optional(),
  status_history: z.array(z.looseObject({ status_name: z.string().optional(), at: z.string().optional() })).optional(),
});

/**
 * An address without a full_address (one sent as typed, not yet placed): its street and the place
 * names it has. The OpenAPI spells the ward's name `commnue_name`; orders read back say `commune_name`.
 */
function placeText(a: NonNullable<PosOrder["shipping_address"]>): string {
  const raw = a as Loose;
  return [a.address, a.commune_name ?? raw.commnue_name, a.district_name, a.province_name].filter((p) => typeof p === "string" && p.trim()).join(", ");
}

/** A readable order: lines, address, money, payments by channel and status history with names. */
export function orderDetail(order: PosOrder, timeZone: string, names: OrderNames = {}) {
  const a = order.shipping_address;
  const raw = order as Loose;
  const warehouseId = id(order.warehouse_id);
  const row = orderRow(order, timeZone, names);
  // What the row already says is not said twice: a detail is read whole, every token counts.
  const unlessSame = <T>(value: T, same: unknown) => (value === same ? undefined : value);
  const items = (order.items ?? []).map(orderItemLine);
  return {
    ...row,
    // The lines say it: counted apart only where they do not add up to it.
    item_count: unlessSame(row.item_count, items.reduce((n, it) => n + (it.quantity ?? 0), 0)),
    subtotal: unlessSame(num(order.total_price), row.amount),
    discount: num(order.total_discount) || undefined,
    shipping_fee: num(order.shipping_fee),
    free_shipping: raw.is_free_shipping === true || undefined,
    money_to_collect: unlessSame(num(order.money_to_collect), row.cod),
    payments: payments(order),
    items,
    address: a
      ? {
          receiver_name: unlessSame(sanitizeName(a.full_name), row.customer_name),
          phone: unlessSame(sanitizeName(a.phone_number), row.phone),
          // Address ids stay in `detail: "full"`; people and models read the address itself, in
          // the form it was saved in (render_type; the vendor's order examples).
          full_address: sanitizeText((a.render_type === "new" && a.new_full_address) || a.full_address || placeText(a), { max: 300 }),
        }
      : undefined,
    // By name, as search_products shows stock and as warehouse_id takes it; the id when the name is not known.
    warehouse: warehouseId ? (names.warehouses?.get(warehouseId) ?? warehouseId) : undefined,
    page_id: id(order.page_id),
    staff_note: sanitizeText(order.note, { max: 500 }),
    staff_note_print: sanitizeText(order.note_print, { max: 500 }),
    tags: (order.tags ?? []).map((t) => sanitizeName(rec(t).name ?? t)).filter((t): t is string => t !== undefined),
    // Oldest first, so each entry's previous status is the entry before it.
    status_history: (order.status_history ?? []).map((h) => ({
      status_name: orderStatusName(h.status),
      by: sanitizeName(h.name),
      at: recordTime(h.updated_at, timeZone),
    })),
    exchange_order_ids: Array.isArray(raw.change_by_orders) ? raw.change_by_orders.map(String) : undefined,
  };
}

/** One carrier update of an order (its partner's extend_update): when, what, the carrier's note. */
export function carrierUpdate(update: unknown, timeZone: string) {
  const u = rec(update);
  return { at: recordTime(u.update_at, timeZone), status: sanitizeName(u.status), note: sanitizeName(u.note) };
}

/** Carrier updates an order shows: the latest few (track_order has them all). */
const LATEST_UPDATES = 3;

export const carrierNewsSchema = z.object({
  carrier_status: z.string().optional(),
  carrier_updates: z.array(z.looseObject({ at: z.string().optional(), status: z.string().optional() })).optional().describe("The carrier's latest events, newest first"),
  expected_delivery: z.string().optional(),
});

/**
 * Where the parcel is, as the carrier last said: its status, its latest updates newest first and
 * the delivery date it expects, times in the shop's zone like every other. For get_order only:
 * order rows (search_orders) stay as they are.
 */
export function carrierNews(order: PosOrder, timeZone: string): z.infer<typeof carrierNewsSchema> {
  const partner = rec(order.partner);
  const updates = Array.isArray(partner.extend_update) ? partner.extend_update : [];
  const when = (u: unknown) => recordDate(rec(u).update_at)?.getTime() ?? Number.NEGATIVE_INFINITY;
  const latest = [...updates].sort((a, b) => when(b) - when(a)).slice(0, LATEST_UPDATES);
  return {
    carrier_status: sanitizeName(partner.partner_status),
    carrier_updates: latest.length ? latest.map((u) => carrierUpdate(u, timeZone)) : undefined,
    // News only until the parcel arrives: once delivered, returned or canceled, the status says what came of it.
    expected_delivery: BEFORE_DELIVERY.includes(Number(order.status)) ? recordTime(order.estimate_delivery_date, timeZone) : undefined,
  };
}


export const returnOrderRowSchema = z.looseObject({
  id: z.string().optional(),
  status_name: z.string().optional(),
  original_order: z.string().optional().describe("The order it returns, by number"),
  original_order_id: z.string().optional(),
  exchange_order: z.string().optional(),
  exchange_order_id: z.string().optional(),
  value: z.number().optional().describe("The goods back, at what the customer paid"),
  created_at: z.string().optional(),
});

/** A return/exchange order: the order it returns and the exchange order it made, by number and id; what came back and its value. */
export function returnOrderRow(r: PosReturnOrder, timeZone: string) {
  const items = r.returned_items ?? [];
  return {
    id: id(r.id),
    number: orderNumber(r.display_id),
    status_name: returnStatusName(r.status),
    original_order: orderNumber(r.order_to_returned?.display_id),
    original_order_id: id(r.order_id_to_returned ?? r.order_to_returned?.id),
    exchange_order: orderNumber(r.order?.display_id),
    exchange_order_id: id(r.order_id ?? r.order?.id),
    customer_name: sanitizeName(r.bill_full_name),
    // What came back, by name (variation ids stay in detail "full": rows are read by people).
    returned_items: items.map((it) => ({ name: sanitizeName(rec(rec(it).variation_info).name), quantity: num(it.returned_quantity) })),
    value: returnValueOf(r),
    created_at: recordTime(r.inserted_at, timeZone),
  };
}
