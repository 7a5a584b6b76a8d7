import { ORDER_STATUSES } from "../../clients/pos-codes.js";
import type { OrderListParams } from "../../clients/pos.js";
import type { PosOrder, PosSaleRow } from "../../clients/schemas/pos.js";
import { num } from "../../format/compact.js";
import { fromWallTime, toYmdHms } from "../../format/time.js";
import type { ToolContext } from "../define.js";
import { SWEEP_BOUNDS, sweepOrders } from "./every-order.js";

// search_orders group_by counted by the POS itself: GET /analytics/sale ("Order statistics")
// splits and sums the orders upstream, a few requests at any shop size. Its meaning differs from
// the list's: it counts an order once it reached confirmed (success_status 1), dated by its
// creation (success_record inserted_at), removed orders never. Split by status besides the keys
// asked, it agrees with the list status by status wherever every order of the status was confirmed
// once; the list's own count of each status proves where, and the orders of the other statuses
// (new, waiting, canceled before confirmation) are read from the list itself.
//
// The counts are exact by that check. The figures and labels rest on what the OpenAPI says of the
// statistics, which the check cannot see (PANCAKE_POS_STATISTICS=0 turns the pushdown off): price
// is the goods before discounts and discount every discount, so price - discount is a list row's
// amount (the sandbox computes them so, sandbox/pos/analytics.ts); shipping_fee is charged to the
// customer; a split by Order.* answers the id the order records (the partner, province, warehouse,
// source id); Time.day and Time.month are days of the shop's calendar, PANCAKE_TIMEZONE, in which
// since/until are read too (as get_sales_analytics reads them).

/** An order's figures as a grouping sums them (order-groups.ts figuresOf), `orders` the orders counted. */
export interface Figures {
  orders: number;
  amount: number;
  /** Of amount, the goods that came back (read off an order's lines; the statistics do not say it). */
  returned_amount?: number;
  cod: number;
  shipping_fee: number;
}

export interface Pushed {
  /** What the statistics counted: per split value, an order carrying the values (what the labeller reads) and its figures. */
  counted: { order: PosOrder; figures: Figures }[];
  /** The orders of `statuses`, read from the list whole. */
  read: PosOrder[];
  /** Statuses read from the list: their counts differ from the statistics'. */
  statuses: number[];
  /** Statuses whose lines were asked but not read (too many orders for one call), and their orders. */
  unlined?: { statuses: number[]; orders: number };
  currency?: string;
}

type Loose = Record<string, unknown>;

/** A grouping key as a split, and the order a split value stands for. */
interface Split {
  split: string;
  user?: "create" | "assign";
  order: (value: string, timeZone: string) => Loose;
}

const noon = (ymd: string, timeZone: string) => {
  const [year, month, day] = ymd.split("-").map(Number);
  return { inserted_at: fromWallTime({ year: year!, month: month!, day: day!, hour: 12, minute: 0, second: 0 }, timeZone).toISOString() };
};
const DAY: Split = { split: "Time.day", order: noon };

/** The keys the statistics split by as the list's records hold them. A source is given by id; a name is taken as given too. */
const SPLITS: Record<string, Split> = {
  status: { split: "Order.status", order: (v) => ({ status: Number(v) }) },
  carrier: { split: "Order.partner_id", order: (v) => ({ partner: { partner_id: v } }) },
  province: { split: "Order.province_id", order: (v) => ({ shipping_address: { province_id: v } }) },
  warehouse: { split: "Order.warehouse_id", order: (v) => ({ warehouse_id: v }) },
  source: { split: "Order.source", order: (v) => ({ order_sources: v, order_sources_name: v }) },
  creator: { split: "User.id", user: "create", order: (v) => ({ creator: { id: v } }) },
  seller: { split: "User.id", user: "assign", order: (v) => ({ assigning_seller_id: v }) },
  day: DAY,
  week: DAY,
  month: { split: "Time.month", order: (v, tz) => noon(`${v.slice(0, 7)}-15`, tz) },
};

const FORMS: Record<string, RegExp> = { "Time.day": /^\d{4}-\d\d-\d\d/, "Time.month": /^\d{4}-\d\d/ };

/**
 * Statuses an order can sit in without having been confirmed: waiting for the buyer, for goods, or
 * for a supplier, and the ones it leaves the flow by. Their counts are checked first; the others
 * only when these do not account for every order the statistics miss.
 */
