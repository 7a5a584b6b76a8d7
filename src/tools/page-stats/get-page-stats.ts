import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { defineTool, READ } from "../define.js";
import { pageIdInput } from "../inputs.js";
import { rangeInputs, rangeOut, rangeSchema, statsRange, unixSpan } from "./range.js";
import { counts, groupRows, hasActivity, rowHour, rowsSchema, sumRows, totalsSchema } from "./rows.js";

const MAX_DAYS = 31;
const MAX_HOURLY_DAYS = 7;
const FIELDS = [
  "customer_inbox_count",
  "customer_comment_count",
  "page_inbox_count",
  "page_comment_count",
  "new_inbox_count",
  "new_customer_count",
  "inbox_interactive_count",
  "phone_number_count",
  "uniq_phone_number_count",
  "today_uniq_website_referral",
  "today_website_guest_referral",
] as const;

export const getPageStats = defineTool({
  name: "get_page_stats",
  title: "Page activity statistics",
  description:
    "A page's message volume per day or hour: messages, new conversations and customers, phones.",
  toolset: "page_stats",
  annotations: READ,
  input: z.object({
    page_id: pageIdInput,
    ...rangeInputs(MAX_DAYS),
    by: z
      .enum(["day", "hour"])
      .default("day")
      .describe(`hour: ≤${MAX_HOURLY_DAYS} days, quiet hours omitted`),
  }),
  output: z.object({ range: rangeSchema, totals: totalsSchema, rows: rowsSchema, note: z.string() }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const range = statsRange(input, tz, MAX_DAYS);
    if (input.by === "hour" && range.until.getTime() - range.since.getTime() > MAX_HOURLY_DAYS * 86_400_000) {
      throw new InputError("by", `"hour" rows cover at most ${MAX_HOURLY_DAYS} days`, 'Narrow since..until, or use by:"day".');
    }
    const hours = (await ctx.messaging.getPageStats(input.page_id, unixSpan(range))).map((r) => {
      const hour = rowHour(r, tz) ?? "";
      return { hour, date: hour.slice(0, 10), ...counts(r, FIELDS) };
    });
    const rows =
      input.by === "hour"
        ? hours.filter((r) => hasActivity(r, FIELDS)).map(({ date: _date, ...r }) => r)
        : groupRows(hours, "date", FIELDS);
    return {
      range: rangeOut(range, tz),
      totals: sumRows(hours, FIELDS),
      rows,
      note: `dates and hours in ${tz}; page_* counts are messages sent by staff`,
    };
  },
});
