import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { OrderListParams } from "../../clients/pos.js";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { orderCurrency, orderStatusName, returnedAmountOf } from "../../format/orders.js";
import { sanitizeName } from "../../text/sanitize.js";
import { recordDate, recordTime, toIsoInZone } from "../../format/time.js";
import { readBy, type ToolContext } from "../define.js";
import { someOf } from "../pos/fields.js";
import { carriers, orderSources, type Ref, staff, warehouses } from "../pos/shop-refs.js";
import { isUnnamed, type ProvinceList, type Provinces, provincesNow, unnamed } from "../shop/provinces-now.js";
import { type Group, isPeriod, NONE, type Period, periodOf, rankGroups, restNote, tally } from "../group-rows.js";
import { type LocalFilter, localFields, localFilter, localFilterOf, localMatch } from "./order-local-filter.js";
import { type FilterInput, orderQuery, rangeEcho, timeField } from "./order-query.js";
import { askAgainIn, readingNote } from "../../format/reading.js";
import { type EveryOrder, everyOrder, indexHolds, SWEEP_BOUNDS, warmIndex } from "./every-order.js";
import { type Figures, type Pushed, pushedGroups } from "./order-pushdown.js";
import { type BuyerClass, Buyers, buyerEntries, buyersNote, checkBuyers, customerKey, orderDay } from "./customer-groups.js";
import { postTexts } from "./post-names.js";
import { type AdNames, adNames } from "../page-stats/ad-names.js";
import { decodeCursor, encodeCursor } from "../cursor.js";

// search_orders with group_by: one row per group, counted and summed over every order that
// matches the filters (by the POS's statistics where they count the same orders, else from the
// shop index or read in parallel pages, bounded), instead of rows for the model to add up.

const GROUP_KEYS = ["status", "source", "page", "post", "ad", "campaign", "province", "carrier", "creator", "seller", "warehouse", "customer", "day", "week", "month"] as const;
type GroupKey = (typeof GROUP_KEYS)[number];
const FIGURES = ["orders", "amount", "cod", "shipping_fee"] as const;
/** Times of a customer group's orders, sorted by but never summed. */
const SPANS = ["first_order", "last_order"] as const;

export const groupInput = {
  group_by: someOf(z.enum(GROUP_KEYS), 2)
    .optional()
    .describe("Count and sum every match per group (1-2 keys; source = channel; customer: POS customer, else phone)"),
  // "total" was the amount's name before: a caller that learnt it is still understood.
  group_sort: z
    .preprocess((v) => (v === "total" ? "amount" : v), z.enum([...FIGURES, ...SPANS]))
    .optional()
    .describe("Sort groups by (default orders, largest first; ascending: smallest; periods by time)"),
  min_orders: z.number().int().min(1).optional().describe("Groups with at least N orders (repeat customers: 2)"),
  province_list: z.enum(["new", "old"]).optional().describe("Provinces since July 2025 (default) or the old 63"),
  buyers: z.enum(["new", "returning", "lapsed"]).optional().describe("group_by customer: first order ever in since/until, or earlier; lapsed: none since"),
};

/** What a grouping's figures count, said with them: canceled and deleted orders apart, or asked for by status. */
const groupFigures = (apart: boolean) =>
  `orders, amount (goods after discounts, excl. shipping), cod, shipping_fee: ${apart ? "sales, canceled and deleted orders counted apart; group_count: groups with a sale" : "every order of the statuses asked"}; total: every match.`;

/** What the counts of a list (or limit 0) say. */
export const COUNT_FIGURES =
  "total: every match, canceled and deleted included; excluding_canceled_deleted: the sales among them (amount: goods after discounts, excl. shipping); totals: per status.";

/** Groups listed when the call names no limit: a month of days fits. */
const GROUP_LIMIT = 40;
/** No longer sales, so left out of the groups' figures and counted apart, each under its own name. */
const VOID_STATUSES = { canceled: 6, deleted: 7 } as const;
const VOID_NAMES = new Map<number, string>(Object.entries(VOID_STATUSES).map(([name, code]) => [code, name]));