const UNCONFIRMED = [0, 17, 11, 20, 6, 7];

/**
 * The statistics need a start where the list takes none: one before any POS order. An order older
 * still would only make its status's counts differ, and that status be read from the list.
 */
const ALL_TIME = Date.UTC(2010, 0, 1) / 1000;

/** The splits for `keys` (Order.status first), or undefined when one has none. */
function splitsOf(keys: readonly string[]): Split[] | undefined {
  if (keys.includes("creator") && keys.includes("seller")) return undefined;
  // A month is a run of days: with days asked, the months come from them.
  const wanted = keys.includes("day") || keys.includes("week") ? keys.filter((k) => k !== "month") : keys;
  const splits = wanted.map((k) => SPLITS[k]);
  if (splits.some((s) => s === undefined)) return undefined;
  return [...new Set([SPLITS.status!, ...(splits as Split[])])];
}

/**
 * The list's filters as the statistics' own, or undefined when one has no counterpart: a text
 * search, ads, removed orders, another time field, a source's account (whose key the OpenAPI
 * leaves unclear).
 */
function filterOf(q: OrderListParams): Record<string, string[]> | undefined {
  if (q.search || q.ad_ids?.length || q.include_removed || (q.updateStatus !== undefined && q.updateStatus !== "inserted_at")) return undefined;
  const filter: Record<string, string[]> = {};
  if (q.filter_status?.length) filter["Order.status"] = q.filter_status.map(String);
  if (q.partner_id?.length) filter["Order.partner_id"] = q.partner_id.map(String);
  if (q.customer_id !== undefined) filter["Customer.id"] = [q.customer_id];
  if (q.order_sources?.length) {
    if (q.order_sources.some((pair) => pair.length !== 1)) return undefined;
    filter[q.is_filter_exclude_source ? "Order.source_exclude" : "Order.source"] = q.order_sources.map((pair) => pair[0]!);
  }
  return filter;
}

const text = (value: unknown) => (value === null || value === undefined || value === "" ? undefined : String(value));

/** A statistics row as an order and its figures; undefined when a split value is not one the keys can read. */
function countedOf(row: PosSaleRow, splits: Split[], timeZone: string): { order: PosOrder; figures: Figures } | undefined {
  const order: Loose = {};
  for (const s of splits) {
    const value = text(row[s.split]);
    if (value === undefined) continue;
    if (FORMS[s.split] && !FORMS[s.split]!.test(value)) return undefined;
    Object.assign(order, s.order(value, timeZone));
  }
  const success = (row.success ?? {}) as Loose;
  const figure = (name: string) => num(success[name]) ?? 0;
  if (!Number.isInteger(order.status)) return undefined;
  // Goods before discounts, less every discount: the goods after discounts a list row's amount is.
  const figures = { orders: figure("order_count"), amount: figure("price") - figure("discount"), cod: figure("cod"), shipping_fee: figure("shipping_fee") };
  return { order: order as PosOrder, figures };
}

type Count = (statuses?: readonly number[]) => Promise<{ data: PosOrder[]; total_entries?: number | undefined }>;

/**
 * The statuses whose orders the list counts otherwise than the statistics, with the list's count
 * of each; undefined when the counts cannot be matched (a count missing, a status no code names).
 * The statuses orders sit in unconfirmed come first, counted beside the statistics' request: when
 * they hold every order the statistics miss of the list's total, the other statuses agree.
 */
async function differing(count: Count, candidates: number[], statistics: Map<number, number>, total: number, first: Map<number, number | undefined>) {
  const listed = new Map(first);
  const missing = (s: number) => (listed.get(s) ?? Number.NaN) - (statistics.get(s) ?? 0);
  const missed = total - [...statistics.values()].reduce((a, b) => a + b, 0);
  if ([...first.keys()].reduce((sum, s) => sum + missing(s), 0) !== missed) {
    const rest = candidates.filter((s) => !listed.has(s));
    const counts = await Promise.all(rest.map((s) => count([s])));
    for (const [i, s] of rest.entries()) listed.set(s, counts[i]!.total_entries);
    if ([...listed.values()].reduce<number>((a, b) => a + (b ?? Number.NaN), 0) !== total) return undefined;
  }
  const statuses = [...listed.keys()].filter((s) => missing(s) !== 0);
  if (statuses.some((s) => Number.isNaN(missing(s)))) return undefined;
  return { statuses, orders: statuses.reduce((sum, s) => sum + listed.get(s)!, 0) };
}

