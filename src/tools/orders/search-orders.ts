import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { OrderListParams } from "../../clients/pos.js";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { inStatusFor, orderCurrency, orderRow, orderRowSchema, orderStatusName, upstreamRecord } from "../../format/orders.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { defineTool, READ, type ToolContext } from "../define.js";
import { tally } from "../group-rows.js";
import { cursorInput, shopIdInput } from "../inputs.js";
import { everyRow, inPagesOf, MAX_PAGE_SIZE, pageState, resumeAt, rowIndex, SUM_MAX, walkPages } from "../pos/paging.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { orderNames } from "../pos/shop-refs.js";
import { COUNT_FIGURES, continuesGrouping, figuresOf, groupInput, groupRowSchema, orderGroups } from "./order-groups.js";
import { type LocalFilter, localFields, localFilter, localFilterNames, localFilterOf, localMatch } from "./order-local-filter.js";
import { orderFilterInput, orderQuery, rangeEcho, statusDating, statusFilter, timeField } from "./order-query.js";
import { LAST_DISTINCT_PAGE, ordersNumbered, SCAN_PAGE_SIZE, SCAN_PAGES } from "./order-ref.js";
import { CAME_BACK_FIGURES, cameBack, cameBackSchema } from "./came-back.js";
import { type BuyerMode, buyersInput, checkBuyers, SPLIT_FIGURES } from "./customer-groups.js";
import { ORDER_STATUSES } from "../../clients/pos-codes.js";
import { openRange } from "../pos/open-range.js";
import { toUnix } from "../../format/time.js";

/**
 * An order's fields as asked (`shown`: what the projection shows), with the status's name beside
 * its code (a code alone means nothing to a reader).
 */
const rawRow = (o: PosOrder, shown: ReadonlySet<string>) => {
  const row: Record<string, unknown> & { id: string } = { ...Object.fromEntries(Object.entries(upstreamRecord(o)).filter(([key]) => shown.has(key))), id: String(o.id) };
  return "status" in row && row.status_name === undefined ? { ...row, status_name: orderStatusName(row.status) } : row;
};

/**
 * What the totals are summed from (figuresOf): read beside any projection, so a list of ids and
 * statuses still says what its orders come to, never 0 for want of a price.
 */
const FIGURE_FIELDS = ["status", "total_price_after_sub_discount", "total_price", "cod", "shipping_fee", "is_free_shipping", "items"];

/** Rows listed when the call names no limit. */
const ROW_LIMIT = 20;

/** What the orders come to per status (a sum over canceled and live orders means nothing), in the figures of a grouping. */
function totalsOf(orders: readonly PosOrder[]) {
  const groups = tally(orders, (o) => [orderStatusName(o.status) ?? String(o.status)], figuresOf, "orders");
  return Object.fromEntries(groups.map(({ labels, figures: { returned_amount, ...figures } }) => [labels[0], returned_amount ? { ...figures, returned_amount } : figures]));
}

/** Sorts that follow a time field, so history past page 100 can be reached by moving the window. */
const SORT_TIME: Record<string, { updateStatus: string | number; field: string }> = {
  inserted_at: { updateStatus: "inserted_at", field: "inserted_at" },
  last_updated_order: { updateStatus: "updated_at", field: "updated_at" },
  last_update_status_at: { updateStatus: -1, field: "last_update_status_at" },
};

const cursorState = pageState.extend({
  q: z.record(z.string(), z.unknown()),
  tot: z.number().optional(),
  /** Rows already returned at the window's edge second; the narrowed window starts with them again. */
  seen: z.array(z.string()).default([]),
  /** The last returned row's time (unix) and every row returned at that second, across calls. */
  lt: z.number().optional(),
  li: z.array(z.string()).default([]),
  /** Filters the list has no parameter for, applied here to the rows it returns. */
  lf: localFilter.optional(),
});
type CursorState = z.infer<typeof cursorState>;

