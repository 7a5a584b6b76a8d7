import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type {
  ConversationListParams,
  CountedConversationParams,
  MessagingClient,
  PagedConversationParams,
} from "../../clients/messaging.js";
import type { Conversation } from "../../clients/schemas/messaging.js";
import { conversationRow, fullRecord } from "../../format/conversations.js";
import { parseRange, toIsoInZone, toUnix } from "../../format/time.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { defineTool, READ, type ToolContext } from "../define.js";
import { rememberConversations } from "./conversation-lookup.js";
import { groupConversations, groupsOutput } from "./conversation-groups.js";
import { searchConversations, searchedPageSchema } from "./conversation-search.js";
import { type ListConversationsInput, listConversationsInput, PAGED_SPAN_DAYS } from "./list-conversations-input.js";
import { requirePos } from "./chat-orders.js";
import { requireIndex } from "./chat-sales.js";
import { pagesLeftOut, pagesLeftOutSchema } from "../pages/coverage.js";
import { withNamedGroups } from "./named-groups.js";
import { resolveTagIds, tagNames } from "./page-lookups.js";

const NAME = "list_conversations";
const MAX_UPSTREAM_CALLS = 5;

/**
 * Which upstream list serves the request, with its resolved filters, and where it stands:
 * `at` is the upstream position of the page being read (v2: last_conversation_id before it;
 * paged: page_number; count: conversations already passed), `skip` the rows of it already returned
 * (v2 never skips: it continues after the last row returned), `size` the paged list's page length.
 */
const stateSchema = z
  .object({
    p: z.string(),
    v: z.enum(["v2", "paged", "count"]),
    at: z.union([z.string().max(128), z.number().int().min(0)]).optional(),
    skip: z.number().int().min(0).max(100),
    size: z.number().int().min(1).max(500).optional(),
    q: z.record(z.string(), z.unknown()),
  })
  // A resumed cursor keeps to the limits a first call is held to (it is signed, so this only
  // matters if the key ever leaked or a later version tightens a limit).
  .refine((s) => s.v !== "paged" || spanDays(s.q) <= PAGED_SPAN_DAYS, "span too long");

function spanDays(q: Record<string, unknown>): number {
  const { since, until } = q;
  return typeof since === "number" && typeof until === "number" ? (until - since) / 86_400 : Number.POSITIVE_INFINITY;
}
type State = z.output<typeof stateSchema>;

interface Fetched {
  rows: Conversation[];
  next: State["at"] | undefined;
  total?: number;
  size?: number;
}

async function fetchPage(client: MessagingClient, pageId: string, s: State): Promise<Fetched> {
  if (s.v === "paged") {
    const page = typeof s.at === "number" ? s.at : 1;
    const q = s.q as Omit<PagedConversationParams, "page_number">;
    const { conversations, total } = await client.listConversationsPaged(pageId, { ...q, page_number: page });
    // The page length is whatever the first page held (the spec does not fix it).
    const size = s.size ?? conversations.length;
    const more = conversations.length > 0 && (total === undefined ? conversations.length >= size : page * size < total);
    return { rows: conversations, next: more ? page + 1 : undefined, total, size: size || undefined };
  }
  if (s.v === "count") {
    const passed = typeof s.at === "number" ? s.at : 0;
    const q = s.q as CountedConversationParams;
    const { conversations } = await client.listConversationsByCount(pageId, { ...q, ...(passed > 0 ? { current_count: passed + 1 } : {}) });
    const full = conversations.length >= (passed > 0 ? 40 : 60);
    return { rows: conversations, next: full ? passed + conversations.length : undefined };
  }
  const after = typeof s.at === "string" ? s.at : undefined;
  const q = s.q as ConversationListParams;
  const { conversations } = await client.listConversations(pageId, { ...q, ...(after ? { last_conversation_id: after } : {}) });
  const last = conversations[conversations.length - 1];
  return { rows: conversations, next: conversations.length >= 60 && last ? String(last.id) : undefined };
}

