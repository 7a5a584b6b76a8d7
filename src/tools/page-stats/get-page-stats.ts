import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { numericFields } from "../../format/fields.js";
import { defineTool, READ } from "../define.js";
import { dateInput, jsonish } from "../inputs.js";
import { ascendingInput, rankRows, requireSorted, sortByInput } from "../rank.js";
import { resolveStaffIds } from "../inbox/page-lookups.js";
import { pagesLeftOut, pagesLeftOutSchema } from "../pages/coverage.js";
import { pageIdsInput } from "../pages/page-refs.js";
import { eachStatsPage, failedPagesSchema, statsPages } from "./fan-out.js";
import { BYS, checkHourly, METRIC_SPECS, METRICS, mergeTimeRows, readMetric, tagsAcrossPages, totalsOf } from "./page-metrics.js";
import { DEFAULT_DAYS, MAX_WINDOWED_DAYS, rangeOut, rangeSchema, statsRange, windows } from "./range.js";
import { type Row, rowsSchema, totalsSchema } from "./rows.js";

const KEY_OF = { day: "date", hour: "hour", hour_of_day: "hour_of_day" } as const;

export const getPageStats = defineTool({
  name: "get_page_stats",
  title: "Page statistics",
  description:
    "Inbox statistics, summed over pages with a total per page. metric: messages (from customers, from staff, new conversations/customers, phones), engagement (conversations customers wrote in, new, answered), new_customers (people new to a page, not conversations), tags (net uses per tag). E.g. day with most customer inbox messages: sort_by \"customer_inbox_count\", limit 1.",
  toolset: "page_stats",
  annotations: READ,
  input: z.object({
    metric: z.enum(METRICS).default("messages").describe("What to count"),
    page_ids: pageIdsInput,
    since: dateInput.optional().describe(`From date; default last ${DEFAULT_DAYS} days`),
    until: dateInput.optional().describe("To date, inclusive; span ≤1 year"),
    by: z.enum(BYS).default("day").describe("Rows per day, hour (≤7 days), hour_of_day (engagement) or page"),
    user_ids: jsonish(z.array(z.string().max(100)).max(50)).optional().describe("engagement: only conversations assigned to these staff (ids or names)"),
    sort_by: sortByInput.describe("A row figure, largest first"),
    ascending: ascendingInput,
    limit: z.number().int().min(1).max(500).default(100).describe("Max rows"),
  }),
  output: z.object({
    metric: z.string(),
    range: rangeSchema,
    totals: totalsSchema.optional(),
    pages: z.array(z.looseObject({ page_id: z.string(), name: z.string().optional() })).optional(),
    rows: rowsSchema,
    total_rows: z.number().optional(),
    truncated: z.boolean().optional(),
    tied_past_limit: z.number().optional().describe("Rows left out that equal the last row shown: raise limit to see the tie"),
    failed_pages: failedPagesSchema,
    pages_left_out: pagesLeftOutSchema,
    note: z.string(),
  }),
  async handler(input, ctx) {
    const spec = METRIC_SPECS[input.metric];
    const by = input.metric === "tags" ? "day" : input.by;
    if (!spec.bys.includes(by)) {
      throw new InputError("by", `metric ${input.metric} has no ${JSON.stringify(by)} rows`, `Use by: ${spec.bys.join(", ")}.`);
    }
    if (input.user_ids?.length && input.metric !== "engagement") {
      throw new InputError("user_ids", "filters only metric engagement", 'Drop user_ids, or use metric "engagement".');
    }
    const tz = ctx.config.timezone;
    const asked = statsRange(input, tz, MAX_WINDOWED_DAYS);
    const range = spec.covers ? spec.covers(asked, tz) : asked;
    checkHourly(by, range);
    const pages = statsPages(ctx, input.page_ids);
    // Staff by name as assign_conversation takes them; someone who has left still has a past.
    const userIds = input.user_ids?.length
      ? (await resolveStaffIds(ctx.messaging, pages.ids, "user_ids", input.user_ids, { formerToo: true })).map((u) => String(u.id))
      : undefined;
    const { results, failed } = await eachStatsPage(ctx, pages, `${input.metric} statistics`, (pageId) =>
      readMetric(spec, ctx, pageId, { range, by, timeZone: tz, userIds }),
    );
    const parts = windows(range, tz, spec.maxDays).length;
    const several = results.length > 1;
    const skip = spec.perRowOnly?.(by) ?? [];
    const perPage = results.map(({ pageId, value }) => ({ page_id: pageId, name: pages.name(pageId), ...totalsOf(value, skip) }));
    let rows: Row[];
    if (input.metric === "tags") rows = several ? tagsAcrossPages(results, pages.name) : (results[0]?.value ?? []);
    else if (by === "page") rows = perPage;
    else rows = mergeTimeRows(results.map((r) => r.value), KEY_OF[by]);
    const tagsRanked = input.metric === "tags" && input.sort_by === undefined;
    if (input.ascending !== undefined) requireSorted(tagsRanked || input.sort_by !== undefined);
    const uses = (row: Row) => Math.abs(Number(row.net));
    if (tagsRanked) rows.sort((a, b) => (input.ascending ? uses(a) - uses(b) : uses(b) - uses(a)));
    const ranked = rankRows(rows, { sortBy: input.sort_by, valid: numericFields(rows), limit: input.limit, ascending: input.ascending, orderedBy: tagsRanked ? uses : undefined });
    return {
      metric: input.metric,
      range: rangeOut(range, tz),
      totals: input.metric === "tags" ? undefined : totalsOf(results.flatMap((r) => r.value), skip),
      pages: several && by !== "page" && input.metric !== "tags" ? perPage : undefined,
      rows: ranked.rows,
      total_rows: ranked.truncated ? ranked.total : undefined,
      truncated: ranked.truncated,
      tied_past_limit: ranked.tied,
      failed_pages: failed.length ? failed : undefined,
      pages_left_out: await pagesLeftOut(ctx, pages.ids),
      note: [
        spec.note(tz, by),
        input.metric === "tags" && several ? "one row per tag name, added up over the pages; pages gives each page's tag_id and net" : "",
        parts > 1 ? `read in ${parts} windows of at most ${spec.maxDays} days (the most one call takes) and added up` : "",
        failed.length ? "failed_pages are not counted" : "",
      ]
        .filter(Boolean)
        .join("; "),
    };
  },
});
