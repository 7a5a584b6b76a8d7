import { z } from "zod";
import { InputError, PancakeError } from "../../clients/errors.js";
import type { Conversation } from "../../clients/schemas/messaging.js";
import { type ConversationRow, conversationRow, fullRecord, sideOf } from "../../format/conversations.js";
import { parseRange, recordTime, toIsoInZone, toUnix } from "../../format/time.js";
import type { ToolContext } from "../define.js";
import { eachPage } from "../page-stats/fan-out.js";
import { type PageScan, SCAN_CALLS, SCAN_MS, scanPage } from "./conversation-scan.js";
import { customerMatcher } from "./customer-match.js";
import type { ListConversationsInput } from "./list-conversations.js";
import { resolveTagIds, tagNames } from "./page-lookups.js";

/**
 * list_conversations over several pages, or with a filter the upstream does not have (customer,
 * awaiting_reply): every page is scanned at once (conversation-scan.ts), the matches merged
 * newest activity first, and each page says how many matched and how far back it was read.
 */

export const searchedPageSchema = z.object({
  page_id: z.string(),
  page_name: z.string().optional(),
  matched: z.number(),
  searched_back_to: z.string().optional(),
  complete: z.boolean(),
  error: z.string().optional(),
});

/** Awaiting a reply without since/until: recent days only (older ones can rarely be messaged, and would bury today's). */
const AWAITING_DAYS = 7;
/** Inbox messages can be sent only within this long of the customer's last message (the platform's window). */
const MESSAGING_WINDOW_MS = 24 * 3_600_000;

/** Options only the one-page list has. */
const ONE_PAGE_ONLY = ["with_total", "order_by", "unread_first"] as const;

const ms = (value: unknown) => {
  const iso = recordTime(value, "UTC");
  return iso === undefined ? undefined : Date.parse(iso);
};

/** When the customer's unanswered message came: their last interaction, else the last activity. */
const waitingSince = (c: Conversation) => ms(c.last_customer_interactive_at) ?? ms(c.updated_at);

interface PageResult {
  pageId: string;
  scan?: PageScan;
  tags?: ReadonlyMap<string, string>;
  error?: PancakeError;
}

