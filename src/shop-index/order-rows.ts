import type { OrderListParams } from "../clients/pos.js";
import type { PosOrder } from "../clients/schemas/pos.js";
import { id } from "../format/compact.js";
import { recordDate } from "../format/time.js";
import type { Select } from "./store.js";

// What the order index keeps of each order, and the order list's own filters applied to what it
// keeps, so that an answer from the index counts exactly the orders the list would serve.

/** Fields asked of the list (`fields[]`): what grouping, the local filters and the rows' figures read. */
export const INDEX_FIELDS = [
  "id",
  "display_id",
  "status",
  "is_removed",
  "inserted_at",
  "updated_at",
  "last_update_status_at",
  "status_history",
  "total_price_after_sub_discount",
  "total_price",
  "cod",
  "shipping_fee",
  "is_free_shipping",
  "order_currency",
  "order_sources",
  "order_sources_name",
  "page_id",
  // The chat the order was made from: joins orders to chats (list_conversations with_open_orders).
  "conversation_id",
  "account",
  "account_name",
  "shipping_address",
  "partner",
  "partner_inserted_at",
  "estimate_delivery_date",
  "transfer_proof",
  "creator",
  "assigning_seller_id",
  "assigning_seller",
  "time_assign_seller",
  "time_assign_care",
  "time_assign_marketer",
  "warehouse_id",
  "customer",
  "shop_customer_id",
  "bill_full_name",
  "bill_phone_number",
  "ad_id",
  "post_id",
  "is_livestream",
  "items",
] as const;

type Loose = Record<string, unknown>;
const rec = (value: unknown): Loose | undefined => (typeof value === "object" && value !== null ? (value as Loose) : undefined);
const pick = (value: unknown, keys: readonly string[]) => {
  const from = rec(value);
  return from && Object.fromEntries(keys.filter((k) => from[k] != null).map((k) => [k, from[k]]));
};

/** The carrier's times the list filters on, beside its id. */
const PARTNER_KEYS = ["partner_id", "paid_at", "picked_up_at", "first_delivery_at"];
/** An order line as sales per variant and the value of what came back read it. */
const ITEM_KEYS = ["variation_id", "product_id", "quantity", "returned_count", "discount_each_product", "is_discount_percent", "is_bonus_product"];
const ADDRESS_KEYS = ["province_id", "new_province_id", "province_name"];
const PERSON_KEYS = ["id", "name"];
/** fb_id: the customer's id on the platform, as a chat shows it (list_conversations with_open_orders). */
const CUSTOMER_KEYS = ["id", "customer_id", "name", "fb_id"];

/**
 * An order as the index keeps it: the listed fields, nested records cut to what is read (a
 * carrier's whole tracking history is most of a record), nulls dropped. About 2.2 KB of JSON (its lines and status history half of it).
 */
export function indexedOrder(order: PosOrder): PosOrder {
  const raw = order as Loose;
  const out: Loose = {};
  for (const field of INDEX_FIELDS) {
    const value = raw[field];
    if (value === null || value === undefined) continue;
    out[field] = value;
  }
  if (raw.status_history) {
    out.status_history = (Array.isArray(raw.status_history) ? raw.status_history : []).map((h) => pick(h, ["status", "updated_at"]));
  }
  if (Array.isArray(raw.items)) {
    out.items = raw.items.map((item) => {
      const price = rec(rec(item)?.variation_info)?.retail_price;
      return { ...pick(item, ITEM_KEYS), ...(typeof price === "number" ? { retail_price: price } : {}) };
    });
  }
  for (const [field, keys] of [
    ["partner", PARTNER_KEYS],
    ["shipping_address", ADDRESS_KEYS],
    ["creator", PERSON_KEYS],
    ["assigning_seller", PERSON_KEYS],
    ["customer", CUSTOMER_KEYS],
  ] as const) {
    if (out[field] !== undefined) out[field] = pick(out[field], keys);
  }
  return out as PosOrder;
}

/** Unix seconds of a record time, or undefined. */
export const unix = (value: unknown): number | undefined => {
  const at = recordDate(value)?.getTime();
  return at === undefined ? undefined : Math.floor(at / 1000);
};

/** Status changes an order's version tells apart within one second (far more than any order has). */
const MOST_CHANGES = 9_999;

/**
 * How new an order is, for ordering what is pushed against what is held: its update second, then
 * within that second how many status changes its history holds. The POS stamps whole seconds, so
 * an order confirmed and then moved on within one second is told apart only by its history, and
 * the first change delivered again (or late) is older than what is held.
 */
