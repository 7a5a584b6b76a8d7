import { z } from "zod";
import { UpstreamError } from "../../clients/errors.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { AdRecord } from "../../clients/schemas/messaging.js";
import { num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, READ } from "../define.js";
import { ascendingInput, rankRows, requireSorted, sortByInput } from "../rank.js";
import { pagesLeftOut, pagesLeftOutSchema } from "../pages/coverage.js";
import { pageIdsInput } from "../pages/page-refs.js";
import { eachStatsPage, failedPagesSchema, statsPages } from "./fan-out.js";
import { rangeInputs, rangeOut, rangeSchema, statsRange, unixSpan, wholeDays } from "./range.js";
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

const PERMISSION_HINT =
  "The ad statistics need an account that can view the page's ad reports on the social platform (ads read access to the ad account) and that selected this page in the ad account settings; grant that, or ask the ad account owner.";

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

async function pageAds(client: MessagingClient, pageId: string, view: string, span: { since: number; until: number }): Promise<AdRecord[]> {
  try {
    return view === "campaigns"
      ? await client.getCampaignStats(pageId, span)
      : await client.getAdStats(pageId, { ...span, type: view === "ads" ? "by_id" : "by_time" });
  } catch (error) {
    if (error instanceof UpstreamError && (error.status === 403 || /permission/i.test(error.upstreamMessage ?? ""))) {
      const { op, status, code, upstreamMessage, permission } = error;
      throw new UpstreamError({ op, status, code, upstreamMessage, permission, hint: PERMISSION_HINT });
    }
    throw error;
  }
}

/** Day rows of several pages: one row per day, sums with the ratios recomputed. */
function daysOf(records: AdRecord[]): Row[] {
  const byDay = new Map<string, AdRecord[]>();
  for (const r of records) byDay.set(r.date ?? "", [...(byDay.get(r.date ?? "") ?? []), r]);
  return [...byDay].map(([date, list]) => ({ date, ...totalsOf(list) }));
}

export const getAdStats = defineTool({
  name: "get_ad_stats",
  title: "Ad statistics",
  description:
    "Ad results per campaign, ad or day: spend, clicks, conversations started, purchases, ROAS; by spend unless sort_by.",
  toolset: "page_stats",
  annotations: READ,
  input: z.object({
    page_ids: pageIdsInput,
    view: z.enum(["campaigns", "ads", "days"]).default("campaigns").describe("days: all ads per day"),
    ...rangeInputs(MAX_DAYS),
    sort_by: sortByInput.describe("A row figure, largest first"),
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
    failed_pages: failedPagesSchema,
    pages_left_out: pagesLeftOutSchema,
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const range = statsRange(input, tz, MAX_DAYS);
    const span = unixSpan(range);
    const pages = statsPages(ctx, input.page_ids);
    const { results, failed } = await eachStatsPage(ctx, pages, "ad statistics", (pageId) => pageAds(ctx.messaging, pageId, input.view, span));
    const several = results.length > 1;
    const records = results.flatMap((r) => r.value);
    const currency = records.find((r) => r.currency)?.currency ?? undefined;
    let rows: Row[];
    if (input.view === "days" && several) rows = daysOf(records);
    else {
      rows = results.flatMap(({ pageId, value }) =>
        value.map((r): Row => ({
          ...(several ? { page_id: pageId, page_name: pages.name(pageId) } : {}),
          ...rowOf(r, input.view),
          currency: r.currency && r.currency !== currency ? r.currency : undefined,
        })),
      );
    }
    if (input.view === "days") rows.sort((a, b) => String(a.date).localeCompare(String(b.date)));
    const sortBy = sortKey(input.sort_by) ?? (input.view === "days" ? undefined : "spend");
    if (input.ascending !== undefined) requireSorted(sortBy !== undefined);
    const ranked = rankRows(rows.map(plain), { sortBy, valid: SORTABLE, limit: input.limit, ascending: input.ascending });
    return {
      // The platform counts whole days (the page's): the answer says which ones.
      range: rangeOut(wholeDays(range, tz), tz),
      currency,
      totals: plain(totalsOf(records)) as Counts,
      rows: ranked.rows,
      total_rows: ranked.truncated ? ranked.total : undefined,
      truncated: ranked.truncated,
      tied_past_limit: ranked.tied,
      failed_pages: failed.length ? failed : undefined,
      pages_left_out: await pagesLeftOut(ctx, pages.ids),
    };
  },
});