export const listConversations = defineTool({
  name: NAME,
  title: "List conversations",
  description:
    "Conversations, latest activity first; customer searches each page's 600 latest, other filters and counts all. E.g. new threads per page: time_field \"created\", group_by \"page\"; wrote last week, never bought: time_field \"customer\", since/until \"last week\", ordered false.",
  toolset: "inbox",
  annotations: READ,
  input: listConversationsInput,
  output: z.object({
    conversations: z.array(z.looseObject({ id: z.string(), type: z.string().optional(), customer_name: z.string().optional() })).optional(),
    ...groupsOutput,
    total: z.number().optional(),
    matched: z.number().optional().describe("Not complete: the matches in what was read (there may be more)"),
    range: z.object({ since: z.string(), until: z.string() }).optional(),
    within_24h: z.number().optional(),
    people: z.number().optional().describe("ordered: the customers of the matches, each once"),
    ordered: z.number().optional().describe("conversion_days: chats that led to an order"),
    rate_pct: z.number().optional(),
    orders: z.number().optional(),
    amount: z.number().optional(),
    currency: z.string().optional(),
    waiting_longer: z.number().optional().describe("Awaiting a reply longer than the rows list (counted in total)"),
    as_of: z.string().optional().describe("Counted from the shop index, brought up to date at this time"),
    truncated: z.boolean().optional(),
    next_cursor: z.string().optional(),
    pages: z.array(searchedPageSchema).optional(),
    pages_left_out: pagesLeftOutSchema,
    note: z.string().optional(),
  }),
  // Searches and counts merge several pages' lists into one answer, which no cursor continues.
  uncursored: (input) => !listsOnePage(input),
  async handler(input, ctx) {
    if (input.unread === false) {
      throw new InputError("unread", "takes true only: read conversations are the rest of the list", "Pass unread: true for the unread ones, or leave it out for all.");
    }
    if (input.with_open_orders === false) {
      throw new InputError("with_open_orders", "takes true only: chats without an open order are the rest of the list", "Pass with_open_orders: true, or leave it out for all.");
    }
    if (input.with_open_orders) requirePos(ctx);
    checkSales(input, ctx);
    if (input.ascending !== undefined && !input.group_by) throw new InputError("ascending", "orders groups (group_by); rows come latest activity first", "Pass group_by, or drop ascending.");
    if (input.group_by || input.conversion_days !== undefined) {
      const grouped = groupable(input);
      return { ...(await withNamedGroups(await groupConversations(grouped, ctx), grouped, ctx)), pages_left_out: await pagesLeftOut(ctx, grouped.page_ids) };
    }
    const state = input.cursor ? decodeCursor(NAME, input, stateSchema) : undefined;
    if (state && !input.page_ids.includes(state.p)) {
      throw new InputError("cursor", `belongs to page ${state.p}, not to page_ids`, "Pass the same page as the call that returned it, or omit page_ids.");
    }
    const searching = isSearch(input);
    if (state && searching) throw new InputError("cursor", "continues a plain list; customer/awaiting_reply searches have none", "Drop cursor, or the search filters.");
    if (!listsOnePage(input)) return { ...(await searchConversations(input, ctx)), pages_left_out: await pagesLeftOut(ctx, input.page_ids) };
    const pageId = state?.p ?? (input.post_id === undefined ? input.page_ids[0]! : pageOfPost(input, searching));
    return listPage(input, ctx, pageId, state ?? (await firstState(input, pageId, ctx.messaging, ctx.config.timezone)));
  },
});

/** ordered, ordered_since and conversion_days: how they combine, refused before any read. */
function checkSales(input: ListConversationsInput, ctx: ToolContext): void {
  for (const field of ["ordered", "conversion_days"] as const) {
    if (input[field] === undefined) continue;
    requirePos(ctx, field);
    requireIndex(ctx, field);
  }
  if (input.ordered_since !== undefined && input.ordered === undefined) {
    throw new InputError("ordered_since", "bounds the orders of ordered", "Add ordered (true: bought since then; false: did not), or drop ordered_since.");
  }
  if (input.conversion_days !== undefined && input.ordered !== undefined) {
    throw new InputError("ordered", "does not combine with conversion_days, which counts the chats that ordered and those that did not", "Drop ordered: each group says count, ordered and rate_pct.");
  }
}

/** A search: a filter the upstream list lacks, applied to every page's list. */
/** A filter the list cannot apply (or only partly: unread ones come first, the customer's time is not filtered on), applied here. */
const isSearch = (input: ListConversationsInput) =>
  input.customer !== undefined ||
  input.awaiting_reply === true ||
  input.waiting_minutes !== undefined ||
  input.unread === true ||
  input.time_field === "customer" ||
  input.with_open_orders === true ||
  input.ordered !== undefined;

/**
 * Whether a call lists one page as the upstream orders it, with a cursor (a cursor's own page, a
 * post's comments, one page named with no search), or searches or counts across pages.
 */
const listsOnePage = (input: ListConversationsInput) =>
  !input.group_by && (input.cursor !== undefined || input.post_id !== undefined || (!isSearch(input) && input.page_ids.length === 1));