export function orderVersion(order: PosOrder): number {
  const history = Array.isArray(order.status_history) ? order.status_history.length : 0;
  return (unix(order.updated_at) ?? 0) + Math.min(history, MOST_CHANGES) / (MOST_CHANGES + 1);
}

const PARTNER_TIMES = new Set(["paid_at", "picked_up_at", "first_delivery_at"]);

/** The time the list's `updateStatus` names on an order: a field, the last status change (-1), entering a status code. */
export function orderTimeOf(order: PosOrder, field: string | number): unknown {
  const raw = order as Loose;
  const text = String(field);
  if (text === "-1") return raw.last_update_status_at;
  if (/^\d+$/.test(text)) return order.status_history?.find((h) => String(h.status) === text)?.updated_at;
  return PARTNER_TIMES.has(text) ? rec(order.partner)?.[text] : raw[text];
}

/**
 * Time fields whose time is never after the order's last update (it is set by an update): rows
 * updated since S hold every order created, updated or moved to a status since S. Carrier times,
 * assignment times and the expected delivery date are set otherwise, so they need every order.
 */
export function boundedByUpdate(field: string | number | undefined): boolean {
  const text = String(field ?? "inserted_at");
  return text === "inserted_at" || text === "updated_at" || text === "-1" || /^\d+$/.test(text);
}

/**
 * What of the index a query reads: the range of its time where a column holds it (created,
 * updated; a status reached or changed last is after the order's last update, so its range starts
 * the update's), and the heavy parts (status history, lines) only when its fields or its time ask
 * for them (no fields: the whole order).
 */
export function selectOf(q: OrderListParams): Select {
  const field = String(q.updateStatus ?? "inserted_at");
  const byStatus = /^\d+$/.test(field);
  const full = byStatus || !q.fields || q.fields.some((f) => f === "status_history" || f === "items");
  if (field === "inserted_at") return { by: "inserted", from: q.startDateTime, to: q.endDateTime, full };
  if (field === "updated_at") return { by: "updated", from: q.startDateTime, to: q.endDateTime, full };
  if (byStatus || field === "-1") return { by: "updated", from: q.startDateTime, full };
  return { full };
}

/** Filters the index cannot apply as the list does: the list's free-text search (its matching is its own). */
export const unindexable = (q: OrderListParams): string | undefined => (q.search ? "search" : undefined);

/**
 * GET /orders' filters, applied to a kept order as the list applies them (the vendor's OpenAPI
 * parameters; the sandbox serves the same): removed orders only with include_removed, statuses,
 * the time range on `updateStatus` (inclusive seconds), carriers, the customer (the POS customer
 * id or the inbox customer id an order carries), sources (a source, or a source and account), ads.
 */
export function listedBy(q: OrderListParams): (o: PosOrder) => boolean {
  const statuses = q.filter_status?.length ? new Set(q.filter_status.map(Number)) : undefined;
  const partners = q.partner_id?.length ? new Set(q.partner_id.map(Number)) : undefined;
  const ads = q.ad_ids?.length ? new Set(q.ad_ids.map(String)) : undefined;
  const field = q.updateStatus ?? "inserted_at";
  const ranged = q.startDateTime !== undefined || q.endDateTime !== undefined;
  const sources = q.order_sources?.length ? q.order_sources : undefined;
  const inSources = (o: PosOrder) =>
    sources!.some(([source, account]) => id(o.order_sources) === String(source) && (account === undefined || id(o.account) === String(account)));
  return (o) => {
    const raw = o as Loose;
    if (raw.is_removed === true && q.include_removed !== 1) return false;
    if (statuses && !statuses.has(Number(o.status))) return false;
    if (ranged) {
      // In milliseconds, as the list compares: a time with a fraction of a second past the end is out.
      const at = recordDate(orderTimeOf(o, field))?.getTime();
      if (at === undefined) return false;
      if ((q.startDateTime !== undefined && at < q.startDateTime * 1000) || (q.endDateTime !== undefined && at > q.endDateTime * 1000)) return false;
    }
    if (partners && !partners.has(Number(rec(o.partner)?.partner_id))) return false;
    if (q.customer_id !== undefined && id(raw.shop_customer_id) !== q.customer_id && id(rec(o.customer)?.customer_id) !== q.customer_id) return false;
    if (sources && inSources(o) === (q.is_filter_exclude_source === true)) return false;
    if (ads && !ads.has(String(raw.ad_id ?? ""))) return false;
    return true;
  };
}
