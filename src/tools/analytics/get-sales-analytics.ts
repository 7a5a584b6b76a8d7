import { z } from "zod";
import { ANALYTICS_RETURNED_STATUSES } from "../../clients/pos-codes.js";
import type { PosSaleRow } from "../../clients/schemas/pos.js";
import { num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { parseRange, toDateInZone, toIsoInZone, toUnix, toYmdHms } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { jsonish, limitInput, shopIdInput, sinceInput, untilInput } from "../inputs.js";
import { codeInput, optionalCode } from "../pos/codes.js";
import { someOf } from "../pos/fields.js";
import { shopScope } from "../pos/shop-scope.js";
import { FORMULA_PREFIX, salesMetrics } from "./metrics.js";
import { splitNames } from "./split-names.js";
import { CANCELED_STATUSES, saleFilter, saleFilterInput } from "./sale-filter.js";
import { DATED_BY, isCanceledRow, SALE_BASIS, STATUS_SPLIT, SUCCESS_STATUS, type SuccessStatus } from "./sale-basis.js";
import { splitLabels } from "./split-labels.js";
import { settleAll } from "../settle.js";
import { rankRows, sortByInput } from "../rank.js";
import { CAME_BACK_FIGURES, cameBack, cameBackSchema } from "../orders/came-back.js";

const SPLITS = [
  "Time.day",
  "Time.month",
  "Order.source",
  "Order.status",
  "Order.partner_id",
  "Order.province_id",
  "Order.warehouse_id",
  "Variation.id",
  "Variation.product_id",
  "User.id",
  "Customer.id",
] as const;
/** Metrics that are not sums of their rows. */
const NOT_ADDITIVE = new Set(["avg_price"]);

type Metrics = Record<string, number>;

/**
 * The numbers of a row. Shop formulas come with every row unless select_fields chose the fields,
 * under a 50-character key each, and mostly restate the other figures (price minus a shipping fee
 * that a product row does not have): they stay out unless asked for by name.
 */
function metricsOf(value: unknown, formulas: boolean): Metrics | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const out: Metrics = {};
  for (const [key, v] of Object.entries(value)) {
    const n = num(v);
    if (n !== undefined && (formulas || !key.startsWith(FORMULA_PREFIX))) out[key] = n;
  }
  return out;
}

/** Column totals: sums of the additive metrics, avg_price re-derived; formulas stay per row. */
function totalsOf(rows: Metrics[], countsOrders: boolean): Metrics | undefined {
  if (rows.length === 0) return undefined;
  const totals: Metrics = {};
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (NOT_ADDITIVE.has(key) || key.startsWith(FORMULA_PREFIX)) continue;
      totals[key] = (totals[key] ?? 0) + value;
    }
  }
  if (!countsOrders) {
    delete totals.order_count;
    delete totals.total_order_count;
  } else if (rows.some((r) => "avg_price" in r) && totals.price !== undefined && totals.order_count) {
    totals.avg_price = Math.round(totals.price / totals.order_count);
  }
  return totals;
}

/**
 * Success minus returned, metric by metric: the API counts an order as a sale once it reaches
 * success_status and lists the ones returned since apart, to deduct. avg_price re-derived.
 */
function netOf(success: Metrics | undefined, returned: Metrics | undefined): Metrics | undefined {
  if (!success || !returned) return undefined;
  const net: Metrics = {};
  for (const [key, value] of Object.entries(success)) net[key] = value - (returned[key] ?? 0);
  if ("avg_price" in net) net.avg_price = net.order_count ? Math.round((net.price ?? 0) / net.order_count) : 0;
  return net;
}

const metricMap = z.record(z.string(), z.number());

/** Totals with amount (goods after discounts, search_orders' amount) where price and discount give it. */
function withAmount(totals: Metrics | undefined): Metrics | undefined {
  if (!totals || totals.price === undefined || totals.discount === undefined || "amount" in totals) return totals;
  return { ...totals, amount: totals.price - totals.discount };
}

/**
 * Upstream rows whose split values read alike (old provinces merged into one), summed as one:
 * avg_price re-derived, shop formulas left out of a merged row (a ratio does not add up).
 */