export const groupRowSchema = z.looseObject({
  orders: z.number(),
  amount: z.number().describe("Goods after discounts, shipping excluded"),
  returned_amount: z.number().optional().describe("Of amount, the goods that came back"),
  cod: z.number().describe("Cash to collect on delivery"),
  shipping_fee: z.number(),
  canceled: z.number().optional().describe("The group's canceled orders, not in its figures"),
  deleted: z.number().optional().describe("The group's recently deleted orders, not in its figures"),
});

type Loose = Record<string, unknown>;
const rec = (value: unknown): Loose => (typeof value === "object" && value !== null ? (value as Loose) : {});

/** The carrier's times sit on the order's `partner` record. */
const PARTNER_TIMES = new Set(["paid_at", "picked_up_at", "first_delivery_at"]);

/** The time an order has for the list's `updateStatus` value: a field, the last status change, or entering a status. */
function timeOf(order: PosOrder, field: string | number): unknown {
  const raw = order as Loose;
  if (field === -1) return raw.last_update_status_at;
  if (typeof field === "number") return order.status_history?.find((h) => h.status === field)?.updated_at;
  return PARTNER_TIMES.has(field) ? rec(order.partner)[field] : raw[field];
}

/** Upstream fields the time of `field` is read from. */
const timeSource = (field: string | number) => (field === -1 ? "last_update_status_at" : typeof field === "number" ? "status_history" : PARTNER_TIMES.has(field) ? "partner" : field);

const KEY_FIELDS: Record<Exclude<GroupKey, Period>, string[]> = {
  status: [],
  source: ["order_sources", "order_sources_name"],
  page: ["page_id", "account", "account_name"],
  post: ["post_id"],
  ad: ["ad_id"],
  campaign: ["ad_id"],
  province: ["shipping_address"],
  carrier: ["partner"],
  creator: ["creator"],
  seller: ["assigning_seller_id", "assigning_seller"],
  warehouse: ["warehouse_id"],
  customer: ["shop_customer_id", "customer", "bill_phone_number", "bill_full_name"],
};

interface Names {
  sources: Map<string, string>;
  carriers: Map<string, string>;
  staff: Map<string, string>;
  warehouses: Map<string, string>;
  provinces?: Provinces;
  /** The pages' ads and campaigns by name (their ad reports), for ad and campaign groups. */
  ads?: AdNames;
}

const named = (refs: Ref[]) => new Map(refs.map((r) => [r.id, r.name]));
/** The campaign of an ad no readable report names. */
const UNKNOWN_CAMPAIGN = "(unknown)";
/** Keys whose label, where the shop's lists give none, is the name the order itself records. */
const NAMED_ON_ORDER = new Set<GroupKey>(["source", "province", "creator", "seller"]);

async function groupNames(ctx: ToolContext, shopId: string, keys: readonly GroupKey[], provinceList: ProvinceList): Promise<Names> {
  const { pos } = ctx;
  const need = (key: GroupKey) => keys.includes(key);
  // A list that cannot be read leaves the labels the orders carry themselves.
  const list = (wanted: boolean, load: () => Promise<Ref[]>) => (wanted ? load().catch(() => []) : Promise.resolve([]));
  const [s, c, u, w, provinces, ads] = await Promise.all([
    list(need("source") || need("page"), () => orderSources(pos, shopId)),
    list(need("carrier"), () => carriers(pos, shopId)),
    list(need("creator") || need("seller"), () => staff(pos, shopId)),
    list(need("warehouse"), () => warehouses(pos, shopId)),
    need("province") ? provincesNow(pos, provinceList) : undefined,
    // Every page's reports: an order's ad is of its page, which the account may name otherwise.
    need("ad") || need("campaign") ? adNames(ctx, undefined, readBy(ctx)) : undefined,
  ]);
  return { sources: named(s), carriers: named(c), staff: named(u), warehouses: named(w), provinces, ads };
}

