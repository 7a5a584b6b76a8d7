import { InputError } from "../../clients/errors.js";
import type { NewCustomerRow } from "../../clients/schemas/messaging.js";
import type { DateRange } from "../../format/time.js";
import { numericFields } from "../../format/fields.js";
import { fold } from "../../text/fold.js";
import { sanitizeName } from "../../text/sanitize.js";
import type { ToolContext } from "../define.js";
import { cachedTags } from "../inbox/page-lookups.js";
import { dateTimeRange, dayRange, unixSpan, wholeDays, windows } from "./range.js";
import { counts, dayLabelDate, groupRows, hasActivity, type Row, rowHour, sumRows } from "./rows.js";

/**
 * The page statistics behind get_page_stats, one per `metric`. Each reads one page and gives
 * rows keyed the way the caller asked (`date`, `hour`, `hour_of_day`), so pages can be summed
 * row by row; `tags` gives one row per tag instead.
 */

export const METRICS = ["messages", "engagement", "new_customers", "tags"] as const;
export type Metric = (typeof METRICS)[number];
export const BYS = ["day", "hour", "hour_of_day", "page"] as const;
export type By = (typeof BYS)[number];

export interface MetricQuery {
  range: DateRange;
  by: By;
  timeZone: string;
  userIds?: string[] | undefined;
}

export interface MetricSpec {
  /** Longest span the endpoint takes in one call; a longer range is read window by window. */
  maxDays: number;
  /** The `by` values it can give, the first being its own default. */
  bys: readonly By[];
  /** One window of at most maxDays, rows keyed for the `by` (day rows carry `date`). */
  read(ctx: Pick<ToolContext, "messaging">, pageId: string, q: MetricQuery): Promise<Row[]>;
  /**
   * The rows of consecutive windows as one answer. Default: one after the other, which is right
   * for rows per day or hour (mergeTimeRows sums rows that share a key).
   */
  combine?(perWindow: Row[][]): Row[];
  /** The range it really covers (day-granular endpoints: whole days). */
  covers?(range: DateRange, timeZone: string): DateRange;
  /** Counts of distinct conversations per row that do not add up across rows: left out of the totals. */
  perRowOnly?(by: By): readonly string[];
  note(timeZone: string, by: By): string;
}

const MAX_HOURLY_DAYS = 7;

