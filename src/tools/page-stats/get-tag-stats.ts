import { z } from "zod";
import { sanitizeName } from "../../format/text.js";
import { defineTool, READ } from "../define.js";
import { pageIdInput } from "../inputs.js";
import { rangeInputs, rangeOut, rangeSchema, statsRange, unixSpan } from "./range.js";

const MAX_DAYS = 92;

const tagKey = (id: unknown) => String(id ?? "").replace(/^tag_/, "");
const sum = (values: readonly (number | null)[] | undefined) => (values ?? []).reduce<number>((t, v) => t + (v ?? 0), 0);

export const getTagStats = defineTool({
  name: "get_tag_stats",
  title: "Tag statistics",
  description:
    "Net uses (added minus removed) of a page's conversation tags per day.",
  toolset: "page_stats",
  annotations: READ,
  input: z.object({ page_id: pageIdInput, ...rangeInputs(MAX_DAYS) }),
  output: z.object({
    range: rangeSchema,
    tags: z.array(
      z.looseObject({ tag_id: z.string(), name: z.string().optional(), color: z.string().optional(), total: z.number(), today: z.number() }),
    ),
    note: z.string(),
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const range = statsRange(input, tz, MAX_DAYS);
    const stats = await ctx.messaging.getTagStats(input.page_id, unixSpan(range));
    const known = new Map((stats.tags ?? []).map((t) => [tagKey(t.id), t]));
    const series = stats.data?.series ?? {};
    const ids = Object.keys(series).map(tagKey);
    if (ids.some((id) => !known.get(id)?.text)) {
      for (const t of await ctx.messaging.listTags(input.page_id)) known.set(tagKey(t.id), t);
    }
    const days = stats.data?.categories ?? [];
    const today = stats.data_today?.series ?? {};
    const tags = Object.entries(series).map(([key, values]) => {
      const tag = known.get(tagKey(key));
      return {
        tag_id: tagKey(key),
        name: sanitizeName(tag?.text),
        color: tag?.color ?? undefined,
        total: sum(values),
        today: sum(today[key]),
        days: days.map((date, i) => ({ date, net: values[i] ?? 0 })).filter((d) => d.net !== 0),
      };
    });
    tags.sort((a, b) => Math.abs(b.total) - Math.abs(a.total) || (a.name ?? "").localeCompare(b.name ?? ""));
    return {
      range: rangeOut(range, tz),
      tags,
      note: "net = times added minus times removed; days lists only days with a change; today = the current day",
    };
  },
});