const sortOf = (q: OrderListParams) => /^(.+)_(asc|desc)$/.exec(q.option_sort ?? "inserted_at_desc");
const unixOf = (time: unknown) => (typeof time === "string" ? Math.floor(Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(time) ? time : `${time}Z`) / 1000) : Number.NaN);

/** The time field a sort follows, when it follows one. */
function sortTime(q: OrderListParams) {
  const match = sortOf(q);
  const time = match ? SORT_TIME[match[1]!] : undefined;
  return time && { ...time, asc: match![2] === "asc" };
}

/**
 * The edge (last row's second and the ids read at it), moved over each row the walk reads: rows
 * a local filter drops count too, so a narrowed window never reads them again.
 */
function edgeTracker(state: CursorState) {
  const field = sortTime(state.q as OrderListParams)?.field;
  const edge: Pick<CursorState, "lt" | "li"> = { lt: state.lt, li: state.li };
  const read = (row: PosOrder) => {
    if (!field) return;
    const t = unixOf((row as Record<string, unknown>)[field]);
    if (!Number.isFinite(t)) [edge.lt, edge.li] = [undefined, []];
    else if (t === edge.lt) edge.li = [...edge.li, String(row.id)];
    else [edge.lt, edge.li] = [t, [String(row.id)]];
  };
  return { edge, read };
}

/**
 * The window after page 100: the same query bounded at the last returned row's time (inclusive),
 * from page 1, skipping the rows already returned at that second (by this call or earlier ones).
 * Undefined when the sort does not follow a time field, or the window cannot move.
 */
function narrow(state: CursorState): CursorState | undefined {
  const q = state.q as OrderListParams;
  const time = sortTime(q);
  const edge = state.lt;
  if (!time || edge === undefined || (q.updateStatus !== undefined && String(q.updateStatus) !== String(time.updateStatus))) return undefined;
  const previous = time.asc ? q.startDateTime : q.endDateTime;
  const seen = previous === edge ? [...new Set([...state.seen, ...state.li])] : state.li;
  if (previous === edge && seen.length === state.seen.length) return undefined;
  const bound = time.asc ? { startDateTime: edge } : { endDateTime: edge };
  return { ...state, q: { ...q, updateStatus: time.updateStatus, ...bound }, pg: 1, off: 0, seen };
}

/**
 * Past page 100 of small pages (a small limit, or pages cut to their budget) lie only a few
 * hundred rows: a sort without a time to narrow by reaches on in pages large enough to hold the
 * row before page 100, and the rows a call asks for. Undefined past row 10,000.
 */
function widen(state: CursorState, limit: number): CursorState | undefined {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(limit, Math.floor(rowIndex(state) / LAST_DISTINCT_PAGE) + 1));
  const at = inPagesOf(state, size);
  return at.pg <= LAST_DISTINCT_PAGE ? { ...state, ...at } : undefined;
}

/** The fields asked for, plus what paging and local filters need: what a projected row shows. */
function projection(fields: string[] | undefined, sort: string, filter: LocalFilter | undefined): string[] | undefined {
  const time = SORT_TIME[sort]?.field;
  return fields && [...new Set([...fields, "id", ...(time ? [time] : []), ...localFields(filter)])];
}

/** The fields read: those shown, and what the totals are summed from. */
const readFields = (shown: string[] | undefined) => shown && [...new Set([...shown, ...FIGURE_FIELDS])];

/**
 * What reaches past page 100 (the list repeats rows there): a sort that follows the time the query
 * filters on lets the window move; none does for other time fields, so only since/until narrows.
 */
function pastPage100(q: OrderListParams): string {
  const filtered = q.updateStatus === undefined ? undefined : String(q.updateStatus);
  const sort = filtered === undefined ? "inserted_at" : Object.entries(SORT_TIME).find(([, t]) => String(t.updateStatus) === filtered)?.[0];
  const how = sort && sort !== sortOf(q)?.[1] ? `, or sort by ${sort}` : "";
  return `The upstream repeats rows past page 100: narrow since/until${how} to go further.`;
}