/** One page's list as the upstream orders it, `limit` rows at a time with a cursor. */
async function listPage(input: ListConversationsInput, ctx: ToolContext, pageId: string, state: State) {
  const tz = ctx.config.timezone;
  const names = await tagNames(ctx.messaging, pageId);
  const rows: Conversation[] = [];
  const seen = new Set<string>();
  let total: number | undefined;
  let next: State | undefined = state;
  for (let call = 0; next && rows.length < input.limit && call < MAX_UPSTREAM_CALLS; call++) {
    const position: State = next;
    const page = await fetchPage(ctx.messaging, pageId, position);
    rememberConversations(ctx.messaging, pageId, page.rows);
    total ??= page.total;
    const fresh = page.rows.slice(position.skip);
    const room = input.limit - rows.length;
    for (const c of fresh.slice(0, room)) {
      // The v2 list moves a conversation to the top when it changes: never show it twice.
      if (seen.has(String(c.id))) continue;
      seen.add(String(c.id));
      rows.push(c);
    }
    if (fresh.length > room) {
      // v2 continues after the last row returned: rows that move to the top cannot shift it.
      const last = fresh[room - 1];
      next = position.v === "v2" && last ? { ...position, at: String(last.id), skip: 0 } : { ...position, skip: position.skip + room };
    } else next = page.next === undefined ? undefined : { ...position, at: page.next, skip: 0, size: page.size ?? position.size };
    await ctx.progress(rows.length, input.limit);
  }
  const { since, until } = state.q;
  return {
    conversations: rows.map((c) => (input.detail === "full" ? fullRecord(c) : conversationRow(c, { pageId, timeZone: tz, tags: names }))),
    // A list that ended within the first call was counted whole.
    total: total ?? (next === undefined && input.cursor === undefined ? rows.length : undefined),
    // A total counts the conversations of a range (the last 30 days unless since/until): say which.
    range:
      typeof since === "number" && typeof until === "number"
        ? { since: toIsoInZone(new Date(since * 1000), tz), until: toIsoInZone(new Date(until * 1000), tz) }
        : undefined,
    next_cursor: next ? encodeCursor(NAME, input, next) : undefined,
  };
}

/** A grouped call's input, refused where it asks for rows; a post's comments are counted on its page. */
function groupable(input: ListConversationsInput): ListConversationsInput {
  const rows = input.cursor !== undefined ? "cursor" : input.detail === "full" ? "detail" : undefined;
  if (rows) throw new InputError(rows, "lists rows; group_by answers counts", "Drop one of the two: group_by counts every match in one answer.");
  return input.post_id === undefined ? input : { ...input, page_ids: [pageOfPost(input, false)] };
}

/**
 * The page a post_id belongs to: post ids are "<page id>_<n>", so the post names its page among
 * page_ids (every page by default). A post's comments are one page's plain list.
 */
function pageOfPost(input: ListConversationsInput, searching: boolean): string {
  if (searching) throw new InputError("post_id", "lists one post's comments; it does not combine with customer/awaiting_reply", "Drop one of them: each row's last_from says who wrote last.");
  const postId = input.post_id!;
  const page = input.page_ids.length === 1 ? input.page_ids[0] : input.page_ids.find((id) => postId.startsWith(`${id}_`));
  if (!page) throw new InputError("post_id", `${postId} is not a post of the pages listed`, "Pass page_ids with the post's page, or the post_id of one of its comment rows.");
  return page;
}

async function firstState(input: ListConversationsInput, pageId: string, client: MessagingClient, tz: string): Promise<State> {
  const all = input.tags?.length === 1 && String(input.tags[0]).toUpperCase() === "ALL";
  const paged = input.with_total === true;
  const created = input.time_field === "created";
  const clash = (field: string, why: string) => new InputError(field, why, "Drop one of the two, or make two calls.");
  if (all) {
    const other = (["type", "post_id", "unread_first", "since", "until", "time_field", "with_total"] as const).find((k) => input[k] !== undefined);
    if (other) throw clash(other, 'cannot be combined with tags ["ALL"] (that list takes no other filter)');
    return { p: pageId, v: "count", skip: 0, q: { tags: "ALL" } };
  }
  // The counted list has no type or post filter; group_by counts with them.
  const counted = (field: string, why: string) => new InputError(field, why, 'Drop with_total and pass group_by (e.g. ["type"]) to count by it.');
  if (paged && input.type) throw counted("type", "cannot be combined with with_total (the counted list has no type filter)");
  if (paged && input.post_id) throw counted("post_id", "cannot be combined with with_total (the counted list has no post filter)");
  if (paged && input.unread_first) throw clash("unread_first", "cannot be combined with with_total");
  const hasRange = input.since !== undefined || input.until !== undefined;
  const range =
    paged || hasRange
      ? parseRange(input.since, input.until, tz, { defaultDays: paged ? 30 : 7, maxDays: paged ? PAGED_SPAN_DAYS : undefined })
      : undefined;
  const tags = input.tags?.length ? (await resolveTagIds(client, pageId, "tags", input.tags)).join(",") : undefined;
  const span = range ? { since: toUnix(range.since), until: toUnix(range.until) } : {};
  // "Latest activity first", as the description says, unless asked by creation.
  if (paged) return { p: pageId, v: "paged", skip: 0, q: { ...span, tags, order_by: created ? "inserted_at" : "updated_at" } };
  const posts = input.post_id === undefined ? undefined : [input.post_id];
  const order = created ? { order_by: "inserted_at" } : {};
  return { p: pageId, v: "v2", skip: 0, q: { ...span, ...order, tags, type: input.type, post_ids: posts, unread_first: input.unread_first } };
}