/** A group label for one key: a name as the shop sees it, never a bare id. */
function labeller(key: GroupKey, names: Names, time: string | number, timeZone: string): (order: PosOrder) => string {
  const raw = (o: PosOrder) => o as Loose;
  const byId = (map: Map<string, string>, value: unknown, fallback?: unknown) => {
    const key = id(value);
    return key === undefined ? NONE : (map.get(key) ?? sanitizeName(fallback) ?? unnamed(key));
  };
  switch (key) {
    case "status":
      return (o) => orderStatusName(o.status) ?? NONE;
    case "source":
      return (o) => byId(names.sources, o.order_sources, o.order_sources_name);
    case "page":
      return (o) => byId(names.sources, o.page_id ?? o.account, raw(o).account_name);
    // Named after grouping, by the page's posts (post-names.ts); an ad by its id.
    case "post":
      return (o) => id(o.post_id) ?? NONE;
    case "ad":
      return (o) => id(raw(o).ad_id) ?? NONE;
    // By the campaign's id, named after grouping; an ad no report read names is of no campaign known.
    case "campaign":
      return (o) => {
        const ad = id(raw(o).ad_id);
        return ad === undefined ? NONE : (names.ads?.ads.get(ad)?.campaign_id ?? UNKNOWN_CAMPAIGN);
      };
    case "province":
      return (o) => names.provinces!.of(rec(o.shipping_address));
    case "carrier":
      return (o) => byId(names.carriers, o.partner?.partner_id);
    case "creator":
      return (o) => byId(names.staff, rec(o.creator).id, rec(o.creator).name);
    case "seller":
      return (o) => byId(names.staff, raw(o).assigning_seller_id ?? rec(raw(o).assigning_seller).id, rec(raw(o).assigning_seller).name);
    case "warehouse":
      return (o) => byId(names.warehouses, o.warehouse_id);
    case "customer":
      return customerKey;
    default: {
      const period = key;
      return (o) => {
        const at = recordDate(timeOf(o, time));
        return at ? periodOf(at, period, timeZone) : NONE;
      };
    }
  }
}

/** The money of an order: goods after discounts (as rows' `amount`), cash on delivery, shipping charged. */
export function figuresOf(o: PosOrder) {
  return {
    amount: num(o.total_price_after_sub_discount) ?? num(o.total_price) ?? 0,
    returned_amount: returnedAmountOf(o),
    cod: num(o.cod) ?? 0,
    // A free-shipping order charges the customer none, whatever fee it records.
    shipping_fee: (o as Loose).is_free_shipping === true ? 0 : (num(o.shipping_fee) ?? 0),
  };
}

const rowOf = (keys: readonly GroupKey[], labels: string[], figures: Record<string, number>, buyers: Buyers | undefined, timeZone: string) => ({
  ...Object.fromEntries(keys.flatMap((k, i) => (k === "customer" && buyers ? Object.entries(buyers.fields(labels[i]!)) : [[k, labels[i]]]))),
  orders: figures.orders ?? 0,
  amount: figures.amount ?? 0,
  returned_amount: figures.returned_amount || undefined,
  cod: figures.cod ?? 0,
  shipping_fee: figures.shipping_fee ?? 0,
  ...Object.fromEntries(Object.keys(VOID_STATUSES).flatMap((name) => (figures[name] ? [[name, figures[name]]] : []))),
  first_order: orderDay(figures.first_order, timeZone),
  last_order: orderDay(figures.last_order, timeZone),
});

/** A customer's first and last orders are times, never summed. */
const withoutSpans = (figures: Record<string, number>) => Object.fromEntries(Object.entries(figures).filter(([name]) => !(SPANS as readonly string[]).includes(name)));

/**
 * Groups ranked and cut at the limit, as rows. The summed row sits where its groups would:
 * "earlier" before the periods, "other" after the largest.
 */
