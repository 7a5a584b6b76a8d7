import type { SandboxRequest } from "../server.js";
import { boolParam, intParam, invalid, listParam, unixParamMs } from "./api.js";
import { timeTest } from "../time-range.js";
import { ms } from "./time.js";
import type { OrderRecord } from "./types.js";

/** The order's own time fields the list filters on (`updateStatus`). */
export const ORDER_TIMES = [
  "inserted_at",
  "updated_at",
  "partner_inserted_at",
  "estimate_delivery_date",
  "transfer_proof",
  "time_assign_seller",
  "time_assign_care",
  "time_assign_marketer",
] as const;
/** The carrier's, on the order's `partner` record. */
export const PARTNER_TIMES = ["paid_at", "picked_up_at", "first_delivery_at"] as const;
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
  return timeOf(updateStatus)(order);
}

/** orderTime() with `updateStatus` read once, for a filter that asks it of every order. */
function timeOf(updateStatus: string): (order: OrderRecord) => string | null {
  if (PARTNER_TIME_FIELDS.has(updateStatus)) {
    return (order) => ((order.partner as Record<string, unknown> | null)?.[updateStatus] as string | null) ?? null;
  }
  if (updateStatus === "-1") return (order) => order.last_update_status_at;
  if (/^\d+$/.test(updateStatus)) {
    const status = Number(updateStatus);
    return (order) => order.status_history.find((h) => h.status === status)?.updated_at ?? null;
  }
  // The fields the incremental reads ask for most, read directly: a keyed read of every order is slower.
  if (updateStatus === "updated_at") return (order) => order.updated_at;
  if (updateStatus === "inserted_at") return (order) => order.inserted_at;
  return (order) => (order[updateStatus] as string | null) ?? null;
}

type SortKey = (o: OrderRecord) => string | number;
const SORT_KEYS: Record<string, SortKey> = {
  inserted_at: (o) => o.inserted_at,
  last_updated_order: (o) => o.updated_at,
  last_update_status_at: (o) => o.last_update_status_at,
  order_valuation: (o) => o.total_price_after_sub_discount,
  product_quantity: (o) => o.total_quantity,
  product_name: (o) => o.items[0]?.variation_info.name ?? "",
  sub_status_sort: (o) => o.sub_status ?? -1,
  first_undeliverable_at: (o) => (o.partner as Record<string, string> | null)?.first_undeliverable_at ?? "",
  customer_sort: (o) => o.bill_full_name,
  estimate_delivery_date: (o) => o.estimate_delivery_date ?? "",
  order_source: (o) => o.order_sources_name,
};

/** The comparator of an `option_sort` value (`<key>_asc|desc`), ties broken by id. */
export function orderSorter(optionSort: string): (a: OrderRecord, b: OrderRecord) => number {
  const match = /^(.+)_(asc|desc)$/.exec(optionSort);
  const key = match ? SORT_KEYS[match[1]!] : undefined;
  if (!match || !key) throw invalid();
  const sign = match[2] === "asc" ? 1 : -1;
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

/** The order list filters of GET /orders, as one predicate. */
export function orderFilter(req: SandboxRequest): (o: OrderRecord) => boolean {
  const search = req.query.get("search")?.trim().toLowerCase();
  const statuses = listParam(req, "filter_status").map(Number);
  if (statuses.some((s) => !Number.isInteger(s))) throw invalid();
  const includeRemoved = intParam(req, "include_removed") === 1;
  const timeField = req.query.get("updateStatus") ?? "inserted_at";
  if (!isOrderTimeField(timeField)) throw invalid();
  const start = unixParamMs(req, "startDateTime");
  const end = unixParamMs(req, "endDateTime");
  const inRange = timeTest(start, end, ms);
  const timeOfOrder = timeOf(timeField);
  const partners = listParam(req, "partner_id").map(Number);
  const customerId = req.query.get("customer_id");
  const sources = sourcePairs(listParam(req, "order_sources"));
  const excludeSources = boolParam(req, "is_filter_exclude_source");
  const adIds = listParam(req, "ad_ids");
  const inSources = (o: OrderRecord) =>
    sources.some(([id, account]) => o.order_sources === id && (account === undefined || o.account === account));
  return (o) => {
    if (o.is_removed && !includeRemoved) return false;
    if (statuses.length && !statuses.includes(o.status)) return false;
    if (search && !isOrderNumber(o, search) && ![o.bill_phone_number, o.bill_full_name.toLowerCase(), o.note?.toLowerCase() ?? ""].some((t) => t.includes(search)))
      return false;
    if (start !== undefined || end !== undefined) {
      const time = timeOfOrder(o);
      if (!time || !inRange(time)) return false;
    }
    if (partners.length && !partners.includes(o.partner?.partner_id ?? Number.NaN)) return false;
    if (customerId && o.shop_customer_id !== customerId && o.customer?.customer_id !== customerId) return false;
    if (sources.length && inSources(o) === excludeSources) return false;
    if (adIds.length && !adIds.includes(o.ad_id ?? "")) return false;
    return true;
  };
}

/** Keeps only the `fields[]` asked for. */
export function projectOrder(order: OrderRecord, fields: string[]): Record<string, unknown> {
  if (!fields.length) return order;
  return Object.fromEntries(fields.filter((f) => f in order).map((f) => [f, order[f]]));
}