/**
 * What every match comes to: how many, per status, and without canceled and deleted orders, over
 * every match at any count (the status grouping: the POS's statistics, the shop index or the list
 * read whole); limit 0 answers this alone, and a list of rows carries it beside its first page.
 */
async function orderCounts(input: Parameters<typeof orderGroups>[0], ctx: ToolContext, shopId: string, warm = true) {
  const asked = { ...input, group_by: ["status" as const], limit: 100, fields: undefined, cursor: undefined, group_sort: undefined, min_orders: undefined };
  const { groups, note, group_count: _count, figures: _figures, ...grouped } = await orderGroups(asked, ctx, shopId, { warm });
  const totals: Record<string, StatusTotals> = {};
  for (const g of (groups ?? []) as (StatusTotals & { status?: unknown })[]) {
    if (typeof g.status === "string") {
      totals[g.status] = { orders: g.orders, amount: g.amount, ...(g.returned_amount ? { returned_amount: g.returned_amount } : {}), cod: g.cod, shipping_fee: g.shipping_fee };
    }
  }
  return { ...grouped, totals: Object.keys(totals).length ? totals : undefined, note, figures: COUNT_FIGURES };
}

interface StatusTotals {
  orders: number;
  amount: number;
  returned_amount?: number;
  cod: number;
  shipping_fee: number;
}

/** What orders read whole come to, as orderCounts says it (a page of rows holding every match). */
function countsOf(orders: readonly PosOrder[]) {
  const totals = totalsOf(orders) as Record<string, StatusTotals>;
  const live = Object.entries(totals).filter(([status]) => status !== "canceled" && status !== "deleted");
  return { totals, excluding_canceled_deleted: { orders: live.reduce((n, [, t]) => n + t.orders, 0), amount: live.reduce((n, [, t]) => n + t.amount, 0) } };
}

const searchInput = z.object({
  shop_id: shopIdInput,
  ...orderFilterInput,
  ...groupInput,
  buyers: buyersInput,
  fields: z.array(z.string().max(60)).max(60).optional().describe("Upstream fields, raw, instead of rows"),
  limit: z.number().int().min(0).max(100).optional().describe("Max rows or groups; 0: counts only"),
  cursor: cursorInput,
});
type SearchInput = z.output<typeof searchInput>;
const buyerPart = z.object({ customers: z.number(), orders: z.number(), amount: z.number() });
type GroupKeys = Parameters<typeof orderGroups>[0]["group_by"];

/** Order statuses of goods coming or come back by the carrier: returning, returned, partly returned. */
const CARRIER_BACK = new Set([4, 5, 15]);

/**
 * Whether a search is about what came back: some of the carrier's return statuses asked for (not
 * every status), or orders dated by reaching one. Its answer then gives both notions of returns.
 */
function asksReturns(input: SearchInput): boolean {
  const codes = input.exclude_statuses ? undefined : statusFilter(input);
  if (codes && codes.length < ORDER_STATUSES.length && codes.some((code) => CARRIER_BACK.has(code))) return true;
  const field = input.time_field === undefined ? undefined : timeField(input.time_field);
  return typeof field === "number" && CARRIER_BACK.has(field);
}

/**
 * Only statuses of goods coming back asked, over a range of creation: the groups are orders
 * created in it, while came_back is dated by the return. "What came back in November" is the latter.
 */
function datedByCreation(input: SearchInput): boolean {
  const codes = input.exclude_statuses ? undefined : statusFilter(input);
  return (input.time_field ?? "inserted_at") === "inserted_at" && (input.since !== undefined || input.until !== undefined) && !!codes?.every((code) => CARRIER_BACK.has(code));
}
const BY_CREATION = "Orders created in since/until, in these statuses now; what came back in since/until: came_back.total.";