export async function searchConversations(input: ListConversationsInput, ctx: ToolContext) {
  const awaiting = input.awaiting_reply === true || input.waiting_minutes !== undefined;
  const filtering = awaiting || input.customer !== undefined;
  const why = filtering ? "with customer/awaiting_reply" : "over several pages";
  for (const key of ONE_PAGE_ONLY) {
    if (input[key] !== undefined) throw new InputError(key, `does not apply ${why}`, "Drop it, or list one page (page_ids with one page) without customer/awaiting_reply.");
  }
  if (input.tags?.some((t) => String(t).toUpperCase() === "ALL")) {
    throw new InputError("tags", `["ALL"] does not apply ${why}`, "Name the tags, or list one page.");
  }
  const tz = ctx.config.timezone;
  const now = Date.now();
  const ranged = input.since !== undefined || input.until !== undefined;
  const range = ranged || awaiting ? parseRange(input.since, input.until, tz, { defaultDays: AWAITING_DAYS }) : undefined;
  const span = range ? { since: toUnix(range.since), until: toUnix(range.until) } : {};
  const named = input.customer === undefined ? undefined : await customerMatcher(ctx, input.customer);
  const keep = matcher(input, awaiting, now, named?.test);
  const deadline = now + SCAN_MS;

  const results = await eachPage(ctx, input.page_ids, "conversations", async (pageId): Promise<PageResult> => {
    try {
      const tags = input.tags?.length ? (await resolveTagIds(ctx.messaging, pageId, "tags", input.tags)).join(",") : undefined;
      const query = { ...span, tags, type: input.type };
      const scan = await scanPage(ctx.messaging, pageId, query, (c) => keep(c, pageId), { enough: filtering ? undefined : input.limit, deadline });
      return { pageId, scan, tags: await tagNames(ctx.messaging, pageId) };
    } catch (error) {
      // A page the upstream refuses is reported with it; a fault of ours fails the call.
      if (error instanceof PancakeError) return { pageId, error };
      throw error;
    }
  });
  const failed = results.filter((r) => r.error !== undefined);
  // One page failing is reported with it; every page failing is the call failing.
  if (failed.length === results.length && failed[0]) throw failed[0].error;

  const several = input.page_ids.length > 1;
  const matches = results.flatMap((r) => (r.scan?.rows ?? []).map((c) => ({ c, r })));
  // Those awaiting a reply are a queue: the longest wait first, so a cut leaves out the newest.
  const newest = (a: { c: Conversation }, b: { c: Conversation }) => (ms(b.c.updated_at) ?? 0) - (ms(a.c.updated_at) ?? 0);
  const longestWait = (a: { c: Conversation }, b: { c: Conversation }) => (waitingSince(a.c) ?? 0) - (waitingSince(b.c) ?? 0);
  matches.sort((a, b) => (awaiting ? longestWait : newest)(a, b) || String(b.c.id).localeCompare(String(a.c.id)));
  const shown = matches.slice(0, input.limit);
  const complete = results.every((r) => r.scan?.complete);
  const cut = results.some((r) => r.scan && !r.scan.complete);
  // Without a filter a page is read only until it fills `limit`: its count is not a total.
  const total = filtering || complete ? matches.length : undefined;
  const notes = [
    cut
      ? `pages with complete:false were read back to searched_back_to only (${SCAN_CALLS * 60} most recent conversations, or the time limit)${filtering ? "; pass since/until to search an older span" : "; list one page for a cursor"}`
      : "",
    awaiting && !ranged ? `conversations active in the last ${AWAITING_DAYS} days (range); pass since for older ones` : "",
    awaiting ? "within_24h: inbox conversations the page can still message (the customer wrote in the last 24 hours)" : "",
    named?.note ?? "",
  ].filter(Boolean);
  return {
    conversations: shown.map(({ c, r }) => {
      if (input.detail === "full") return fullRecord(c);
      const row: ConversationRow & { page_id?: string; waiting_minutes?: number } = conversationRow(c, {
        pageId: r.pageId,
        timeZone: tz,
        tags: r.tags ?? new Map(),
      });
      if (several) row.page_id = r.pageId;
      const since = awaiting ? waitingSince(c) : undefined;
      if (since !== undefined) row.waiting_minutes = Math.floor((now - since) / 60_000);
      return row;
    }),
    total,
    range: range && awaiting ? { since: toIsoInZone(range.since, tz), until: toIsoInZone(range.until, tz) } : undefined,
    within_24h: awaiting ? matches.filter(({ c }) => c.type === "INBOX" && (waitingSince(c) ?? 0) > now - MESSAGING_WINDOW_MS).length : undefined,
    truncated: shown.length < matches.length || (!complete && total === undefined) || undefined,
    pages: results.map((r) => ({
      page_id: r.pageId,
      page_name: ctx.messaging.pageName(r.pageId),
      matched: r.scan?.rows.length ?? 0,
      searched_back_to: recordTime(r.scan?.oldest, tz),
      complete: r.scan?.complete ?? false,
      error: r.error?.message,
    })),
    note: notes.length ? notes.join("; ") : undefined,
  };
}

/** The local filter: the named customer, and/or the last message being the customer's (for long enough). */
function matcher(input: ListConversationsInput, awaiting: boolean, now: number, customer: ((c: Conversation) => boolean) | undefined) {
  const before = now - (input.waiting_minutes ?? 0) * 60_000;
  return (c: Conversation, pageId: string) => {
    if (customer && !customer(c)) return false;
    if (!awaiting) return true;
    if (!c.last_sent_by || sideOf(c.last_sent_by, pageId) !== "customer") return false;
    const since = waitingSince(c);
    return since !== undefined && since <= before;
  };
}