function listed(keys: readonly GroupKey[], groups: Group[], input: GroupInput, buyers: Buyers | undefined, timeZone: string, offset = 0) {
  const sort = input.group_sort ?? "orders";
  const { top, rest } = rankGroups(groups, {
    // A span sorts the customers it belongs to; groups of another key by their orders.
    figure: (SPANS as readonly string[]).includes(sort) && !keys.includes("customer") ? "orders" : sort,
    limit: offset + (input.limit ?? GROUP_LIMIT),
    inTimeOrder: inTimeOrder(keys, input),
    ascending: input.ascending,
  });
  const rows = top.slice(offset).map((g) => rowOf(keys, g.labels, g.figures, buyers, timeZone));
  if (!rest) return { rows, rest };
  const restRow = { ...rowOf(keys, keys.map(() => rest.label), withoutSpans(rest.figures), undefined, timeZone), groups: rest.groups };
  return { rows: rest.label === "earlier" ? [restRow, ...rows] : [...rows, restRow], rest };
}

/** Periods listed in time order, the newest kept: such a grouping has no cursor (the earlier ones are summed). */
const inTimeOrder = (keys: readonly GroupKey[], input: GroupInput) => input.group_sort === undefined && isPeriod(keys[0]!);

/** A grouping's next page: its arguments (as the first call gave them) and how many groups were listed. */
const groupCursor = z.object({ g: z.record(z.string(), z.unknown()), at: z.number().int().min(1).max(1_000_000) });

/**
 * Two keys: each value of the first, its groups summed, listed or not (an assistant added 28
 * carrier-by-status rows up by hand to answer per carrier).
 */
function subtotals(key: GroupKey, groups: Group[], input: GroupInput, buyers: Buyers | undefined, timeZone: string) {
  const summed = tally(groups, (g) => [g.labels[0]!], (g) => withoutSpans(g.figures), "groups");
  if (key === "customer" && buyers) for (const g of summed) Object.assign(g.figures, buyers.span(g.labels[0]!));
  return listed([key], summed, input, buyers, timeZone).rows;
}

type GroupInput = FilterInput & {
  group_by: GroupKey[];
  group_sort?: (typeof FIGURES)[number] | (typeof SPANS)[number] | undefined;
  min_orders?: number | undefined;
  province_list?: ProvinceList | undefined;
  buyers?: BuyerClass | undefined;
  limit?: number | undefined;
  fields?: string[] | undefined;
  cursor?: string | undefined;
};

/** Orders counted as one: an order read from the list or the index, or a group the POS's statistics counted. */
interface Counted {
  /** The order, or one carrying the group's values: what the labels are read from. */
  order: PosOrder;
  figures: Figures;
}

const one = (order: PosOrder): Counted => ({ order, figures: { orders: 1, ...figuresOf(order) } });

/**
 * An order's lines are read for the goods that came back of it alone (figuresOf): an order none of
 * whose lines came back is held without them (at a big shop, all time, they are most of the weight).
 */
function linesOfReturns(order: PosOrder): PosOrder {
  if (order.items && !order.items.some((item) => num(item.returned_count))) delete order.items;
  return order;
}

/**
 * The orders of a grouping: counted by the POS's statistics when they answer it exactly and the
 * shop index does not hold the orders yet (one request or a few, whatever the shop's size), else
 * every order read from the index or the list.
 */
async function countedOrders(
  ctx: ToolContext,
  shopId: string,
  query: OrderListParams,
  keys: readonly GroupKey[],
  local: LocalFilter,
  statistics = ctx.config.posStatistics,
  returns = false,
  warm = true,
): Promise<{ entries: Counted[]; read?: EveryOrder; pushed?: Pushed }> {
  if (statistics && !local && !(await indexHolds(ctx, shopId, query))) {
    // The value of what came back is read off a partly returned order's lines: those come from the list.
    // The index's own read of the shop (a warm one) waits meanwhile: the question goes first.
    const counting = () => pushedGroups(ctx, shopId, query, keys, returns ? [15] : []);
    const pushed = await (ctx.index ? ctx.index.orders(shopId).yieldWhile(counting) : counting()).catch((error: unknown) => {
      if (ctx.signal.aborted) throw error;
      ctx.logger.info(`search_orders: the POS's statistics did not answer (${error instanceof Error ? error.message : String(error)}); reading the orders`);
      return undefined;
    });
    if (pushed) {
      if (warm) warmIndex(ctx, shopId, query);
      return { entries: [...pushed.counted, ...pushed.read.map(one)], pushed };
    }
  }
  const read = await everyOrder(ctx, shopId, query, returns ? linesOfReturns : undefined);
  return { entries: read.rows.filter(localMatch(local)).map(one), read };
}