/** Said with every count: an order erased from the list is in none of them unless asked for. */
const ERASED = "Orders erased from the list (is_removed): not counted unless include_removed.";

/**
 * What an answer says besides its figures: over a status's time with several statuses, that
 * orders never in it are dated by the status they are in ("returned" in November counts the
 * orders still returning, by when they started back); that erased orders are not counted; and,
 * asked about returns, what came back both ways over the span.
 */
async function explained<
  A extends { range?: { since?: string; until?: string; by: string } | undefined; figures?: string | undefined; complete?: boolean | undefined; note?: string | undefined },
>(
  answer: A,
  input: SearchInput,
  ctx: ToolContext,
  shopId: string,
) {
  const tz = ctx.config.timezone;
  const range = answer.range && statusDating(input, tz) ? { ...answer.range, by: `${answer.range.by}, else the status they are in` } : answer.range;
  const figures = answer.figures && !input.include_removed ? `${answer.figures} ${ERASED}` : answer.figures;
  if (input.cursor || !asksReturns(input)) return { ...answer, range, figures };
  const { since, until } = openRange(input.since, input.until, tz);
  const back = await cameBack(ctx, shopId, { from: since && toUnix(since), to: until && toUnix(until) });
  return {
    ...answer,
    range,
    came_back: back.came_back,
    complete: back.complete ? answer.complete : false,
    note: datedByCreation(input) ? [answer.note, BY_CREATION].filter(Boolean).join(" ") : answer.note,
    figures: `${figures ?? ""} ${CAME_BACK_FIGURES}.`.trim(),
  };
}

/**
 * New and returning buyers in one answer (buyers "split"): the grouping of every buyer as asked,
 * and how many of them (their orders and amount) are new, and returning.
 */
async function buyerSplit(input: SearchInput & { group_by: GroupKeys }, ctx: ToolContext, shopId: string) {
  checkBuyers(input);
  const grouping = { ...input, buyers: undefined };
  // "new" first: it reads every order of the shop, which the others then find in the index.
  const fresh = await orderGroups({ ...grouping, buyers: "new", limit: 0 }, ctx, shopId);
  const [all, back] = await Promise.all([orderGroups(grouping, ctx, shopId), orderGroups({ ...grouping, buyers: "returning", limit: 0 }, ctx, shopId)]);
  const part = (r: typeof fresh) => ({ customers: r.group_count, ...r.excluding_canceled_deleted });
  return {
    ...all,
    buyers: { new: part(fresh), returning: part(back) },
    complete: fresh.complete && all.complete && back.complete,
    figures: `${all.figures} ${SPLIT_FIGURES}`,
  };
}