function merged<R extends { values: Record<string, string>; success: Metrics; returned: Metrics | undefined }>(rows: R[]): R[] {
  const byValues = new Map<string, R>();
  for (const row of rows) {
    const key = JSON.stringify(row.values);
    const held = byValues.get(key);
    const add = (a: Metrics | undefined, b: Metrics | undefined) => (a && b ? totalsOf([a, b], true) : (a ?? b));
    byValues.set(key, held ? { ...held, success: add(held.success, row.success), returned: add(held.returned, row.returned) } : row);
  }
  return [...byValues.values()];
}

/** Staff roles a sales split can name, in search_orders' words, and the API's `user_type` for each. */
const USER_TYPE_PARAM = { creator: "create", seller: "assign", updater: "update", care: "care", marketer: "marketer" } as const;
const USER_TYPES = Object.keys(USER_TYPE_PARAM) as (keyof typeof USER_TYPE_PARAM)[];
const API_USER_WORDS: Record<string, string> = Object.fromEntries(Object.entries(USER_TYPE_PARAM).map(([word, param]) => [param, word]));


const API_SUCCESS_WORDS: Record<string, string> = Object.fromEntries(Object.entries(SUCCESS_STATUS).map(([word, param]) => [param, word]));

/**
 * What the statistics' returned counts, per returned_status: they know no partly returned order
 * (31 units of November's returns of 38 with them), and no return order; where those are, said.
 */
function returnedWords(status: string, cameBack: boolean): string {
  const others = cameBack ? "came_back" : 'search_orders statuses ["returned","partly_returned"]';
  return `${status === "returning" ? "returning" : "returned whole"} (partly returned and return orders: ${others})`;
}

/** What came back, without an average price per returned order (a figure no one asks): rows stay small. */
const backFigures = (m: Metrics | undefined): Metrics | undefined => {
  if (!m) return undefined;
  const { avg_price: _average, ...rest } = m;
  return rest;
};

/** What each success_status counts as a sale, in the figures line. */
const SALE_WORDS: Record<SuccessStatus, string> = {
  new: "every order",
  confirmed: "orders once confirmed",
  send_to_partner: "orders once sent to the carrier",
};

const dayOf = (row: PosSaleRow) => String(row["Time.day"] ?? "").slice(0, 10);

/**
 * Rows of days within the range, and those outside it. A return dated when it came back (or by
 * another date than its sale's) falls on a day of its own, which can be past until: such a row
 * holds the return alone, and a range is a range, so it is left out and said.
 */
function byRange(rows: readonly PosSaleRow[], from: string, to: string): [PosSaleRow[], PosSaleRow[]] {
  const inside = (row: PosSaleRow) => dayOf(row) >= from && dayOf(row) <= to;
  return [rows.filter(inside), rows.filter((row) => !inside(row))];
}

/** Whether the filter asks for canceled or deleted orders by status: then they are what is counted. */
const asksCanceled = (filter: Record<string, string[]> | undefined) => (filter?.[STATUS_SPLIT] ?? []).some((code) => CANCELED_STATUSES.includes(code));