/** Whether a call continues a grouping (its cursor came from one): it lists the grouping's next groups. */
export function continuesGrouping(input: { cursor?: string | undefined }): boolean {
  if (input.cursor === undefined) return false;
  try {
    decodeCursor("search_orders", input, groupCursor);
    return true;
  } catch {
    return false;
  }
}

/** A grouping's own arguments, as its cursor carries them (the tenant's key and the cursor itself stay out). */
function groupArgs(input: GroupInput): Record<string, unknown> {
  const { cursor: _cursor, ...args } = input;
  return JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
}

/** An ad group named by the ad and its campaign, a campaign group by its name (the id beside it), as the pages' ad reports say them. */
function nameAds(rows: Record<string, unknown>[], ads: AdNames | undefined): void {
  rows.forEach((row, i) => {
    const ad = typeof row.ad === "string" ? ads?.ads.get(row.ad) : undefined;
    const campaignId = typeof row.campaign === "string" ? row.campaign : undefined;
    const campaign = campaignId === undefined ? undefined : ads?.campaigns.get(campaignId);
    const named: Record<string, unknown> = { ...(ad ? { ad: row.ad, ad_name: ad.name, campaign: ad.campaign } : {}), ...(campaign ? { campaign, campaign_id: campaignId } : {}) };
    rows[i] = Object.assign(named, { ...row, ...(campaign ? { campaign } : {}) });
  });
}

const namedAds = <T extends Record<string, unknown>>(rows: T[], ads: AdNames | undefined): T[] => {
  nameAds(rows, ads);
  return rows;
};

/** What ad and campaign groups could not name: the pages whose ad reports could not be read. */
const adsNote = (ads: AdNames | undefined, rows: Record<string, unknown>[]) =>
  ads?.failed.length && rows.some((r) => (typeof r.ad === "string" && r.ad !== NONE && !ads.ads.has(r.ad)) || r.campaign === UNKNOWN_CAMPAIGN)
    ? `Ads of ${ads.failed.map((f) => f.page_name ?? f.page_id).join(", ")} are not named (their campaign unknown): the ad report could not be read (${ads.failed[0]!.error}).`
    : undefined;

/** Post groups named by the post's words, where the page's posts say them. */
async function namePosts(ctx: ToolContext, rows: Record<string, unknown>[]): Promise<void> {
  const ids = rows.map((r) => r.post).filter((p): p is string => typeof p === "string" && p !== NONE);
  const texts = ids.length ? await postTexts(ctx.messaging, ids, readBy(ctx)) : new Map<string, string>();
  for (const row of rows) if (typeof row.post === "string" && texts.has(row.post)) row.post_text = texts.get(row.post);
}

/** What a pushed-down answer counted, and which statuses the order list itself gave. */
function pushedNote(pushed: Pushed): string {
  const read = pushed.statuses.map((s) => orderStatusName(s) ?? String(s));
  return `Counted by the POS's sales statistics (which count an order once confirmed), checked status by status against the order list's counts${
    read.length ? `; the ${read.join(", ")} orders, not all ever confirmed, were read from the list` : ""
  }.`;
}

