import { ConfigError, failureText } from "../../clients/errors.js";
import type { PosSaleRow } from "../../clients/schemas/pos.js";
import { num } from "../../format/compact.js";
import { parseDateInput, startOfDay, toDateInZone, toYmdHms } from "../../format/time.js";
import type { ResourceContext } from "../../resources/define.js";
import type { AnyTool, ToolContext } from "../define.js";
import { eachPage } from "../page-stats/fan-out.js";
import { getPageStats } from "../page-stats/get-page-stats.js";
import { getStaffStats } from "../page-stats/get-staff-stats.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { isCanceledRow, SALE_BASIS, STATUS_SPLIT } from "./sale-basis.js";

/**
 * One day of the shop: inbox per page, staff work and (with the POS configured) sales. Gathered
 * once for both the daily_shop_report prompt (figures for the model to write up) and the
 * get_daily_report tool (the same figures as a result a host can chart).
 */

const STAFF_SHOWN = 10;
const SALE_FIELDS = ["order_count", "price", "cod", "discount", "shipping_fee", "product_count"];

/**
 * Runs a statistics tool's handler on arguments the report built itself: its schema fills the
 * defaults, and page_ids are set after it, already resolved (no unknown-key check, page
 * resolution or row cap applies: the report is no tool call, and a report covers every page
 * however many, while a tool call takes at most 20).
 */
async function run(tool: AnyTool, args: Record<string, unknown>, pageIds: readonly string[], ctx: ToolContext): Promise<Record<string, unknown>> {
  return (await tool.handler({ ...tool.input.parse(args), page_ids: [...pageIds] }, ctx)) as Record<string, unknown>;
}

/** A section's figures, or why they are missing: one failing source does not sink the report. */
async function attempt<T>(read: () => Promise<T>): Promise<T | { unavailable: string }> {
  try {
    return await read();
  } catch (error) {
    return { unavailable: failureText(error) };
  }
}

const reportDay = (text: string, timeZone: string): Date => startOfDay(parseDateInput("date", text, timeZone), timeZone);

/** Every metric of the rows' `success`, summed. */
function successTotals(rows: readonly PosSaleRow[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const row of rows) for (const [k, v] of Object.entries(row.success ?? {})) if (num(v) !== undefined) totals[k] = (totals[k] ?? 0) + num(v)!;
  return totals;
}

/** What the sales figures count, said with them. */
const SALES_FIGURES =
  "orders created that day, canceled and deleted left out (canceled_orders: those canceled or deleted since), as search_orders counts; price: goods before discounts, amount: after them (search_orders' amount); cod: what carriers collect from buyers; returned_orders: of the day's orders, those returned whole since (counted on the order's day, not the day they came back; partly returned ones and return orders: search_orders statuses [\"returned\",\"partly_returned\"]).";

/**
 * The day's sales as every tool counts them: the orders created that day, canceled and deleted
 * ones left out (sale-basis.ts) and counted apart (canceled_orders), every metric of `success`
 * summed, and how many of the day's orders are returned since.
 */
async function sales(ctx: ResourceContext, shopId: string | undefined, since: Date, until: Date) {
  const shop = await resolveShopId(ctx, shopId);
  const tz = ctx.config.timezone;
  const rows = await ctx.pos.getSaleAnalytics(shop, { since: toYmdHms(since, tz), until: toYmdHms(until, tz), split_by: [STATUS_SPLIT], select_fields: SALE_FIELDS, ...SALE_BASIS });
  const sold = rows.filter((row) => !isCanceledRow(row));
  const totals = successTotals(sold);
  const returned = sold.reduce((n, row) => n + (num((row.returned as Record<string, unknown> | null | undefined)?.order_count) ?? 0), 0);
  const orders = totals.order_count ?? 0;
  return {
    shop_id: shop,
    ...totals,
    amount: (totals.price ?? 0) - (totals.discount ?? 0),
    avg_order_value: orders ? Math.round((totals.price ?? 0) / orders) : 0,
    returned_orders: returned,
    canceled_orders: successTotals(rows.filter(isCanceledRow)).order_count ?? 0,
    figures: SALES_FIGURES,
  };
}

export interface DailyReport {
  data: {
    date: string;
    time_zone: string;
    inbox: ({ page_id: string; name?: string | undefined } & Record<string, unknown>)[];
    staff: Record<string, unknown>;
    sales?: Record<string, unknown> | undefined;
  };
  /** The POS is not configured: the report has no sales section. */
  noPos: boolean;
}

/**
 * The report of a day. `page_ids` are ids already resolved, by runTool for the tool and by
 * resolvePageIds for the prompt: every activated page when none were named.
 */
export async function dailyReport(args: { date: string; page_ids: readonly string[]; shop_id?: string | undefined }, base: ResourceContext): Promise<DailyReport> {
  const tz = base.config.timezone;
  const since = reportDay(args.date, tz);
  const until = new Date(startOfDay(since, tz, 1).getTime() - 1000);
  const day = toDateInZone(since, tz);
  const ctx: ToolContext = { ...base, progress: async () => {} };
  const range = { since: day, until: day };
  const inbox = await eachPage(ctx, args.page_ids, "daily report", async (pageId) => ({
    page_id: pageId,
    name: base.messaging.pageName(pageId),
    ...(await attempt(async () => ({
      conversations: (await run(getPageStats, { metric: "engagement", ...range }, [pageId], ctx)).totals,
      messages: (await run(getPageStats, { metric: "messages", ...range }, [pageId], ctx)).totals,
    }))),
  }));
  const staff = await attempt(async () => {
    const result = await run(getStaffStats, range, args.page_ids, ctx);
    return { totals: result.totals, top_staff: (result.staff as unknown[]).slice(0, STAFF_SHOWN) };
  });
  let sold: Awaited<ReturnType<typeof sales>> | { unavailable: string } | undefined;
  let noPos = false;
  try {
    sold = await sales(base, args.shop_id, since, until);
  } catch (error) {
    if (error instanceof ConfigError) noPos = true;
    else sold = { unavailable: failureText(error) };
  }
  return { data: { date: day, time_zone: tz, inbox, staff, sales: sold }, noPos };
}
