import { z } from "zod";
import { defineTool, READ } from "../define.js";
import { jsonish, pageIdInput } from "../inputs.js";
import { dateTimeRange, rangeInputs, rangeOut, rangeSchema, statsRange } from "./range.js";
import { counts, dayLabelDate, rowsSchema, sumRows, totalsSchema } from "./rows.js";

const MAX_DAYS = 92;
const HOURLY = ["inbox", "comment", "total", "new_customer", "new_customer_from_inbox"] as const;

export const getEngagementStats = defineTool({
  name: "get_engagement_stats",
  title: "Customer engagement statistics",
  description:
    "A page's inbox load: conversations customers wrote in, new and answered, per day or hour_of_day.",
  toolset: "page_stats",
  annotations: READ,
  input: z.object({
    page_id: pageIdInput,
    ...rangeInputs(MAX_DAYS),
    by: z
      .enum(["day", "hour_of_day"])
      .default("day")
      .describe("hour_of_day: 24 rows summed over the range"),
    user_ids: jsonish(z.array(z.string().max(64)).max(50))
      .optional()
      .describe("Only conversations assigned to these staff"),
  }),
  output: z.object({ range: rangeSchema, totals: totalsSchema, rows: rowsSchema, note: z.string().optional() }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const range = statsRange(input, tz, MAX_DAYS);
    const params = { date_range: dateTimeRange(range, tz), ...(input.user_ids?.length ? { user_ids: input.user_ids } : {}) };
    const head = { range: rangeOut(range, tz) };
    if (input.by === "hour_of_day") {
      const rows = (await ctx.messaging.getEngagementStatsByHour(input.page_id, params)).map((r) => ({
        hour: Number(r.hour),
        ...counts(r, HOURLY),
      }));
      return {
        ...head,
        totals: sumRows(rows, HOURLY),
        rows,
        note: "hour = hour of day (0-23) in the page's local time, summed over the range's days",
      };
    }
    const stats = await ctx.messaging.getEngagementStats(input.page_id, params);
    const series = (stats.series ?? []).filter((s) => s.name);
    const names = series.map((s) => s.name!);
    const rows = (stats.categories ?? []).map((label, i) => ({
      date: dayLabelDate(label, range.until, tz) ?? label,
      ...(Object.fromEntries(series.map((s) => [s.name!, s.data?.[i] ?? 0])) as Record<string, number>),
    }));
    // The series runs newest day first; rows read oldest first.
    rows.sort((a, b) => String(a.date).localeCompare(String(b.date)));
    return { ...head, totals: sumRows(rows, names), rows };
  },
});
