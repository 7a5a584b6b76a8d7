import type { SandboxRequest } from "../server.js";
import { figuresOf, partnerTime, statusTime } from "./derived.js";
import { boolParam, intParam, invalid, listParam, unixParamMs } from "./api.js";
import { ORDER_TIMES, PARTNER_TIMES } from "./order-times.js";
import type { OrderRecord } from "./types.js";

const ORDER_TIME_FIELDS = new Set<string>(ORDER_TIMES);
const PARTNER_TIME_FIELDS = new Set<string>(PARTNER_TIMES);
const STATUS_CODES = new Set([0, 11, 20, 1, 12, 13, 8, 9, 2, 3, 16, 4, 15, 5]);

/** Whether `updateStatus` is a value the service knows: a time field, -1 or a status code. */
export function isOrderTimeField(updateStatus: string): boolean {
  return (
    ORDER_TIME_FIELDS.has(updateStatus) ||
    PARTNER_TIME_FIELDS.has(updateStatus) ||
    updateStatus === "-1" ||
    (/^\d+$/.test(updateStatus) && STATUS_CODES.has(Number(updateStatus)))
  );
}

/**
 * The time `updateStatus` names on an order: the field, the last status change (-1) or when the
 * order entered the status code; null when the order has no such time.
 */
export function orderTime(order: OrderRecord, updateStatus: string): string | null {
  return orderTimeOf(updateStatus)(order);
}

/** orderTime() with `updateStatus` read once, for a list that asks it of every order. */
export function orderTimeOf(updateStatus: string): (order: OrderRecord) => string | null {
  if (PARTNER_TIME_FIELDS.has(updateStatus)) return (order) => partnerTime(order, updateStatus as (typeof PARTNER_TIMES)[number]);
  if (updateStatus === "-1") return (order) => order.last_update_status_at;
  if (/^\d+$/.test(updateStatus)) {
    const status = Number(updateStatus);
    return (order) => statusTime(order, status);
  }
  // The fields the incremental reads ask for most, read directly: a keyed read of every order is slower.
  if (updateStatus === "updated_at") return (order) => order.updated_at;
  if (updateStatus === "inserted_at") return (order) => order.inserted_at;
  return (order) => (order[updateStatus] as string | null) ?? null;
}

export type SortKey = (o: OrderRecord) => string | number;
const SORT_KEYS: Record<string, SortKey> = {
  inserted_at: (o) => o.inserted_at,
  last_updated_order: (o) => o.updated_at,
  last_update_status_at: (o) => o.last_update_status_at,
  order_valuation: (o) => o.total_price_after_sub_discount,
  product_quantity: (o) => o.total_quantity,
  product_name: (o) => figuresOf(o).items[0]?.variation_info.name ?? "",
  sub_status_sort: (o) => o.sub_status ?? -1,
  first_undeliverable_at: (o) => (figuresOf(o).partner as Record<string, string> | null)?.first_undeliverable_at ?? "",
  customer_sort: (o) => o.bill_full_name,
  estimate_delivery_date: (o) => o.estimate_delivery_date ?? "",
  order_source: (o) => o.order_sources_name,
};

/** An `option_sort` value (`<key>_asc|desc`): the key it names, the key's value on an order, the direction. */
export function orderSort(optionSort: string): { key: string; value: SortKey; ascending: boolean } {
  const match = /^(.+)_(asc|desc)$/.exec(optionSort);
  const value = match ? SORT_KEYS[match[1]!] : undefined;
  if (!match || !value) throw invalid();
  return { key: match[1]!, value, ascending: match[2] === "asc" };
}

/** The comparator of an `option_sort` value, ties broken by id. */
export function orderSorter(optionSort: string): (a: OrderRecord, b: OrderRecord) => number {
  const { value: key, ascending } = orderSort(optionSort);
  const sign = ascending ? 1 : -1;
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    const byKey = ka < kb ? -1 : ka > kb ? 1 : 0;
    return sign * (byKey || a.id - b.id);
  };
}

/** `order_sources[]` values: JSON pairs `["-1","314"]`, a JSON list of pairs, or a bare source id. */
function sourcePairs(values: string[]): string[][] {
  return values.flatMap((value) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return [[value]];
    }
    if (!Array.isArray(parsed)) return [[String(parsed)]];
    return parsed.every(Array.isArray) ? (parsed as unknown[][]).map((p) => p.map(String)) : [parsed.map(String)];
  });
}

/**
 * `search` is documented as "phone number, name of customer, note, ..."; like the web app's search
 * box it also finds an order by its number (the `display_id` the shop sees, or its `id`).
 */
const isOrderNumber = (o: OrderRecord, search: string) => search === String(o.display_id) || search === String(o.id);

/** What GET /orders asks: its time range, whether removed orders count, and its other filters. */
export interface OrderQuery {
  /** The order time `updateStatus` names, and the range asked of it (UTC ms, both ends included). */
  timeField: string;
  start?: number;
  end?: number;
  includeRemoved: boolean;
  customerId?: string;
  /** The search text, lowercase. */
  search?: string;
  /** The filters besides the range and removal; undefined when none is asked. */
  others?: (o: OrderRecord) => boolean;
}

/** The order list filters of GET /orders. */
export function orderQuery(req: SandboxRequest): OrderQuery {
  const search = req.query.get("search")?.trim().toLowerCase();
  const statuses = listParam(req, "filter_status").map(Number);
  if (statuses.some((s) => !Number.isInteger(s))) throw invalid();
  const includeRemoved = intParam(req, "include_removed") === 1;
  const timeField = req.query.get("updateStatus") ?? "inserted_at";
  if (!isOrderTimeField(timeField)) throw invalid();
  const start = unixParamMs(req, "startDateTime");
  const end = unixParamMs(req, "endDateTime");
  const partners = listParam(req, "partner_id").map(Number);
  const customerId = req.query.get("customer_id") || undefined;
  const sources = sourcePairs(listParam(req, "order_sources"));
  const excludeSources = boolParam(req, "is_filter_exclude_source");
  const adIds = listParam(req, "ad_ids");
  const inSources = (o: OrderRecord) =>
    sources.some(([id, account]) => o.order_sources === id && (account === undefined || o.account === account));
  const tests: ((o: OrderRecord) => boolean)[] = [];
  if (statuses.length) tests.push((o) => statuses.includes(o.status));
  if (search) {
    tests.push((o) => isOrderNumber(o, search) || [o.bill_phone_number, o.bill_full_name.toLowerCase(), o.note?.toLowerCase() ?? ""].some((t) => t.includes(search)));
  }
  if (partners.length) tests.push((o) => partners.includes(figuresOf(o).partner?.partner_id ?? Number.NaN));
  if (customerId) tests.push((o) => o.shop_customer_id === customerId || o.customer?.customer_id === customerId);
  if (sources.length) tests.push((o) => inSources(o) !== excludeSources);
  if (adIds.length) tests.push((o) => adIds.includes(o.ad_id ?? ""));
  const others = tests.length ? (o: OrderRecord) => tests.every((test) => test(o)) : undefined;
  return { timeField, start, end, includeRemoved, customerId, search: search || undefined, others };
}

/** Keeps only the `fields[]` asked for. */
export function projectOrder(order: OrderRecord, fields: string[]): Record<string, unknown> {
  if (!fields.length) return order;
  return Object.fromEntries(fields.filter((f) => f in order).map((f) => [f, order[f]]));
}