/** The answer of search_orders with group_by; a cursor lists the next groups of the same grouping. */
export async function orderGroups(asked: GroupInput, ctx: ToolContext, shopId: string, options: { warm?: boolean } = {}) {
  if (asked.fields !== undefined) throw new InputError("fields", "does not apply with group_by", "Drop it: a grouping answers every match in one call.");
  const state = asked.cursor === undefined ? undefined : decodeCursor("search_orders", asked, groupCursor);
  const input: GroupInput = state ? { ...asked, ...(state.g as Partial<GroupInput>), limit: asked.limit ?? (state.g.limit as number | undefined), cursor: undefined } : asked;
  const offset = state?.at ?? 0;
  const keys = input.group_by;
  if (new Set(keys).size < keys.length) throw new InputError("group_by", "names the same key twice", `Use two different keys of: ${GROUP_KEYS.join(", ")}.`);
  if ((SPANS as readonly unknown[]).includes(input.group_sort) && !keys.includes("customer")) {
    throw new InputError("group_sort", `${input.group_sort} sorts customer groups`, `Add "customer" to group_by, or sort by one of ${FIGURES.join(", ")}.`);
  }
  if (input.province_list !== undefined && !keys.includes("province")) throw new InputError("province_list", "applies to group_by province", 'Add "province" to group_by, or drop it.');
  if (input.buyers !== undefined) checkBuyers(input);
  const tz = ctx.config.timezone;
  const time = input.time_field === undefined ? "inserted_at" : timeField(input.time_field);
  const lf = localFilter.parse(localFilterOf(input, ctx.config.timezone));
  const fields = new Set(["id", "status", "inserted_at", "total_price_after_sub_discount", "total_price", "cod", "shipping_fee", "is_free_shipping", "order_currency", ...localFields(lf)]);
  for (const key of keys) for (const field of isPeriod(key) ? [timeSource(time)] : KEY_FIELDS[key]) fields.add(field);
  const upstream = await orderQuery(ctx.pos, shopId, input, tz);
  // What came back is shown where returns are asked about: their statuses filtered or grouped by.
  const returns = keys.includes("status") || !!upstream.filter_status?.some((code) => code === 5 || code === 15);
  if (returns) fields.add("items");
  const query: OrderListParams = { ...upstream, option_sort: "inserted_at_desc", fields: [...fields] };
  const [tried, names] = await Promise.all([
    countedOrders(ctx, shopId, query, keys, lf, ctx.config.posStatistics, returns, options.warm),
    groupNames(ctx, shopId, keys, input.province_list ?? "new"),
  ]);
  const label = keys.map((key) => labeller(key, names, time, tz));
  // The statistics give ids alone: one the shop's lists do not name (a staff member no longer
  // listed, province lists that could not be read) is named as the orders name it, which only
  // the orders say.
  const unnamedByLists = tried.pushed?.counted.some((c) => keys.some((key, i) => NAMED_ON_ORDER.has(key) && isUnnamed(label[i]!(c.order))));
  const found = unnamedByLists ? await countedOrders(ctx, shopId, query, keys, lf, false, returns, options.warm) : tried;
  // Buyers by when they first ordered, or since when they have not: every order of the shop says it.
  const history = input.buyers === undefined ? undefined : await everyOrder(ctx, shopId, { fields: [...fields] });
  // An all-time read not done yet (a big shop's first question) makes the answer say how far it got.
  const { entries, read, pushed } = history
    ? { ...found, ...buyerEntries(input.buyers!, found.entries, history, query, one), read: history.complete ? found.read : history }
    : found;
  // Canceled and deleted orders are no sale: left out of the figures and counted apart, in all
  // and per group (a ranking of staff by orders could turn on whose were canceled), unless asked
  // for by status (leaving some statuses out still leaves these apart).
  const apart = (!input.statuses?.length || input.exclude_statuses === true) && !keys.includes("status");
  const voidName = (o: PosOrder) => (apart ? VOID_NAMES.get(o.status as number) : undefined);
  const sum = (counted: Counted[], figure: keyof Figures) => counted.reduce((total, c) => total + (c.figures[figure] ?? 0), 0);
  const counted = entries.filter((c) => !voidName(c.order));
  const voided = Object.entries(VOID_STATUSES).flatMap(([name, code]) => {
    const these = apart ? entries.filter((c) => c.order.status === code) : [];
    return these.length ? [{ name, orders: sum(these, "orders"), amount: sum(these, "amount") }] : [];
  });
  // A void order counts under its own name, not in the figures. A returned order came back whole
  // (the statistics count those groups; partly returned orders are read from the list).
  const all: Group[] = tally(entries, (c) => label.map((f) => f(c.order)), (c) => {
    const name = voidName(c.order);
    if (name) return { [name]: c.figures.orders };
    const { returned_amount, ...figures } = c.figures;
    const back = returned_amount ?? (c.order.status === 5 ? figures.amount : 0);
    return returns && back ? { ...figures, returned_amount: back } : figures;
  });
  // Customers are never pushed down: their entries are orders, one each.
  const at = keys.indexOf("customer");
  const buyers = at < 0 ? undefined : new Buyers((history?.rows ?? entries.map((c) => c.order)).filter((o) => !o.is_removed), (o) => !voidName(o));
  if (buyers) for (const g of all) Object.assign(g.figures, buyers.span(g.labels[at]!));
  // A group whose orders were all canceled or deleted sold nothing: no buyer, no row, nothing in
  // group_count (its orders stay in canceled and deleted, said in the note).
  const selling = apart ? all.filter((g) => (g.figures.orders ?? 0) > 0) : all;
  const voidOnly = all.filter((g) => !selling.includes(g));
  // Orders from no post (or ad) are no post's: counted apart, never taking a place among the posts.
  const keyed = keys.every((k) => k === "post" || k === "ad" || k === "campaign") ? selling.filter((g) => !g.labels.every((l) => l === NONE)) : selling;
  const unkeyed = selling.find((g) => g.labels.every((l) => l === NONE) && keyed !== selling);
  const groups = input.min_orders === undefined ? keyed : keyed.filter((g) => (g.figures.orders ?? 0) >= input.min_orders!);
  const matched = sum(entries, "orders");
  const live = entries.filter((c) => !VOID_NAMES.has(c.order.status as number));
  const { rows, rest } = listed(keys, groups, input, buyers, tz, offset);
  if (keys.includes("post")) await namePosts(ctx, rows);
  if (keys.includes("ad") || keys.includes("campaign")) nameAds(rows, names.ads);
  const nextAt = offset + (input.limit ?? GROUP_LIMIT);
  const next = rest && !inTimeOrder(keys, input) && input.limit !== 0 ? encodeCursor("search_orders", input, { g: groupArgs(input), at: nextAt }) : undefined;
  const notes = [
    pushed && pushedNote(pushed),
    pushed?.unlined &&
      `returned_amount leaves out the goods back of ${pushed.unlined.orders} ${pushed.unlined.statuses.map((s) => orderStatusName(s) ?? String(s)).join(", ")} orders (returned_amount_leaves_out): their lines are too many to read in one call; ask with statuses ${JSON.stringify(pushed.unlined.statuses.map((s) => orderStatusName(s) ?? String(s)))} and a shorter span for it.`,
    read && partialNote(read, tz),
    voided.length &&
      `${voided.map((v) => `${v.orders} ${v.name}`).join(" and ")} of the ${matched} orders (total) are left out of the groups' figures and counted apart, in all and in each group (${voided.map((v) => v.name).join(", ")}): pass statuses (["all"]: every one) or group by status to count them in.`,
    voidOnly.length &&
      `${voidOnly.length} ${keys.includes("customer") ? "customers" : "groups"} whose orders here were all canceled or deleted (${voidOnly.reduce((n, g) => n + (g.figures.canceled ?? 0) + (g.figures.deleted ?? 0), 0)} orders) are in no group nor in group_count.`,
    names.provinces?.note(),
    adsNote(names.ads, rows),
    input.min_orders === undefined ? undefined : `${keyed.length - groups.length} groups with fewer than ${input.min_orders} orders are left out.`,
    input.buyers && buyersNote(input.buyers),
    input.limit === 0
      ? `limit 0: the ${groups.length} groups are left out (group_count); pass a limit to list them.`
      : next
        ? `${rest!.groups} more groups are summed in the "other" row${rest!.tied ? `, ${rest!.tied} of them tied with the last listed group` : ""}: next_cursor lists the next ${input.limit ?? GROUP_LIMIT}.`
        : (restNote(rest, 100) ?? (rows.length === (input.limit ?? GROUP_LIMIT) ? `All ${groups.length} groups are listed.` : undefined)),
    unkeyed && `${unkeyed.figures.orders ?? 0} orders came from no ${keys[0]} (none).`,
  ].filter(Boolean);
  return {
    groups: input.limit === 0 ? undefined : rows,
    subtotals: keys.length === 2 && input.limit !== 0 ? namedAds(subtotals(keys[0]!, groups, input, buyers, tz), names.ads) : undefined,
    group_count: groups.length,
    // Every order that matches, as the plain list counts them (canceled and deleted among them).
    total: matched,
    excluding_canceled_deleted: { orders: sum(live, "orders"), amount: sum(live, "amount") },
    // What came back, over every group, where returns are asked about.
    returned_amount: returns ? all.reduce((total, g) => total + (g.figures.returned_amount ?? 0), 0) || undefined : undefined,
    // The value returned leaves these out (their lines were too many to read in the call): said beside it.
    returned_amount_leaves_out: pushed?.unlined && { statuses: pushed.unlined.statuses.map((s) => orderStatusName(s) ?? String(s)), orders: pushed.unlined.orders },
    none: unkeyed && { orders: unkeyed.figures.orders ?? 0, amount: unkeyed.figures.amount ?? 0 },
    ...Object.fromEntries(voided.map(({ name, ...sums }) => [name, sums])),
    complete: read?.complete ?? true,
    ask_again_in_s: read?.reading && !read.reading.failed ? askAgainIn(read.reading) : undefined,
    as_of: read?.asOf === undefined ? undefined : toIsoInZone(new Date(read.asOf), tz),
    counted_by: pushed ? ("pos_analytics" as const) : undefined,
    next_cursor: next,
    range: rangeEcho(input, tz),
    currency: pushed?.currency ?? orderCurrency(counted.map((c) => c.order)),
    note: notes.length ? notes.join(" ") : undefined,
    figures: groupFigures(apart),
  };
}