export const searchOrders = defineTool({
  name: "search_orders",
  title: "Search orders",
  description:
        'Orders, newest first, all time unless since/until; group_by counts and sums them all, canceled and deleted apart. E.g. shipped yesterday: time_field "shipped", since/until "yesterday"; new vs returning buyers: group_by customer, buyers "split".',
  toolset: "orders",
  annotations: READ,
  input: searchInput,
  output: z.object({
    orders: z.array(orderRowSchema).optional(),
    groups: z.array(groupRowSchema).optional(),
    subtotals: z.array(groupRowSchema).optional().describe("Two keys: each value of the first, its groups summed"),
    group_count: z.number().optional().describe("Groups found (those past limit are summed in the other row)"),
    total: z.number().optional().describe("Orders matching, canceled and deleted included"),
    excluding_canceled_deleted: z.object({ orders: z.number(), amount: z.number() }).optional().describe("Every match but canceled and deleted"),
    returned_amount: z.number().optional().describe("What came back of amount, over every match (returns asked about)"),
    returned_amount_leaves_out: z.object({ statuses: z.array(z.string()), orders: z.number() }).optional().describe("Orders whose goods back returned_amount lacks"),
    none: z.object({ orders: z.number(), amount: z.number() }).optional().describe("group_by post or ad: orders from none"),
    canceled: z.object({ orders: z.number(), amount: z.number() }).optional().describe("Left out of the groups"),
    deleted: z.object({ orders: z.number(), amount: z.number() }).optional().describe("Deleted recently: left out of the groups"),
    complete: z.boolean().optional(),
    ask_again_in_s: z.number().optional().describe("Not complete: a read goes on in the background; ask again after this many seconds"),
    as_of: z.string().optional().describe("Counted from the shop index, brought up to date at this time"),
    counted_by: z.enum(["pos_analytics"]).optional(),
    next_cursor: z.string().optional(),
    range: z.object({ since: z.string().optional(), until: z.string().optional(), by: z.string() }).optional().describe("since/until as read, and the date they range over"),
    came_back: cameBackSchema.optional().describe("Returns asked about: what came back over since/until, both ways"),
    buyers: z
      .object({ new: buyerPart, returning: buyerPart })
      .optional()
      .describe('buyers "split": the customers grouped, new and returning'),
    currency: z.string().optional(),
    totals: z
      .record(z.string(), z.object({ orders: z.number(), amount: z.number(), returned_amount: z.number().optional(), cod: z.number(), shipping_fee: z.number() }))
      .optional()
      .describe("Per status, over every match"),
    note: z.string().optional(),
    figures: z.string().optional(),
  }),
  async handler(input, ctx) {
    const shopId = await resolveShopId(ctx, input.shop_id);
    const { buyers } = input;
    const answer = buyers === "split" ? await buyerSplit({ ...input, group_by: input.group_by ?? [] }, ctx, shopId) : await ordersAnswer({ ...input, buyers }, ctx, shopId);
    return explained(answer, input, ctx, shopId);
  },
});