const PAGE_FIELDS = [
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

/**
 * What new_customer_count counts: people, not conversations. The OpenAPI's statistics/page_customers
 * calls it "Number of new customers" beside new_page_inbox_count, "Number of new inbox
 * conversations"; a customer is a page customer (the page_customers list: one per person, created at
 * their first message or comment), as the sandbox counts it (src/sandbox/messaging/stats.ts). Read
 * as new conversations it named the wrong page, so every note says it. The list of those people
 * (list_page_customers) is not named: a default session over HTTP cannot reach it.
 */
const NEW_CUSTOMERS_ARE_PEOPLE =
  'new_customer_count = people new to the page (first message or comment), not new conversations (list_conversations time_field "created" with group_by counts those)';

const HOURLY_ENGAGEMENT = ["inbox", "comment", "total", "new_customer", "new_customer_from_inbox"] as const;
/**
 * The engagement endpoint names the same figures differently per day and per hour: one name each
 * here, so rows, totals and sort_by read the same whatever `by` is. Other series pass as they come.
 */
const ENGAGEMENT_NAMES: Record<string, string> = {
  customer_engagement_new_inbox: "new_inbox",
  new_customer_from_inbox: "new_inbox",
  new_customer_replied: "new_customers_answered",
  new_customer: "new_customers",
};
const engagementName = (name: string) => ENGAGEMENT_NAMES[name] ?? name;
const DISTINCT_ENGAGEMENT = ["inbox", "comment", "total"] as const;
const NEW_CUSTOMER_FIELDS = ["new_customer_count", "new_page_inbox_count", "phone_number_count", "new_phone_number_count"] as const;

const tagKey = (id: unknown) => String(id ?? "").replace(/^tag_/, "");

/** Hour rows of at most a week: a longer span gives more rows than anyone reads. Checked before any call. */
export function checkHourly(by: By, range: DateRange): void {
  if (by === "hour" && range.until.getTime() - range.since.getTime() >= MAX_HOURLY_DAYS * 86_400_000 + 1000) {
    throw new InputError("by", `"hour" rows cover at most ${MAX_HOURLY_DAYS} days`, 'Narrow since..until, or use by "day".');
  }
}

const messages: MetricSpec = {
  maxDays: 31,
  bys: ["day", "hour", "page"],
  async read(ctx, pageId, { range, by, timeZone }) {
    const hours = (await ctx.messaging.getPageStats(pageId, unixSpan(range))).map((r) => {
      const hour = rowHour(r, timeZone) ?? "";
      return { hour, date: hour.slice(0, 10), ...counts(r, PAGE_FIELDS) };
    });
    if (by === "hour") return hours.filter((r) => hasActivity(r, PAGE_FIELDS)).map(({ date: _date, ...r }) => r);
    return groupRows(hours, "date", PAGE_FIELDS);
  },
  note: (tz) =>
    `dates and hours in ${tz}; customer_* are messages from customers, page_* messages sent by staff; new_inbox_count = inbox conversations begun; ${NEW_CUSTOMERS_ARE_PEOPLE}; inbox_interactive_count = older inbox conversations (begun before that hour) in which the customer wrote again, counted per hour and added up over the hours`,
};

const engagement: MetricSpec = {
  maxDays: 92,
  bys: ["day", "hour_of_day", "page"],
  async read(ctx, pageId, { range, by, timeZone, userIds }) {
    const params = { date_range: dateTimeRange(range, timeZone), ...(userIds?.length ? { user_ids: userIds } : {}) };
    if (by === "hour_of_day") {
      return (await ctx.messaging.getEngagementStatsByHour(pageId, params)).map((r) => ({
        hour_of_day: Number(r.hour),
        ...Object.fromEntries(Object.entries(counts(r, HOURLY_ENGAGEMENT)).map(([k, v]) => [engagementName(k), v])),
      }));
    }
    const stats = await ctx.messaging.getEngagementStats(pageId, params);
    const series = (stats.series ?? []).filter((s) => s.name);
    return (stats.categories ?? []).map((label, i) => ({
      date: dayLabelDate(label, range.until, timeZone) ?? label,
      ...(Object.fromEntries(series.map((s) => [engagementName(s.name!), s.data?.[i] ?? 0])) as Record<string, number>),
    }));
  },
  // An hour row counts a conversation in every hour it was active that day: hours do not add up.
  perRowOnly: (by) => (by === "hour_of_day" ? DISTINCT_ENGAGEMENT : []),
  note: (_tz, by) =>
    by === "hour_of_day"
      ? "per hour of day (0-23, the page's local time) over the days: inbox/comment/total = conversations customers wrote in during that hour, each day's counted apart, so they are not totalled (a conversation active in 3 hours counts 3 times; by day gives daily counts); new_customers = new conversations, new_inbox = new inbox conversations"
      : "inbox/comment/total = conversations customers wrote in that day (totals add the days: a conversation active on 3 days counts 3 times); new_inbox = new inbox conversations; new_customers_answered = new customers the page answered the same day",
};

const newCustomers: MetricSpec = {
  maxDays: 92,
  bys: ["day", "hour", "page"],
  covers: wholeDays,
  async read(ctx, pageId, { range, by, timeZone }) {
    const data = await ctx.messaging.getNewCustomerStats(pageId, { date_range: dayRange(range, timeZone), group_by: by === "hour" ? "hour" : "day" });
    const rows: NewCustomerRow[] = Array.isArray(data) ? data : (data[pageId] ?? Object.values(data).flat());
    const shaped = rows.map((r) => ({ [by === "hour" ? "hour" : "date"]: r.date ?? "", ...counts(r, NEW_CUSTOMER_FIELDS) }));
    return by === "hour" ? shaped.filter((r) => hasActivity(r, NEW_CUSTOMER_FIELDS)) : shaped;
  },
  note: () =>
    `whole days in the page's local time; ${NEW_CUSTOMERS_ARE_PEOPLE}; new_page_inbox_count = inbox conversations begun; new_phone_number_count = phones seen for the first time`,
};

const sumOf = (values: readonly (number | null)[] | undefined) => (values ?? []).reduce<number>((t, v) => t + (v ?? 0), 0);

const tags: MetricSpec = {
  maxDays: 92,
  bys: ["day"],
  async read(ctx, pageId, { range }) {
    const stats = await ctx.messaging.getTagStats(pageId, unixSpan(range));
    const known = new Map((stats.tags ?? []).map((t) => [tagKey(t.id), t]));
    const series = stats.data?.series ?? {};
    if (Object.keys(series).some((key) => !known.get(tagKey(key))?.text)) {
      for (const t of await cachedTags(ctx.messaging, pageId)) known.set(tagKey(t.id), t);
    }
    const days = stats.data?.categories ?? [];
    const today = stats.data_today?.series ?? {};
    return Object.entries(series).map(([key, values]) => ({
      tag_id: tagKey(key),
      name: sanitizeName(known.get(tagKey(key))?.text),
      net: sumOf(values),
      today: sumOf(today[key]),
      days: days.map((date, i) => ({ date, net: values[i] ?? 0 })).filter((d) => d.net !== 0),
    }));
  },
  combine(perWindow) {
    const byTag = new Map<string, Row>();
    for (const row of perWindow.flat()) {
      const seen = byTag.get(String(row.tag_id));
      if (!seen) byTag.set(String(row.tag_id), { ...row });
      // `today` is the current day whatever the range: every window gives the same.
      else Object.assign(seen, { net: Number(seen.net) + Number(row.net), days: [...(seen.days as Row[]), ...(row.days as Row[])] });
    }
    return [...byTag.values()];
  },
  note: () =>
    "net = times the tag was attached minus times removed (the service reports only the net per day, not attaches and removals apart); days lists days with a change; today = the current day",
};

export const METRIC_SPECS: Record<Metric, MetricSpec> = { messages, engagement, new_customers: newCustomers, tags };

/**
 * A metric over the whole range of one page: the range in windows the endpoint takes (statistics
 * are per day or hour, so windows add up exactly), read at once; the page's rate limit paces them.
 */
export async function readMetric(spec: MetricSpec, ctx: Pick<ToolContext, "messaging">, pageId: string, q: MetricQuery): Promise<Row[]> {
  const parts = windows(q.range, q.timeZone, spec.maxDays);
  const perWindow = await Promise.all(parts.map((range) => spec.read(ctx, pageId, { ...q, range })));
  return spec.combine ? spec.combine(perWindow) : perWindow.flat();
}

/**
 * Tag rows of several pages as one row per tag name (each page numbers its own tags, so the same
 * tag has another id on each page): nets and days added up, each page's id and net kept beside.
 */
export function tagsAcrossPages(perPage: readonly { pageId: string; value: Row[] }[], pageName: (pageId: string) => string | undefined): Row[] {
  const byName = new Map<string, { name: unknown; net: number; today: number; days: Map<string, number>; pages: Row[] }>();
  for (const { pageId, value } of perPage) {
    for (const r of value) {
      const key = fold(String(r.name ?? `#${r.tag_id}`));
      const tag = byName.get(key) ?? { name: r.name, net: 0, today: 0, days: new Map<string, number>(), pages: [] };
      byName.set(key, tag);
      tag.net += Number(r.net);
      tag.today += Number(r.today);
      for (const d of r.days as { date: string; net: number }[]) tag.days.set(d.date, (tag.days.get(d.date) ?? 0) + d.net);
      tag.pages.push({ page_id: pageId, page_name: pageName(pageId), tag_id: r.tag_id, net: r.net });
    }
  }
  return [...byName.values()].map(({ days, ...tag }) => ({
    ...tag,
    days: [...days]
      .filter(([, net]) => net !== 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, net]) => ({ date, net })),
  }));
}

/** The count fields of time rows (everything numeric but the keys). */
export const countFields = (rows: readonly Row[]): string[] => numericFields(rows, ["hour_of_day"]);

/** Time rows of several pages summed row by row, in time order. */
export function mergeTimeRows(perPage: readonly Row[][], key: string): Row[] {
  const all = perPage.flat();
  const merged = groupRows(all, key, countFields(all));
  return merged
    .map((r) => (key === "hour_of_day" ? { ...r, hour_of_day: Number(r.hour_of_day) } : r))
    .sort((a, b) => (key === "hour_of_day" ? Number(a[key]) - Number(b[key]) : String(a[key]).localeCompare(String(b[key]))));
}

/** Sums of the count fields, but for `skip` (counts that do not add up across rows). */
export const totalsOf = (rows: readonly Row[], skip: readonly string[] = []) =>
  sumRows(
    rows,
    countFields(rows).filter((f) => !skip.includes(f)),
  );