/**
 * How far a grouping got when it stopped short, and how to reach the rest. Its counts are of the
 * rows read: the list's total counts every order its query matches, before the filters applied
 * here (status_older_than with since/until, post_ids, livestream) and the canceled ones left out.
 */
function partialNote(read: EveryOrder, timeZone: string): string | undefined {
  if (read.complete) return undefined;
  if (read.reading) return `${readingNote("the shop's orders", read.reading, timeZone)}.`;
  if (read.note) return `Read ${read.rows.length} orders and stopped (${read.note}): these figures count only those.`;
  if (!read.stopped) return `The orders changed while they were read (${read.rows.length} read, the list counts ${read.total}): call again for exact figures.`;
  const oldest = read.rows.reduce<string | undefined>((min, o) => (o.inserted_at && (!min || o.inserted_at < min) ? o.inserted_at : min), undefined);
  // The list repeats page 100 past it (reference README), so the bound is never above 100 pages.
  const why = {
    time: `read in ${SWEEP_BOUNDS.ms / 1000} s`,
    bound: `one grouping reads up to ${SWEEP_BOUNDS.orders}`,
    short: "the list served fewer a page than asked, even asked for fewer",
  }[read.stopped];
  return `Read the newest ${read.rows.length} of the ${read.total ?? "more"} orders the list holds for these filters (${why}), created since ${recordTime(oldest, timeZone) ?? "?"}, and grouped the matches among them: narrow since/until or add filters to count the rest.`;
}
