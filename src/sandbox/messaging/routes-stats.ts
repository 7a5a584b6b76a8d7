import { reply, type Router, type SandboxRequest } from "../server.js";
import { badParams, listParam, onPage, type RouteContext, required, requireUser, timeRange, userPage } from "./guards.js";
import { engagementByDay, engagementByHour, newCustomerStats, pageHours, tagStats } from "./stats.js";
import { staffStats } from "./stats-staff.js";
import { adStats, campaignStats } from "./stats-ads.js";
import { DAY_MS, parseLocalRange, type Range } from "./time.js";
import type { PageRecord } from "./types.js";

/** Not a documented limit: it only keeps a careless range from building millions of rows. */
const MAX_STATS_SPAN_MS = 366 * DAY_MS;

function bounded(range: Range | undefined): Range {
  if (!range) throw badParams("invalid time range");
  if (range.to - range.from > MAX_STATS_SPAN_MS) throw badParams("the time range must not exceed one year");
  return range;
}

function dateRange(req: SandboxRequest, withTime: boolean): Range {
  const text = required(req, "date_range");
  const range = parseLocalRange(text, withTime);
  if (!range) {
    throw badParams(`date_range must look like ${withTime ? "DD/MM/YYYY HH:MM:SS - DD/MM/YYYY HH:MM:SS" : "DD/MM/YYYY - DD/MM/YYYY"}`);
  }
  return bounded(range);
}

export function registerStatsRoutes(router: Router, ctx: RouteContext, prefix: string): void {
  const { state } = ctx;
  const base = `${prefix}/public_api/v1/pages/:page_id/statistics`;
  const on = (suffix: string, handler: (req: SandboxRequest, page: PageRecord) => unknown) =>
    onPage(router, ctx, "GET", `${base}/${suffix}`, handler);

  on("customer_engagements", (req, page) => {
    const range = dateRange(req, true);
    const userIds = listParam(req, "user_ids");
    return req.query.get("by_hour") === "true"
      ? { statistics: engagementByHour(state, page.id, range, userIds), success: true }
      : { data: engagementByDay(state, page.id, range, userIds), success: true };
  });

  on("pages", (req, page) => ({ data: pageHours(state, page.id, bounded(timeRange(req))), success: true }));

  on("tags", (req, page) => ({ ...tagStats(state, page.id, bounded(timeRange(req)), ctx.clock()), success: true }));

  on("users", (req, page) => ({ data: staffStats(state, [page.id], dateRange(req, true), false), success: true }));

  // The spec names it `customers`; the vendor's OpenAPI `page_customers`.
  const customers = (req: SandboxRequest, page: PageRecord) => {
    const range = dateRange(req, false);
    const groupBy = req.query.get("group_by") ?? "day";
    if (groupBy === "page_id") return { data: { [page.id]: newCustomerStats(state, page.id, range, false) }, success: true };
    if (groupBy !== "day" && groupBy !== "hour") throw badParams("group_by must be day, hour or page_id");
    return { data: newCustomerStats(state, page.id, range, groupBy === "hour"), success: true };
  };
  on("customers", customers);
  on("page_customers", customers);

  const adsAllowed = (page: PageRecord) => {
    if (page.id === state.adsDeniedPageId) {
      throw reply(403, {
        success: false,
        message: "The account has no permission to view ad reports of this page, or the page is not selected in the ad account",
      });
    }
  };
  on("pages_campaigns", (req, page) => {
    adsAllowed(page);
    return campaignStats(state, page.id, bounded(timeRange(req)));
  });
  on("ads", (req, page) => {
    adsAllowed(page);
    const type = required(req, "type");
    if (type !== "by_id" && type !== "by_time") throw badParams("type must be by_id or by_time");
    return adStats(state, page.id, bounded(timeRange(req)), type);
  });

  router.on("GET", `${prefix}/v1/statistics/user`, (req) => {
    requireUser(ctx, req);
    const ids = listParam(req, "page_ids");
    if (ids.length === 0) throw badParams("page_ids is required");
    for (const id of ids) userPage(ctx, req, id);
    return { data: staffStats(state, ids, dateRange(req, true), true), success: true };
  });
}
