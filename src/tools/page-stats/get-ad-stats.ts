import { z } from "zod";
import type { AdRecord } from "../../clients/schemas/messaging.js";
import { id, num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, READ, readBy } from "../define.js";
import { ascendingInput, rankRows, requireSorted, sortByInput } from "../rank.js";
import { pagesLeftOut, pagesLeftOutSchema } from "../pages/coverage.js";
import { pageIdsInput } from "../pages/page-refs.js";
import { eachStatsPage, failedPagesSchema, statsPages } from "./fan-out.js";
import { rangeInputs, rangeOut, rangeSchema, statsRange, unixSpan, wholeDays } from "./range.js";
import { adNames, pageAds } from "./ad-names.js";
import { type AdSale, type AdSales, adSales } from "./ad-sales.js";
import { type Counts, type Row, rowsSchema, sumRows, totalsSchema } from "./rows.js";

const MAX_DAYS = 92;
const SUMMED = [
  "spend",
  "impressions",
  "link_click",
  "messaging_conversation_started_7d",
  "messaging_first_reply",
  "post_comments",
  "purchases",
  "purchases_conversion_value",
] as const;
const METRICS = [...SUMMED, "reach", "cpc", "cpm", "ctr", "purchase_roas", "budget_remaining"] as const;
/** 0 means "no such budget" upstream. */
const BUDGETS = ["daily_budget", "lifetime_budget"] as const;

/**
 * The upstream's figures under names that say what they count, as the ad platform's reports call
 * them ("Messaging conversations started", "New messaging contacts"):
 * messaging_conversation_started_7d reads as a 7-day figure, messaging_first_reply as the page's
 * own replies. Renaming costs no token per answer, where a legend cost some in every one. ctr is
 * a percentage, roas the purchase value per unit of spend.
 */
const PLAIN: Partial<Record<string, string>> = {
  link_click: "link_clicks",
  messaging_conversation_started_7d: "conversations_started",
  messaging_first_reply: "new_messaging_contacts",
  purchases_conversion_value: "purchase_value",
  ctr: "ctr_pct",
  purchase_roas: "roas",
};
const plainName = (field: string) => PLAIN[field] ?? field;
/** A row or totals with every figure under its plain name. */
const plain = (row: Row): Row => Object.fromEntries(Object.entries(row).map(([k, v]) => [plainName(k), v]));
/** What sort_by takes: the plain names, and the upstream's own (the names the platform documents). */
const SORTABLE = [...METRICS, ...BUDGETS].map(plainName);
const sortKey = (field: string | undefined) => (field === undefined ? undefined : (PLAIN[field] ?? field));

const ratio = (a: number, b: number, digits: number) => (b === 0 ? undefined : Number((a / b).toFixed(digits)));

function metricsOf(r: AdRecord): Record<string, number | undefined> {
  const out: Record<string, number | undefined> = Object.fromEntries(METRICS.map((k) => [k, num(r[k])]));
  for (const k of BUDGETS) out[k] = num(r[k]) || undefined;
  return out;
}

function rowOf(r: AdRecord, view: string): Row {
  const ids =
    view === "days"
      ? { date: r.date ?? undefined }
      : { ...(view === "ads" ? { ad_id: r.ad_id ?? undefined, adset_id: r.adset_id ?? undefined } : {}), campaign_id: r.campaign_id ?? undefined };
  return { ...ids, name: sanitizeName(r.name), status: r.status ?? undefined, ...metricsOf(r) };
}

/** Sums over the rows that had delivery, with the ratios recomputed from the sums. */
function totalsOf(records: AdRecord[]): Counts {
  const delivered = records.map((r) => Object.fromEntries(SUMMED.map((k) => [k, num(r[k]) ?? 0])));
  const t = sumRows(delivered, SUMMED);
  const ratios = {
    cpc: ratio(t.spend!, t.link_click!, 2),
    cpm: ratio(t.spend! * 1000, t.impressions!, 2),
    ctr: ratio(t.link_click! * 100, t.impressions!, 2),
    purchase_roas: ratio(t.purchases_conversion_value!, t.spend!, 4),
  };
  return { ...t, ...(Object.fromEntries(Object.entries(ratios).filter(([, v]) => v !== undefined)) as Counts) };
}

