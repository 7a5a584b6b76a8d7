import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { BEFORE_DELIVERY, ORDER_STATUSES, ORDER_TIME_STATUSES, requireStatus } from "../../clients/pos-codes.js";
import type { OrderListParams, OrderSort, PosClient } from "../../clients/pos.js";
import { parseDuration } from "../../format/duration.js";
import { orderStatusName } from "../../format/orders.js";
import { toIsoInZone, toUnix } from "../../format/time.js";
import { sinceInput, untilInput } from "../inputs.js";
import { carriers, orderSources, refId, sourcePair } from "../pos/shop-refs.js";
import { openRange } from "../pos/open-range.js";
import { customerId } from "../pos/customer-ref.js";
import { searchText } from "../pos/phone.js";
import { orderNumberOf } from "./order-ref.js";

// The filters of GET /orders in the caller's words (names, human dates), turned into the
// upstream query before any call.

const TIME_FIELDS = [
  "inserted_at",
  "updated_at",
  "partner_inserted_at",
  "paid_at",
  "estimate_delivery_date",
  "picked_up_at",
  "first_delivery_at",
  "transfer_proof",
  "time_assign_seller",
  "time_assign_care",
  "time_assign_marketer",
] as const;

/**
 * The sorts offered: the list also sorts by first product name, customer name, delivery-delay
 * reason and first failed delivery, left out to keep the listing within its budget (an assistant
 * sorts a page by name itself).
 */
export const SORT_KEYS = [
  "inserted_at",
  "last_updated_order",
  "last_update_status_at",
  "order_valuation",
  "product_quantity",
  "estimate_delivery_date",
  "order_source",
] as const;

const statusValue = z.union([z.string().max(40), z.number().int()]);

export const orderFilterInput = {
  search: z.string().max(200).optional().describe('Phone (any form), name, note, or "#560"'),
  statuses: z
    .array(statusValue)
    .max(ORDER_STATUSES.length)
    .optional()
    .describe(
      'In workflow order: new, waiting_for_confirmation, waiting_for_goods, ordered, confirmed, waiting_to_print, printed, packing, waiting_to_ship, shipped, received (delivered), money_collected (delivered, paid), returning, partly_returned, returned, canceled, deleted; codes; "undelivered" (all before received); "all"',
    ),
  exclude_statuses: z.boolean().optional().describe("Negate statuses"),
  time_field: statusValue
    .optional()
    .describe("Field of since/until: inserted_at (default), updated_at, paid_at, a status name, …"),
  since: sinceInput,
  until: untilInput,
  sort: z.enum(SORT_KEYS).default("inserted_at").describe("Sort"),
  ascending: z.boolean().default(false).describe("Oldest first"),
  carriers: z.array(z.union([z.string().max(60), z.number().int()])).max(20).optional().describe("Carrier ids or names"),
  customer_id: z.string().max(120).optional().describe("Customer id, phone or name"),
  sources: z.array(z.string().max(80)).max(20).optional().describe('Source or page ids/names; "source/account"'),
  exclude_sources: z.boolean().optional().describe("Negate sources"),
  ad_ids: z.array(z.string().max(40)).max(50).optional().describe("Ad ids"),
  post_ids: z.array(z.string().max(80)).max(50).optional().describe("Post ids"),
  livestream: z.boolean().optional().describe("Livestream orders (false: others)"),
  include_removed: z.boolean().optional().describe("Also removed (erased) orders, any status"),
  status_older_than: z.string().max(40).optional().describe('In its status longer than, e.g. "2 days"'),
};

const filterObject = z.object(orderFilterInput);
export type FilterInput = z.output<typeof filterObject>;

/** Words for sets of statuses: "all" (canceled and deleted among them), "undelivered" (every one before received, in the workflow's order). */
const STATUS_WORDS: Record<string, readonly number[]> = {
  all: ORDER_STATUSES.map((row) => row.code),
  undelivered: BEFORE_DELIVERY,
};

/**
 * The list's `filter_status[]`: the statuses named (or a word for several), or with
 * exclude_statuses every status but those; undefined when none are named.
 */
export function statusFilter(input: Pick<FilterInput, "statuses" | "exclude_statuses">): number[] | undefined {
  if (!input.statuses?.length) {
    if (input.exclude_statuses) throw new InputError("exclude_statuses", "negates statuses, and none are given", 'Name the statuses to leave out in statuses, e.g. ["returned"].');
    return undefined;
  }
  const every = ORDER_STATUSES.map((row) => row.code);
  const named = new Set(input.statuses.flatMap((s) => STATUS_WORDS[String(s).trim().toLowerCase()] ?? [requireStatus("statuses", ORDER_STATUSES, s)]));
  const codes = every.filter((code) => named.has(code) !== (input.exclude_statuses === true));
  if (!codes.length) throw new InputError("statuses", "with exclude_statuses leaves no status", "Leave out fewer statuses, or drop exclude_statuses.");
  return codes;
}