/**
 * The grouping of `query`'s orders by `keys` as counted by the POS's statistics, exact status by
 * status, or undefined when the statistics cannot answer it exactly (a filter or key they do not
 * take, more orders to read from the list than a grouping reads). `query` is the one order-groups
 * reads the list with: its fields are those the keys' labels need.
 */
export async function pushedGroups(
  ctx: ToolContext,
  shopId: string,
  query: OrderListParams,
  keys: readonly string[],
  /** Statuses whose orders are read from the list whatever the statistics say (their lines are needed). */
  alsoRead: readonly number[] = [],
): Promise<Pushed | undefined> {
  const splits = splitsOf(keys);
  const filter = filterOf(query);
  if (!splits || !filter) return undefined;
  const tz = ctx.config.timezone;
  const candidates = query.filter_status?.length ? [...new Set(query.filter_status)] : ORDER_STATUSES.map((s) => s.code);
  // The list's count of its matches (of some statuses), with an order to tell the currency by.
  const count: Count = (statuses) =>
    ctx.pos.listOrders(shopId, { ...query, filter_status: statuses ?? query.filter_status, page_number: 1, page_size: 1, fields: ["id", "order_currency"] });
  const first = candidates.filter((s) => UNCONFIRMED.includes(s));
  const [rows, all, ...firstCounts] = await Promise.all([
    ctx.pos.getSaleAnalytics(shopId, {
      since: toYmdHms(new Date((query.startDateTime ?? ALL_TIME) * 1000), tz),
      until: toYmdHms(query.endDateTime === undefined ? new Date() : new Date(query.endDateTime * 1000), tz),
      split_by: splits.map((s) => s.split),
      filter: Object.keys(filter).length ? filter : undefined,
      success_status: "1",
      success_record: "inserted_at",
      user_type: splits.find((s) => s.user)?.user,
      select_fields: ["order_count", "price", "discount", "cod", "shipping_fee"],
    }),
    count(),
    ...first.map((s) => count([s])),
  ]);
  const counted: Pushed["counted"] = [];
  const statistics = new Map<number, number>();
  for (const row of rows) {
    const group = countedOf(row, splits, tz);
    const status = group?.order.status as number;
    if (!group || !candidates.includes(status)) return undefined;
    if (group.figures.orders === 0) continue;
    counted.push(group);
    statistics.set(status, (statistics.get(status) ?? 0) + group.figures.orders);
  }
  if (all.total_entries === undefined) return undefined;
  const listed = new Map(first.map((s, i) => [s, firstCounts[i]!.total_entries]));
  const differ = await differing(count, candidates, statistics, all.total_entries, listed);
  if (!differ || differ.orders > SWEEP_BOUNDS.orders) return undefined;
  // The counts need the differing statuses' orders; the lines asked besides are read beside them
  // where both fit what a grouping reads, and are otherwise left unread, said so, not waited for
  // (at 200x the demo, all time: 4,800 partly returned orders beside 4,600 differing ones).
  const lined = alsoRead.filter((s) => (statistics.get(s) ?? 0) > 0 && !differ.statuses.includes(s));
  const linedOrders = lined.reduce((sum, s) => sum + statistics.get(s)!, 0);
  const fits = differ.orders + linedOrders <= SWEEP_BOUNDS.orders;
  const sweep = (statuses: number[]) => (statuses.length ? sweepOrders(ctx, shopId, { ...query, filter_status: statuses }) : undefined);
  const [read, lines] = await Promise.all([sweep(differ.statuses), fits ? sweep(lined) : undefined]);
  if (read && !read.complete) return undefined;
  const readStatuses = [...differ.statuses, ...(lines?.complete ? lined : [])];
  const currency = [all, ...firstCounts].flatMap((page) => page.data).find((o) => o.order_currency)?.order_currency ?? undefined;
  return {
    counted: counted.filter((c) => !readStatuses.includes(c.order.status as number)),
    read: [...(read?.rows ?? []), ...(lines?.complete ? lines.rows : [])],
    statuses: differ.statuses.sort((a, b) => a - b),
    unlined: lined.length && !lines?.complete ? { statuses: lined, orders: linedOrders } : undefined,
    currency,
  };
}