/** Day rows of several pages: one row per day, sums with the ratios recomputed. */
function daysOf(records: AdRecord[]): Row[] {
  const byDay = new Map<string, AdRecord[]>();
  for (const r of records) byDay.set(r.date ?? "", [...(byDay.get(r.date ?? "") ?? []), r]);
  return [...byDay].map(([date, list]) => ({ date, ...totalsOf(list) }));
}

/** The POS's figures beside an ad's or campaign's spend; none where it counted nothing. */
function posFigures(sale: AdSale | undefined, spend: number | undefined): Row {
  if (!sale) return {};
  return { pos_orders: sale.orders, pos_revenue: sale.revenue, pos_roas: spend ? ratio(sale.revenue, spend, 4) : undefined };
}

/**
 * The POS's sales of each row's ad (view ads) or campaign (view campaigns: its ads' orders, an ad
 * tied to its campaign by the page's ad report), by the row's id; and those of ads no row names
 * (of a page whose report could not be read, or with no delivery in the range) on the pages asked.
 */
function salesOf(view: string, sales: AdSales, campaignOf: ReadonlyMap<string, string | undefined>, named: ReadonlySet<string>, pageIds: readonly string[]) {
  const byRow = new Map<string, AdSale>();
  const other: AdSale = { orders: 0, revenue: 0 };
  const pages = new Set([...pageIds, ""]);
  for (const [ad, sale] of sales.byAd) {
    const key = view === "ads" ? ad : campaignOf.get(ad);
    const target = key !== undefined && named.has(key) ? (byRow.get(key) ?? { orders: 0, revenue: 0 }) : pages.has(sales.pageOf.get(ad) ?? "") ? other : undefined;
    if (!target) continue;
    target.orders += sale.orders;
    target.revenue += sale.revenue;
    if (target !== other) byRow.set(key!, target);
  }
  return { byRow, other };
}