/** The list's `updateStatus` for a time_field: a field name, -1 (the last status change) or a status code. */
export function timeField(value: string | number): string | number {
  const text = String(value).trim();
  if ((TIME_FIELDS as readonly string[]).includes(text)) return text;
  if (text === "last_status" || text === "-1") return -1;
  try {
    return requireStatus("time_field", ORDER_TIME_STATUSES, value);
  } catch {
    throw new InputError(
      "time_field",
      `unknown time field ${JSON.stringify(text)}`,
      `Use one of ${TIME_FIELDS.join(", ")}, last_status, or an order status name but waiting_for_confirmation, canceled and deleted (the service does not date those).`,
    );
  }
}

/**
 * status_older_than as a bound on the last status change (Unix seconds). The list filters on that
 * time itself (updateStatus -1, "Last status update" in the OpenAPI's enum), but takes one time
 * field per query: when since/until already filter another field, the bound is applied here to
 * the rows it returns (`upstream` false).
 */
export function statusClock(input: Pick<FilterInput, "status_older_than" | "since" | "until" | "time_field">, now = Date.now()) {
  if (input.status_older_than === undefined) return undefined;
  const before = Math.floor((now - parseDuration("status_older_than", input.status_older_than)) / 1000);
  const ranged = input.since !== undefined || input.until !== undefined;
  return { before, upstream: !ranged || (input.time_field !== undefined && timeField(input.time_field) === -1) };
}

/**
 * A status's time (time_field naming a status) with other statuses asked beside it: each order is
 * dated by when it reached that status or, never having reached it, the one it is in ("returned or
 * partly returned this month": a partly returned order never was returned). The list dates by one
 * status only, so the list is asked for the orders updated since (reaching a status updates an
 * order) and the dates are read here from each order's history. Undefined otherwise.
 */
export function statusDating(input: Pick<FilterInput, "time_field" | "statuses" | "exclude_statuses" | "since" | "until">, timeZone: string) {
  if (input.time_field === undefined || (input.since === undefined && input.until === undefined)) return undefined;
  const field = timeField(input.time_field);
  const asked = statusFilter(input);
  if (typeof field !== "number" || field < 0 || !asked || asked.every((code) => code === field)) return undefined;
  const { since, until } = openRange(input.since, input.until, timeZone);
  return { s: field, from: since && toUnix(since), to: until && toUnix(until) };
}

/** The date since/until range over, in the owner's words: "created", "paid_at", "reached shipped". */
function rangedBy(value: string | number | undefined): string {
  if (value === undefined) return "created";
  const field = timeField(value);
  if (field === -1) return "last status change";
  if (typeof field === "number") return `reached ${orderStatusName(field) ?? field}`;
  return field === "inserted_at" ? "created" : field;
}

/**
 * What since/until resolved to ("this month", "last 30 days"), in the shop's zone, and the date
 * they range over; an end not given stays open.
 */
export function rangeEcho(input: Pick<FilterInput, "since" | "until" | "time_field">, timeZone: string): { since?: string; until?: string; by: string } | undefined {
  if (input.since === undefined && input.until === undefined) return undefined;
  const { since, until } = openRange(input.since, input.until, timeZone);
  return { since: since && toIsoInZone(since, timeZone), until: until && toIsoInZone(until, timeZone), by: rangedBy(input.time_field) };
}

async function sourcePairs(pos: PosClient, shopId: string, values: string[]): Promise<string[][]> {
  const list = await orderSources(pos, shopId);
  return values.map((value) => {
    const [source, account] = value.split("/").map((s) => s.trim());
    return sourcePair("sources", list, source!, account || undefined);
  });
}

/** The upstream query of a search: every name resolved, every date converted, all checked locally. */
export async function orderQuery(pos: PosClient, shopId: string, input: FilterInput, timeZone: string): Promise<OrderListParams> {
  const { since, until } = openRange(input.since, input.until, timeZone);
  const clock = statusClock(input);
  const end = until && toUnix(until);
  // Dated by each order's history here (statusDating): the list reads every order updated since.
  const dated = statusDating(input, timeZone) !== undefined;
  const carrierList = input.carriers?.some((c) => !/^\d+$/.test(String(c))) ? await carriers(pos, shopId) : [];
  return {
    search: orderNumberOf(input.search) ?? searchText(input.search),
    filter_status: statusFilter(input),
    updateStatus: clock?.upstream ? -1 : dated ? "updated_at" : input.time_field === undefined ? undefined : timeField(input.time_field),
    startDateTime: since && toUnix(since),
    endDateTime: clock?.upstream ? Math.min(end ?? clock.before, clock.before) : dated ? undefined : end,
    option_sort: `${input.sort}_${input.ascending ? "asc" : "desc"}` as OrderSort,
    partner_id: input.carriers?.map((c) => Number(/^\d+$/.test(String(c)) ? c : refId("carriers", carrierList, c))),
    customer_id: input.customer_id === undefined ? undefined : await customerId(pos, shopId, "customer_id", input.customer_id),
    order_sources: input.sources?.length ? await sourcePairs(pos, shopId, input.sources) : undefined,
    is_filter_exclude_source: input.exclude_sources,
    ad_ids: input.ad_ids,
    include_removed: input.include_removed ? 1 : undefined,
  };
}