export const getSalesAnalytics = defineTool({
  name: "get_sales_analytics",
  title: "Get sales analytics",
  description:
    'Sales totals, then rows per split value, by revenue (price: goods before discounts) unless sort_by. E.g. best sellers by units: split_by ["Variation.id"], sort_by "product_count", limit 10.',
  toolset: "analytics",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    since: sinceInput.describe("From date; default last 30 days"),
    until: untilInput,
    split_by: jsonish(someOf(z.enum(SPLITS), 3)).optional().describe("Default Time.day"),
    filter: saleFilterInput,
    // The API's own values (0, "1") are understood too.
    success_status: z
      .preprocess((v) => API_SUCCESS_WORDS[String(v)] ?? v, z.enum(Object.keys(SUCCESS_STATUS) as [SuccessStatus, ...SuccessStatus[]]))
      .optional()
      .describe("When an order counts (default new)"),
    success_record: z.enum(["inserted_at", "updated_at"]).optional().describe("Sale date"),
    // Named as search_orders names its staff keys; the API's own words are still understood.
    user_type: z
      .preprocess((v) => API_USER_WORDS[String(v)] ?? v, z.enum(USER_TYPES))
      .optional()
      .describe("Who User.id is (default creator; seller: assigned)"),
    returned_status: codeInput(ANALYTICS_RETURNED_STATUSES, "Orders counted as returned"),
    returned_record: z.enum(["inserted_at", "updated_at", "success_record"]).optional().describe("Return date"),
    select_fields: jsonish(someOf(z.string().regex(/^[a-z_]+[\w-]*$/).max(80), 30))
      .optional()
      .describe("Metric fields, e.g. price, cod; shop formulas only if named"),
    include_canceled: z.boolean().optional().describe("Count canceled and deleted orders too"),
    sort_by: sortByInput.describe("A metric of the rows, largest first"),
    ascending: z.boolean().optional().describe("Smallest first"),
    limit: limitInput(500, 100),
  }),
  output: z.object({
    since: z.string(),
    until: z.string(),
    dated_by: z.object({ sales: z.string(), returns: z.string() }),
    currency: z.string().optional(),
    figures: z.string(),
    metrics: z.record(z.string(), z.string()).optional().describe("Metric field -> meaning"),
    totals: z
      .object({
        success: metricMap.optional(),
        returned: metricMap.optional(),
        net: metricMap.optional(),
        canceled: metricMap.optional().describe("Canceled or deleted orders the statistics counted: left out of success unless asked for"),
      })
      .optional(),
    row_count: z.number().describe("Rows before limit"),
    truncated: z.boolean().optional(),
    tied_past_limit: z.number().optional().describe("Rows left out that equal the last row shown: raise limit to see the tie"),
    rows: z.array(z.looseObject({ name: z.string().optional(), returned: metricMap.optional() })),
    came_back: cameBackSchema.optional().describe("Returns asked about (returned_status or returned_record): what came back in the range, both ways"),
    complete: z.boolean().optional(),
    note: z.string().optional(),
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const range = parseRange(input.since, input.until, tz, { defaultDays: 30 });
    const returnedStatus = optionalCode(ANALYTICS_RETURNED_STATUSES, "returned_status", input.returned_status);
    const split = input.split_by ?? ["Time.day"];
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const filter = input.filter && (await saleFilter(ctx, shopId, input.filter));
    const successStatus = input.success_status ?? "new";
    const successRecord = input.success_record ?? SALE_BASIS.success_record;
    const returnedRecord = input.returned_record ?? "success_record";
    // Returns dated otherwise than their sales are asked by day as well, to keep to the range.
    const returnsApart = returnedRecord !== "success_record" && !(returnedRecord === "inserted_at" && successRecord === "inserted_at");
    // Asked by status too, whatever the split: the canceled and deleted orders are those rows, set
    // apart (or counted, asked for), and the rest summed per split value (an order has one status,
    // so its figures add up). A shop formula does not add up, so with one named the rows stay by status.
    const byStatus = split.includes(STATUS_SPLIT) || (input.select_fields ?? []).some((f) => f.startsWith(FORMULA_PREFIX));
    const asked = [...new Set([...split, STATUS_SPLIT, ...(returnsApart ? ["Time.day"] : [])])];
    const rowSplit = byStatus ? [...new Set([...split, STATUS_SPLIT])] : split;
    // Asked about returns, the answer gives what came back both ways, which the statistics do not count.
    const aboutReturns = input.returned_status !== undefined || input.returned_record !== undefined;
    const [read, metrics, back] = await settleAll([
      ctx.pos.getSaleAnalytics(shopId, {
        since: toYmdHms(range.since, tz),
        until: toYmdHms(range.until, tz),
        split_by: asked,
        filter,
        success_status: SUCCESS_STATUS[successStatus],
        success_record: successRecord,
        user_type: input.user_type && USER_TYPE_PARAM[input.user_type],
        returned_status: returnedStatus,
        returned_record: input.returned_record,
        select_fields: input.select_fields,
      }),
      // The metric names only explain the figures: without them the figures still stand.
      salesMetrics(ctx, shopId).catch(() => []),
      aboutReturns ? cameBack(ctx, shopId, { from: toUnix(range.since), to: toUnix(range.until) }) : Promise.resolve(undefined),
    ]);
    const [inRange, outside] = returnsApart ? byRange(read, toDateInZone(range.since, tz), toDateInZone(range.until, tz)) : [read, []];
    const countsCanceled = input.include_canceled === true || asksCanceled(filter);
    const data = countsCanceled ? inRange : inRange.filter((row) => !isCanceledRow(row));
    // Split values are shop- and customer-entered text (sources, names): sanitized like any other.
    const label = await splitLabels(ctx.pos, shopId, rowSplit);
    const splitValues = (row: PosSaleRow) =>
      Object.fromEntries(rowSplit.map((s) => [s, label(s, row[s]) ?? sanitizeName(row[s] == null ? undefined : String(row[s])) ?? "(none)"]));
    const formulas = input.select_fields !== undefined;
    const success = data.map((r) => metricsOf(r.success, formulas) ?? {});
    const returnedOf = (rows: readonly PosSaleRow[]) =>
      rows.flatMap((r): Metrics[] => {
        const m = metricsOf(r.returned, formulas);
        return m ? [m] : [];
      });
    const returned = returnedOf(data);
    const seen = new Set([...success, ...returned].flatMap((m) => Object.keys(m)));
    const meaning: Record<string, string> = {};
    for (const m of metrics) {
      if (!seen.has(m.field) || !m.name) continue;
      meaning[m.field] = m.formula ? `${m.name} = ${m.formula}` : m.name;
    }
    // "Giá trung bình" read as a unit price: it is per order (a variant's row: its orders' goods / their count).
    if (seen.has("avg_price")) meaning.avg_price = `${meaning.avg_price ?? "avg_price"} = price / order_count`;
    const countsOrders = !split.some((s) => s.startsWith("Variation."));
    const groups = merged(data.map((r, i) => ({ values: splitValues(r), success: success[i]!, returned: metricsOf(r.returned, formulas), upstream: r })));
    const all: (Record<string, unknown> & { upstream: PosSaleRow })[] = groups.map((g) => ({ ...g.values, ...g.success, returned: backFigures(g.returned), upstream: g.upstream }));
    const byTime = split.length === 1 && split[0]!.startsWith("Time.");
    if (byTime) all.sort((a, b) => String(a[split[0]!]).localeCompare(String(b[split[0]!])));
    const revenue = ["price", "order_count", "product_count"].find((f) => seen.has(f));
    const ranked = rankRows(all, {
      sortBy: input.sort_by ?? (byTime ? undefined : revenue),
      valid: [...new Set(success.flatMap((m) => Object.keys(m)))],
      limit: input.limit,
      ascending: input.ascending,
    });
    const names = await splitNames(ctx, shopId, split, ranked.rows.map((r) => r.upstream));
    const rows = ranked.rows.map(({ upstream: _upstream, ...row }, i) => (names[i] ? { name: names[i], ...row } : row));
    const [successTotals, returnedTotals] = [totalsOf(success, countsOrders), totalsOf(returned, countsOrders)];
    const late = totalsOf(returnedOf(outside), true);
    const returnedName = ANALYTICS_RETURNED_STATUSES.find((s) => String(s.code) === String(returnedStatus ?? 5))?.name ?? "returned";
    return {
      since: toIsoInZone(range.since, tz),
      until: toIsoInZone(range.until, tz),
      dated_by: { sales: DATED_BY[successRecord]!, returns: DATED_BY[returnedRecord]! },
      currency,
      figures: `success: ${SALE_WORDS[successStatus]}, canceled and deleted ${countsCanceled ? "counted in" : "left out"} (totals.canceled); returned: of those, now ${returnedWords(returnedName, !!back)}; net = success - returned; amount = price - discount.${back ? ` ${CAME_BACK_FIGURES}.` : ""}`,
      metrics: meaning,
      totals: {
        success: withAmount(successTotals),
        returned: backFigures(returnedTotals),
        net: withAmount(netOf(successTotals, returnedTotals)),
        canceled: totalsOf(inRange.filter(isCanceledRow).map((r) => metricsOf(r.success, formulas) ?? {}), countsOrders) ?? { order_count: 0 },
      },
      row_count: all.length,
      truncated: ranked.truncated,
      tied_past_limit: ranked.tied,
      rows,
      came_back: back?.came_back,
      complete: back && !back.complete ? false : undefined,
      note: late ? `${late.order_count ?? "Some"} returns of these sales, dated outside the range (dated_by.returns), are left out.` : undefined,
    };
  },
});
