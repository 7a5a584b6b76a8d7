import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { NewCustomerRow } from "../../clients/schemas/messaging.js";
import { defineTool, READ } from "../define.js";
import { eachPage, pageIdsInput } from "./fan-out.js";
import { dayRange, rangeInputs, rangeOut, rangeSchema, statsRange, wholeDays } from "./range.js";
import { counts, groupRows, type Row, hasActivity, rowsSchema, sumRows, totalsSchema } from "./rows.js";

const MAX_DAYS = 92;
const MAX_HOURLY_DAYS = 7;
const FIELDS = ["new_customer_count", "new_page_inbox_count", "phone_number_count", "new_phone_number_count"] as const;

const rowsOf = (rows: NewCustomerRow[]) => rows.map((r) => ({ date: r.date ?? "", ...counts(r, FIELDS) }));

export const getNewCustomerStats = defineTool({
  name: "get_new_customer_stats",
  title: "New customer statistics",
  description:
    "New customers, inbox conversations and phones of pages per day, hour or page.",
  toolset: "page_stats",
  annotations: READ,
  input: z.object({
    page_ids: pageIdsInput,
    ...rangeInputs(MAX_DAYS),
    group_by: z
      .enum(["day", "hour", "page_id"])
      .default("day")
      .describe(`hour: ≤${MAX_HOURLY_DAYS} days, quiet hours omitted`),
  }),
  output: z.object({ range: rangeSchema, totals: totalsSchema, rows: rowsSchema, note: z.string() }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const range = wholeDays(statsRange(input, tz, MAX_DAYS), tz);
    if (input.group_by === "hour" && range.until.getTime() - range.since.getTime() >= MAX_HOURLY_DAYS * 86_400_000) {
      throw new InputError("group_by", `"hour" rows cover at most ${MAX_HOURLY_DAYS} days`, 'Narrow since..until, or use group_by:"day".');
    }
    const pageIds = [...new Set(input.page_ids)];
    const params = { date_range: dayRange(range, tz), group_by: input.group_by };
    const perPage = await eachPage(ctx, pageIds, "new customer statistics", async (pageId) => {
      const data = await ctx.messaging.getNewCustomerStats(pageId, params);
      return rowsOf(Array.isArray(data) ? data : (data[pageId] ?? Object.values(data).flat()));
    });
    let rows: Row[];
    if (input.group_by === "page_id") rows = pageIds.map((pageId, i) => ({ page_id: pageId, ...sumRows(perPage[i]!, FIELDS) }));
    else {
      rows = groupRows(perPage.flat(), "date", FIELDS).sort((a, b) => String(a.date).localeCompare(String(b.date)));
      if (input.group_by === "hour") rows = rows.filter((r) => hasActivity(r, FIELDS));
    }
    return {
      range: rangeOut(range, tz),
      totals: sumRows(perPage.flat(), FIELDS),
      rows,
      note: "date/hour are the page's local time; new_phone_number_count = phones seen for the first time",
    };
  },
});