export const getAdStats = defineTool({
  name: "get_ad_stats",
  title: "Ad statistics",
  description:
    "Ad results per campaign, ad or day: spend, clicks, conversations started, purchases, ROAS, POS orders and revenue (pos_*).",
  toolset: "page_stats",
  annotations: READ,
  input: z.object({
    page_ids: pageIdsInput,
    view: z.enum(["campaigns", "ads", "days"]).default("campaigns").describe("days: all ads per day"),
    ...rangeInputs(MAX_DAYS),
    sort_by: sortByInput.describe("A row figure, largest first (default spend)"),
    ascending: ascendingInput,
    limit: z.number().int().min(1).max(500).default(50).describe("Max rows"),
  }),
  output: z.object({
    range: rangeSchema,
    currency: z.string().optional(),
    totals: totalsSchema,
    rows: rowsSchema,
    total_rows: z.number().optional(),
    truncated: z.boolean().optional(),
    tied_past_limit: z.number().optional().describe("Rows left out that equal the last row shown: raise limit to see the tie"),
    pos_other_ads: z.object({ orders: z.number(), revenue: z.number() }).optional().describe("POS sales from ads no row names"),
    complete: z.boolean().optional(),
    ask_again_in_s: z.number().optional(),
    failed_pages: failedPagesSchema,
    pages_left_out: pagesLeftOutSchema,
    note: z.string().optional(),
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const range = statsRange(input, tz, MAX_DAYS);
    const span = unixSpan(range);
    const pages = statsPages(ctx, input.page_ids);
    // Beside each ad's or campaign's spend, what the shop's own POS counts from it (the days the report counts).
    const pos = input.view !== "days" && Object.keys(ctx.config.posApiKeys).length > 0;
    const [{ results, failed }, sales, names] = await Promise.all([
      eachStatsPage(ctx, pages, "ad statistics", (pageId) => pageAds(ctx.messaging, pageId, input.view, span)),
      pos ? adSales(ctx, unixSpan(wholeDays(range, tz))) : undefined,
      pos && input.view === "campaigns" ? adNames(ctx, pages.ids, readBy(ctx), span.until) : undefined,
    ]);
    const several = results.length > 1;
    const records = results.flatMap((r) => r.value);
    const currency = records.find((r) => r.currency)?.currency ?? undefined;
    const campaignOf = new Map([...(names?.ads ?? [])].map(([ad, name]) => [ad, name.campaign_id]));
    const keyOf = (r: AdRecord) => id(input.view === "ads" ? r.ad_id : r.campaign_id);
    const named = new Set(records.map(keyOf).filter((k): k is string => k !== undefined));
    const attributed = sales && salesOf(input.view, sales, campaignOf, named, pages.ids);
    let rows: Row[];
    if (input.view === "days" && several) rows = daysOf(records);
    else {
      rows = results.flatMap(({ pageId, value }) =>
        value.map((r): Row => ({
          ...(several ? { page_id: pageId, page_name: pages.name(pageId) } : {}),
          ...rowOf(r, input.view),
          currency: r.currency && r.currency !== currency ? r.currency : undefined,
          ...posFigures(attributed?.byRow.get(keyOf(r) ?? ""), num(r.spend)),
        })),
      );
    }
    if (input.view === "days") rows.sort((a, b) => String(a.date).localeCompare(String(b.date)));
    const sortBy = sortKey(input.sort_by) ?? (input.view === "days" ? undefined : "spend");
    if (input.ascending !== undefined) requireSorted(sortBy !== undefined);
    const ranked = rankRows(rows.map(plain), { sortBy, valid: [...SORTABLE, ...(pos ? POS_FIGURES : [])], limit: input.limit, ascending: input.ascending });
    const totals = plain(totalsOf(records)) as Counts;
    if (attributed) {
      const counted = [...attributed.byRow.values()];
      const sum = (k: keyof AdSale) => counted.reduce((t, s) => t + s[k], 0);
      Object.assign(totals, posFigures({ orders: sum("orders"), revenue: sum("revenue") }, totals.spend));
    }
    const other = attributed && attributed.other.orders > 0 ? attributed.other : undefined;
    const notes = [
      ...(sales?.notes ?? []),
      pos ? POS_NOTE : "",
      other ? `pos_other_ads: sales from ads no row names${failed.length ? " (among them, those of failed_pages: their report could not be read, so their spend is not known)" : ""}` : "",
      names?.failed.length ? `ads of ${names.failed.map((f) => f.page_name ?? f.page_id).join(", ")} could not be tied to their campaigns (${names.failed[0]!.error})` : "",
    ].filter(Boolean);
    return {
      // The platform counts whole days (the page's): the answer says which ones.
      range: rangeOut(wholeDays(range, tz), tz),
      currency,
      totals,
      rows: ranked.rows,
      total_rows: ranked.truncated ? ranked.total : undefined,
      truncated: ranked.truncated,
      tied_past_limit: ranked.tied,
      pos_other_ads: other,
      complete: sales && !sales.complete ? false : undefined,
      ask_again_in_s: sales?.askAgainIn,
      failed_pages: failed.length ? failed : undefined,
      pages_left_out: await pagesLeftOut(ctx, pages.ids),
      note: notes.length ? notes.join("; ") : undefined,
    };
  },
});

/** Row figures the POS adds, sortable. */
const POS_FIGURES = ["pos_orders", "pos_revenue", "pos_roas"];

/** What the POS figures count, once an answer. */
const POS_NOTE =
  "pos_orders, pos_revenue: the shop's POS sales (canceled and deleted orders are none) created in these days that the POS records as from the row's ad (a campaign: from its ads), revenue the goods after discounts excl. shipping; pos_roas = pos_revenue / spend";
