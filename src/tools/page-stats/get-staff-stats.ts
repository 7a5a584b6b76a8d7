import { z } from "zod";
import type { StaffStats } from "../../clients/schemas/messaging.js";
import { num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, READ } from "../define.js";
import { ascendingInput, rankRows, sortByInput } from "../rank.js";
import { pagesLeftOut, pagesLeftOutSchema } from "../pages/coverage.js";
import { pageIdsInput } from "../pages/page-refs.js";
import { cachedUsers } from "../inbox/page-lookups.js";
import { eachPage, eachStatsPage, failedPagesSchema, type PageFailure, statsPages } from "./fan-out.js";
import { dateTimeRange, rangeInputs, rangeOut, rangeSchema, statsRange } from "./range.js";
import { counts, type Row, sumRows, totalsSchema } from "./rows.js";

const MAX_DAYS = 31;
const FIELDS = [
  "inbox_count",
  "comment_count",
  "unique_inbox_count",
  "unique_comment_count",
  "private_reply_count",
  "phone_number_count",
  "order_count",
] as const;

/** What the inbox counts as a staff member's order (its own definition, not the POS's orders). */
const ORDER_COUNT =
  'order_count = times the staff member put the "Đã chốt đơn" (order closed) tag on a conversation, as the inbox counts orders; not POS orders (search_orders has those)';

interface Named extends Row {
  user_id: string;
  name?: string | undefined;
  avg_response_seconds: number;
}

/** Per-staff totals of one answer; order_count only where the upstream sends it. */
function staffOf(stats: StaffStats, withOrders: boolean): Named[] {
  return Object.entries(stats.users ?? {}).map(([userId, u]) => {
    const row = counts(u, FIELDS);
    if (!withOrders) delete row.order_count;
    return { user_id: userId, name: sanitizeName(u.user_name), ...row, avg_response_seconds: counts(u, ["average_response_time"]).average_response_time! };
  });
}

const answered = (r: Row) => (num(r.inbox_count) ?? 0) + (num(r.comment_count) ?? 0);
const handled = (r: Row) => (num(r.unique_inbox_count) ?? 0) + (num(r.unique_comment_count) ?? 0);

/**
 * Per-staff totals over several single-page answers. Counts add up (a conversation belongs to
 * one page); the response-time mean is weighted by messages answered, the closest the
 * per-page answers allow.
 */
function mergeStaff(pages: Named[][]): Named[] {
  const byUser = new Map<string, Named[]>();
  for (const row of pages.flat()) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  return [...byUser].map(([userId, rows]) => {
    const weight = rows.reduce((t, r) => t + answered(r), 0);
    const mean = weight
      ? rows.reduce((t, r) => t + r.avg_response_seconds * answered(r), 0) / weight
      : rows.reduce((t, r) => t + r.avg_response_seconds, 0) / rows.length;
    const present = FIELDS.filter((f) => rows.some((r) => f in r));
    return { user_id: userId, name: rows.find((r) => r.name)?.name, ...sumRows(rows, present), avg_response_seconds: Math.round(mean) };
  });
}

export const getStaffStats = defineTool({
  name: "get_staff_stats",
  title: "Staff statistics",
  description:
    "Work per staff member: messages sent, conversations handled, phones, response time, order tags added; by sort_by (avg_response_seconds: fastest first).",
  toolset: "page_stats",
  annotations: READ,
  input: z.object({
    page_ids: pageIdsInput,
    ...rangeInputs(MAX_DAYS),
    sort_by: sortByInput.default("messages").describe("messages, conversations, or a staff figure"),
    ascending: ascendingInput,
    limit: z.number().int().min(1).max(200).default(50).describe("Max staff"),
  }),
  output: z.object({
    page_ids: z.array(z.string()),
    range: rangeSchema,
    totals: totalsSchema,
    staff: z.array(z.looseObject({ user_id: z.string(), name: z.string().optional(), avg_response_seconds: z.number() })),
    total_staff: z.number().optional(),
    truncated: z.boolean().optional(),
    tied_past_limit: z.number().optional().describe("Rows left out that equal the last row shown: raise limit to see the tie"),
    failed_pages: failedPagesSchema,
    pages_left_out: pagesLeftOutSchema,
    note: z.string().optional(),
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const range = statsRange(input, tz, MAX_DAYS);
    const pages = statsPages(ctx, input.page_ids);
    const pageIds = pages.ids;
    const date_range = dateTimeRange(range, tz);
    // The user-token endpoint serves any number of pages and adds order_count.
    const withUser = ctx.messaging.hasUserToken;
    let staff: Named[];
    let failed: PageFailure[] = [];
    if (withUser) {
      staff = staffOf(await ctx.messaging.getMultiPageStaffStats({ page_ids: pageIds, date_range }), true);
    } else {
      const perPage = await eachStatsPage(ctx, pages, "staff statistics", async (pageId) =>
        staffOf(await ctx.messaging.getStaffStats(pageId, { date_range }), false),
      );
      failed = perPage.failed;
      staff = mergeStaff(perPage.results.map((r) => r.value));
    }
    if (staff.some((s) => !s.name)) {
      // The pages' staff lists, read at once and cached (page-lookups.ts), former staff included.
      const names = new Map<string, string | undefined>();
      const lists = await eachPage(ctx, pageIds, "staff names", (pageId) => cachedUsers(ctx.messaging, pageId));
      for (const { active, disabled } of lists) for (const u of [...active, ...disabled]) names.set(String(u.id), sanitizeName(u.name));
      for (const s of staff) s.name ??= names.get(s.user_id);
    }
    staff.sort((a, b) => a.user_id.localeCompare(b.user_id));
    const fields = FIELDS.filter((f) => staff.some((s) => f in s));
    const ranked = rankRows(
      staff.map((s) => ({ ...s, messages: answered(s), conversations: handled(s) })),
      { sortBy: input.sort_by, valid: ["messages", "conversations", ...fields, "avg_response_seconds"], limit: input.limit, ascending: input.ascending ?? input.sort_by === "avg_response_seconds", unranked: (s) => s.messages === 0 },
    );
    return {
      page_ids: pageIds,
      range: rangeOut(range, tz),
      totals: sumRows(staff, fields),
      staff: ranked.rows,
      total_staff: ranked.truncated ? ranked.total : undefined,
      truncated: ranked.truncated,
      tied_past_limit: ranked.tied,
      failed_pages: failed.length ? failed : undefined,
      pages_left_out: await pagesLeftOut(ctx, pageIds),
      note: withUser
        ? ORDER_COUNT
        : `${pageIds.length > 1 ? "summed page by page: avg_response_seconds weighted by messages answered; " : ""}order_count needs PANCAKE_ACCESS_TOKEN`,
    };
  },
});