/** The answer of search_orders: a grouping, the counts alone (limit 0), or rows with the counts of every match. */
async function ordersAnswer(input: Omit<SearchInput, "buyers"> & { buyers?: Exclude<BuyerMode, "split"> | undefined }, ctx: ToolContext, shopId: string) {
  if (input.group_by || continuesGrouping(input)) return orderGroups({ ...input, group_by: input.group_by ?? [] }, ctx, shopId);
  if (input.limit === 0) {
    if (input.cursor) throw new InputError("cursor", "continues a list of rows; limit 0 lists none", "Drop cursor, or pass a limit from 1 to 100.");
    return orderCounts({ ...input, group_by: ["status"] }, ctx, shopId);
  }
  const limit = input.limit ?? ROW_LIMIT;
  let state: CursorState;
  if (input.cursor) {
    const decoded = decodeCursor("search_orders", input, cursorState);
    // A follow-up for more rows than the cursor's pages hold (after a page cut to its budget,
    // say) reads them in fewer, larger pages; a scan keeps its pages of 100.
    const at = decoded.lf ? decoded : resumeAt(decoded, limit);
    state = at.pg <= LAST_DISTINCT_PAGE ? { ...decoded, ...at } : decoded;
  } else {
    const lf = localFilter.parse(localFilterOf(input, ctx.config.timezone));
    const q = { ...(await orderQuery(ctx.pos, shopId, input, ctx.config.timezone)), fields: readFields(projection(input.fields, input.sort, lf)) };
    // Filtered here, the list is read in its largest pages: most rows it serves are dropped.
    state = { q, lf, pg: 1, off: 0, ps: lf ? SCAN_PAGE_SIZE : limit, seen: [], li: [] };
  }
  const keep = localMatch(state.lf);
  // Filtered on the last status change (status_older_than, time_field last_status): rows say how long, on every page.
  const aged = String((state.q as OrderListParams).updateStatus) === "-1" || state.lf?.stale !== undefined;
  const rows: PosOrder[] = [];
  // The list's total counts the rows it serves, not those a local filter keeps.
  let total = state.lf ? undefined : state.tot;
  let note: string | undefined;
  let next: CursorState | undefined;
  let budget = state.lf ? SCAN_PAGES : Number.POSITIVE_INFINITY;
  for (;;) {
    const q = state.q as OrderListParams;
    const skip = new Set(state.seen);
    const { edge, read } = edgeTracker(state);
    const walk = await walkPages(state, {
      limit: limit - rows.length,
      maxPage: Math.min(LAST_DISTINCT_PAGE, state.pg + budget - 1),
      skip: (o: PosOrder) => {
        read(o);
        return skip.has(String(o.id)) || !keep(o);
      },
      fetch: (page_number, page_size) => {
        budget -= 1;
        return ctx.pos.listOrders(shopId, { ...q, page_number, page_size });
      },
      progress: ctx.progress,
    });
    rows.push(...walk.rows);
    if (walk.note) note = `Listed what the order list served (${walk.note}).`;
    if (!state.lf) total ??= walk.total;
    next = walk.next && { ...state, ...walk.next, ...edge, tot: total };
    if (next && budget <= 0 && rows.length < limit) {
      note = `Read ${SCAN_PAGES * SCAN_PAGE_SIZE} orders for ${localFilterNames(state.lf)}: pass next_cursor to read on.`;
      break;
    }
    if (!next || next.pg <= LAST_DISTINCT_PAGE) break;
    next = narrow(next) ?? widen(next, limit);
    if (!next) {
      note = pastPage100(state.q as OrderListParams);
      break;
    }
    if (rows.length >= limit) break;
    state = next;
  }
  // "#51" of a deleted order: an empty answer would read as "no such order".
  if (rows.length === 0 && !input.cursor && !input.include_removed && state.lf?.n) {
    const removed = await ordersNumbered(ctx.pos, shopId, state.lf.n, { include_removed: 1 });
    if (removed.some((o) => (o as { is_removed?: unknown }).is_removed === true)) note = `Order #${state.lf.n} was deleted: pass include_removed true to list it.`;
  }
  const names = input.fields || (state.q as OrderListParams).fields ? undefined : await orderNames(ctx.pos, shopId);
  const first = !input.cursor && !note;
  // "How much COD is out there?": every match summed here (reading the rest of a few hundred when
  // this answer shows fewer), so no model adds up fifty numbers or pages for them.
  const all = !first ? undefined : !next ? rows : !state.lf && total !== undefined && total <= SUM_MAX
        ? await everyRow(total, (page_number, page_size) => ctx.pos.listOrders(shopId, { ...(state.q as OrderListParams), page_number, page_size }))
        : undefined;
  // Past a few hundred matches, or with a filter applied here, the figures come from counting every match.
  // Counted by the statistics or the index as it is: a list of rows reads the shop into no index unasked.
  const counts = all?.length ? countsOf(all) : first && (next || state.lf) ? await orderCounts({ ...input, group_by: ["status"] }, ctx, shopId, false) : undefined;
  return {
    orders: names
      ? rows.map((o) => ({ ...orderRow(o, ctx.config.timezone, names), in_status_for: aged ? inStatusFor(o) : undefined }))
      : rows.map((o) => rawRow(o, new Set(projection(input.fields, input.sort, state.lf) ?? Object.keys(o)))),
    total: total ?? (counts && "total" in counts ? (counts.total as number) : undefined),
    excluding_canceled_deleted: counts?.excluding_canceled_deleted,
    next_cursor: next ? encodeCursor("search_orders", input, next) : undefined,
    range: input.cursor ? undefined : rangeEcho(input, ctx.config.timezone),
    currency: names ? orderCurrency(rows) : undefined,
    totals: counts?.totals,
    complete: counts && "complete" in counts ? counts.complete : undefined,
    note: [note, counts && "note" in counts ? counts.note : undefined].filter(Boolean).join(" ") || undefined,
    figures: counts ? COUNT_FIGURES : undefined,
  };
}
