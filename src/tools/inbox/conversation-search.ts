import { z } from "zod";
import { InputError, PancakeError } from "../../clients/errors.js";
import type { Conversation } from "../../clients/schemas/messaging.js";
import { type ConversationRow, conversationRow, fullRecord, sideOf } from "../../format/conversations.js";
import { type DateRange, parseDateInput, parseRange, recordDate, recordTime, toDateInZone, toIsoInZone, toUnix } from "../../format/time.js";
import { askAgainIn, readingNote, readingOut } from "../../format/reading.js";
import { readBy, type ToolContext } from "../define.js";
import { readingSchema } from "../reading-schema.js";
import { eachPage } from "../page-stats/fan-out.js";
import { OPEN_ORDERS_NOTE, type OpenOrders, openOrderFields, openOrders } from "./chat-orders.js";
import { type Bought, type ChatSales, chatSales, orderedNote } from "./chat-sales.js";
import { type PageScan, SCAN_CALLS, SCAN_MS, scanPage } from "./conversation-scan.js";
import { customerMatcher } from "./customer-match.js";
import { rememberConversations } from "./conversation-lookup.js";
import { indexedScan } from "./indexed-scan.js";
import type { ListConversationsInput } from "./list-conversations-input.js";
import { tagIdsByPage, tagNames } from "./page-lookups.js";

/**
 * list_conversations over several pages, with a filter the upstream does not have (customer,
 * awaiting_reply), or counted (group_by): every page is scanned at once (conversation-scan.ts),
 * the matches merged newest first, and each page says how many matched and how far back it was read.
 */

export const searchedPageSchema = z.object({
  page_id: z.string(),
  page_name: z.string().optional(),
  matched: z.number(),
  within_24h: z.number().optional(),
  searched_back_to: z.string().optional(),
  complete: z.boolean(),
  error: z.string().optional(),
  reading: readingSchema.optional(),
});

/**
 * Awaiting a reply without since/until: rows of recent days only (older ones can rarely be
 * messaged, and would bury today's); with the shop index every older one is counted apart.
 */
const AWAITING_DAYS = 7;
/** Inbox messages can be sent only within this long of the customer's last message (the platform's window). */
const MESSAGING_WINDOW_MS = 24 * 3_600_000;
/** A count reads every match: up to 3,000 conversations a page (50 pages of 60), within 20 s. */
export const GROUP_CALLS = 50;
export const GROUP_MS = 20_000;

/** Options only the one-page list has. */
const ONE_PAGE_ONLY = ["with_total", "unread_first"] as const;

/** A record time in ms, to the second as rows show it (a message time carries microseconds). */
const ms = (value: unknown) => {
  const at = recordDate(value)?.getTime();
  return at === undefined ? undefined : Math.floor(at / 1000) * 1000;
};

/** When the customer's unanswered message came: their last interaction, else the last activity. */
const waitingSince = (c: Conversation) => ms(c.last_customer_interactive_at) ?? ms(c.updated_at);

/** The time since/until and the order follow: creation with time_field "created", else the last activity. */
export const timeOf = (input: Pick<ListConversationsInput, "time_field">) => (c: Conversation) =>
  ms(input.time_field === "created" ? c.inserted_at : input.time_field === "customer" ? c.last_customer_interactive_at : c.updated_at);

/** Unread as the list sorts them first (unread_first): not seen by the page. */
const unread = (c: Conversation) => c.seen === false;

/** A page's answer, or the upstream's refusal of that page. */
export interface PageOutcome<R> {
  pageId: string;
  value?: R;
  error?: PancakeError;
}

/** A page's scan, with how many it matched and, awaiting a reply, how many of those the page can still message. */
export type PageResult = PageOutcome<{ scan: PageScan; tags: ReadonlyMap<string, string>; matched: number; within24h: number }>;

/** `read` on every page at once. A page the upstream refuses is reported with it; every page refusing is the call failing. */
export async function readPages<R>(ctx: ToolContext, pageIds: readonly string[], read: (pageId: string) => Promise<R>): Promise<PageOutcome<R>[]> {
  const results = await eachPage(ctx, pageIds, "conversations", async (pageId): Promise<PageOutcome<R>> => {
    try {
      return { pageId, value: await read(pageId) };
    } catch (error) {
      // A fault of ours fails the call.
      if (error instanceof PancakeError) return { pageId, error };
      throw error;
    }
  });
  const failed = results.find((r) => r.error !== undefined);
  if (failed && results.every((r) => r.error !== undefined)) throw failed.error;
  return results;
}

/** The combinations a search or count refuses, before any call. */
export function checkAcrossPages(input: ListConversationsInput, counting: boolean): void {
  const filtering = input.awaiting_reply === true || input.waiting_minutes !== undefined || input.customer !== undefined || input.unread === true;
  const why = counting ? "with group_by" : filtering ? "with a search (customer, awaiting_reply, unread)" : "over several pages";
  const instead = counting ? "Drop it: group_by counts every match." : "Drop it, or list one page (page_ids with one page) without customer/awaiting_reply.";
  for (const key of ONE_PAGE_ONLY) {
    if (input[key] !== undefined) throw new InputError(key, `does not apply ${why}`, instead);
  }
  if (input.tags?.some((t) => String(t).toUpperCase() === "ALL")) {
    throw new InputError("tags", `["ALL"] does not apply ${why}`, counting ? 'Name the tags; group_by ["tag"] counts each tag.' : "Name the tags, or list one page.");
  }
}

/**
 * Each page's tag filter as the upstream takes it (ids, from ids or names), undefined without one,
 * and null for a page that has none of the named tags: nothing there can match, so its list is
 * not read (tagIdsByPage: a tag on some pages only is no error on the others).
 */
export async function tagFilter(input: ListConversationsInput, ctx: ToolContext): Promise<(pageId: string) => string | null | undefined> {
  const byPage = input.tags?.length ? await tagIdsByPage(ctx.messaging, input.page_ids, "tags", input.tags) : undefined;
  return (pageId) => {
    const found = byPage?.get(pageId);
    if (!found) return undefined;
    if (found.ids === undefined) throw found.error;
    return found.ids.length ? found.ids.join(",") : null;
  };
}

/** A page's scan when it has none of the named tags: nothing matched, and nothing left unread. */
const NOTHING_TAGGED: PageScan = { rows: [], examined: 0, oldest: undefined, complete: true };

/** A conversation that matched, as a scan hands it on (never collected: a page may hold tens of thousands). */
export interface Match {
  c: Conversation;
  pageId: string;
  /** The page's tag names. */
  tags: ReadonlyMap<string, string>;
  /** Read from the shop index (its read state is not shown). */
  indexed: boolean;
  /** Awaiting a reply, counted over all time but last active before the rows' span, with no wait asked: counted, not listed. */
  longer: boolean;
  /** ordered, conversion_days: the chat's sales within the window asked. */
  bought?: Bought | undefined;
}

export interface Scanned {
  results: PageResult[];
  /** Every match, counted. */
  matched: number;
  awaiting: boolean;
  /** A filter the upstream lacks (customer, awaiting_reply): every page was read as far as the bounds allow. */
  filtering: boolean;
  /** Asked with since/until (not only the awaiting default). */
  ranged: boolean;
  range: DateRange | undefined;
  /** Awaiting a reply without since/until, counted over all time from the shop index. */
  allTime: boolean;
  /** The oldest time a page answered from the shop index was brought up to date (ms); unset when none was. */
  asOf: number | undefined;
  /** Every page's list was read to its end. */
  complete: boolean;
  now: number;
  /** How `customer` was matched when the POS could not say (customer-match.ts). */
  customerNote?: string;
  /** with_open_orders: the shop's undelivered orders, joined to chats (chat-orders.ts); matches are those it finds. */
  orders?: OpenOrders;
  /** ordered, conversion_days: the shops' orders joined to chats (chat-sales.ts). */
  sales?: ChatSales;
}

/** Where a scan hands each match as it finds it: a count, or the few rows a list shows. */
export type Visit = (m: Match) => void;

function oldestAsOf(results: PageResult[], sales: ChatSales | undefined): number | undefined {
  const times = results.flatMap((r) => (r.value?.scan.asOf === undefined ? [] : [r.value.scan.asOf]));
  if (sales) times.push(sales.asOf);
  return times.length ? Math.min(...times) : undefined;
}

/**
 * The join ordered and conversion_days ask for, begun at once: which orders count (ever, from
 * ordered_since, from the chat's start, within conversion_days of it), and, for chats ranged by
 * creation, the first time the orders must be read from.
 */
function salesFor(input: ListConversationsInput, ctx: ToolContext, range: DateRange | undefined): Promise<ChatSales> | undefined {
  if (input.ordered === undefined && input.conversion_days === undefined) return undefined;
  const since = input.ordered_since;
  const fromChat = input.conversion_days !== undefined || (typeof since === "string" && since.trim().toLowerCase() === "chat");
  const from = fromChat || since === undefined ? undefined : toUnix(parseDateInput("ordered_since", since, ctx.config.timezone));
  const chatsFrom = input.time_field === "created" && range && (input.since !== undefined || input.until !== undefined) ? toUnix(range.since) : undefined;
  return chatSales(ctx, { from, sinceChat: fromChat, days: input.conversion_days }, chatsFrom, input.conversion_days === undefined ? "ordered" : "conversion_days");
}

const within = (at: number | undefined, range: DateRange) => at !== undefined && at >= range.since.getTime() && at <= range.until.getTime() + 999;

/**
 * Reads every page named (every page by default) and hands every match to `visit` as it is found,
 * in no order: a count tallies it, a list keeps the few it shows. `counting` reads on to the end.
 */
export async function scanConversations(input: ListConversationsInput, ctx: ToolContext, counting: boolean, visit: Visit): Promise<Scanned> {
  checkAcrossPages(input, counting);
  const awaiting = input.awaiting_reply === true || input.waiting_minutes !== undefined;
  const byCustomerTime = input.time_field === "customer";
  const withOrders = input.with_open_orders === true;
  const filtering = awaiting || input.customer !== undefined || input.unread === true || byCustomerTime || withOrders || input.ordered !== undefined;
  const tz = ctx.config.timezone;
  const now = Date.now();
  const ranged = input.since !== undefined || input.until !== undefined;
  // The list filters on tags and sorts unread first itself, exactly and as they are now: those are
  // read from it. Everything else, groupings by tag and assignee too, the index answers, with
  // tags and staff as each conversation was last read or changed through this server.
  const indexable = !!ctx.index && !input.tags?.length && !input.unread;
  // Without since/until every filter and grouping counts all time, as the plain call does.
  const allTime = awaiting && !ranged;
  // The awaiting rows, though, are those of the last days unless a wait is asked (waiting_minutes): older ones can rarely be messaged.
  const range = ranged || awaiting ? parseRange(input.since, input.until, tz, { defaultDays: AWAITING_DAYS }) : undefined;
  const span = range && ranged ? { since: toUnix(range.since), until: toUnix(range.until) } : {};
  // The OpenAPI's order_by: newest created first. It does not say which time since/until then
  // read; the v1 list's range reads the field it is ordered by (the seed document pairs the two
  // there), and the same is taken here.
  const order = input.time_field === "created" ? { order_by: "inserted_at" as const } : {};
  const posts = input.post_id === undefined ? undefined : [input.post_id];
  const named = input.customer === undefined ? undefined : await customerMatcher(ctx, input.customer);
  const wanted = matcher(input, awaiting, now, named?.test);
  // The customer's last message is never after the last activity: the list is read by the
  // latter's range, and the former filtered here.
  const written = byCustomerTime && range ? (c: Conversation) => within(timeOf(input)(c), range) : () => true;
  // What each chat's customer bought: the shops' orders are brought up to date while the pages are, each chat looked up once.
  const selling = salesFor(input, ctx, range);
  selling?.catch(() => undefined);
  let sales: ChatSales | undefined;
  // The chat last looked up: a match is looked up by the filter, then again by a count of its sales.
  let last: { c: Conversation; b: Bought | undefined } | undefined;
  const bought = (c: Conversation) => {
    if (last?.c !== c && sales) last = { c, b: sales.of(c) };
    return last?.c === c ? last.b : undefined;
  };
  // The shop's undelivered orders are read while the pages are (both from their indexes, each by the deadline).
  const joining = withOrders ? openOrders(ctx) : undefined;
  let orders: OpenOrders | undefined;
  const keep = (c: Conversation, pageId: string) =>
    written(c) &&
    (!input.unread || unread(c)) &&
    wanted(c, pageId) &&
    (!orders || orders.of(c) !== undefined) &&
    (input.ordered === undefined || !!bought(c) === input.ordered);
  const ready = Promise.all([selling, joining]).then(([s, o]) => {
    sales = s;
    orders = o;
  });
  // A page's scan waits for the orders; their failure fails the call once the pages are read (below), not a page.
  const settled = ready.catch(() => undefined);
  const deadline = Math.min(now + (counting ? GROUP_MS : SCAN_MS), readBy(ctx));
  const limits = {
    enough: filtering || counting ? undefined : input.limit,
    calls: counting ? GROUP_CALLS : SCAN_CALLS,
    deadline,
    // Sorted unread first, the first read one ends them.
    stop: input.unread ? (c: Conversation) => !unread(c) : undefined,
  };

  const tagged = await tagFilter(input, ctx);
  const time = timeOf(input);
  // Awaiting over all time with no wait asked: the rows are of the last days, the older ones counted apart.
  const longer = (c: Conversation) => allTime && input.waiting_minutes === undefined && (time(c) ?? 0) < (range?.since.getTime() ?? 0);
  const results: PageResult[] = await readPages(ctx, input.page_ids, async (pageId) => {
    const tags = tagged(pageId);
    const names = await tagNames(ctx.messaging, pageId);
    // RATING among the types sent: the seed document's Conversation says the filter takes every
    // type (INBOX, COMMENT, RATING) and COMMENT_LIVESTREAM as well.
    const query = { ...span, ...order, tags: tags ?? undefined, type: input.type, post_ids: posts, ...(input.unread ? { unread_first: true } : {}) };
    let matched = 0;
    let within24h = 0;
    const found = (c: Conversation, indexed: boolean) => {
      matched++;
      if (awaiting && c.type === "INBOX" && (waitingSince(c) ?? 0) > now - MESSAGING_WINDOW_MS) within24h++;
      visit({ c, pageId, tags: names, indexed, longer: longer(c), bought: sales && bought(c) });
    };
    const kept = (c: Conversation) => keep(c, pageId);
    // Counts, the awaiting queue and chats joined to orders need every match: they build the index; a name search uses it once it is there.
    const build = counting || awaiting || withOrders || input.ordered !== undefined;
    const indexed =
      indexable && tags !== null
        ? await indexedScan(ctx, pageId, query, kept, build, { ready: settled, visit: (c) => found(c, true) })
        : undefined;
    if (indexed) return { scan: indexed, tags: names, matched, within24h };
    if (tags === null) return { scan: NOTHING_TAGGED, tags: names, matched, within24h };
    await settled;
    const scan = await scanPage(ctx.messaging, pageId, query, kept, limits);
    for (const c of scan.rows) found(c, false);
    return { scan, tags: names, matched, within24h };
  });
  await ready;
  return {
    results,
    matched: results.reduce((n, r) => n + (r.value?.matched ?? 0), 0),
    awaiting,
    filtering,
    ranged,
    range,
    allTime,
    asOf: oldestAsOf(results, sales),
    complete: results.every((r) => r.value?.scan.complete) && (orders?.complete ?? true) && (sales?.complete ?? true),
    now,
    customerNote: named?.note,
    orders,
    sales,
  };
}

/**
 * What a scan says about each page: matches, a refusal, and whether its list was read to the end
 * (of the range, when one was sent); one that was not says how far back it was read, the list's
 * time of the oldest conversation read, in both the search and the count.
 */
export function pagesOf(scanned: Scanned, ctx: ToolContext) {
  return scanned.results.map((r) => {
    const scan = r.value?.scan;
    return {
      page_id: r.pageId,
      page_name: ctx.messaging.pageName(r.pageId),
      matched: r.value?.matched ?? 0,
      within_24h: scanned.awaiting ? (r.value?.within24h ?? 0) : undefined,
      searched_back_to: scan && !scan.complete ? recordTime(scan.oldest, ctx.config.timezone) : undefined,
      complete: scan?.complete ?? false,
      error: r.error?.message,
      reading: scan?.reading && readingOut(scan.reading, ctx.config.timezone),
    };
  });
}

/** Pages whose index is still being read: a sentence each, and when to ask again (the latest of them). */
export function readingsOf(scanned: Scanned, ctx: ToolContext): { notes: string[]; askAgainIn?: number } {
  const reading = scanned.results.flatMap((r) => (r.value?.scan.reading ? [{ pageId: r.pageId, state: r.value.scan.reading }] : []));
  const notes = reading.map(({ pageId, state }) =>
    readingNote(`the conversations of page ${ctx.messaging.pageName(pageId) ?? pageId}`, state, ctx.config.timezone),
  );
  const waits = reading.filter((r) => !r.state.failed).map((r) => askAgainIn(r.state));
  for (const other of [scanned.orders, scanned.sales]) if (other?.askAgainIn !== undefined) waits.push(other.askAgainIn);
  return { notes: [...notes, ...(scanned.orders?.notes ?? []), ...(scanned.sales?.notes ?? [])], askAgainIn: waits.length ? Math.max(...waits) : undefined };
}

/** Pages cut short by the scan's own bounds (not by a read of the index still under way). */
export const cutShort = (scanned: Scanned) => scanned.results.some((r) => r.value && !r.value.scan.complete && !r.value.scan.reading);

/** Inbox conversations awaiting a reply that the page can still message (the customer wrote in the last 24 hours). */
export function within24h(scanned: Scanned): number | undefined {
  return scanned.awaiting ? scanned.results.reduce((n, r) => n + (r.value?.within24h ?? 0), 0) : undefined;
}

/**
 * Rows from the index: tags and staff change without moving a conversation's update time, so they
 * are as the conversation was last read (or changed through this server); its read state is left out.
 */
const INDEXED_ROWS_NOTE = "tags and assignees of rows counted from the shop index are as each conversation was last read or changed here; unread is left out (pass unread: true)";

/** What an awaiting answer counted; groups, unlike rows, count every match of all time. */
export const awaitingNotes = (scanned: Scanned, input: ListConversationsInput, grouped = false) => [
  scanned.allTime && grouped ? "groups and total count every conversation awaiting a reply, of all time" : "",
  scanned.allTime && !grouped && input.waiting_minutes === undefined
    ? `total counts every conversation awaiting a reply, of all time; rows list those ${input.time_field === "created" ? "begun" : "active"} in the last ${AWAITING_DAYS} days (range), waiting_longer counts the rest: pass waiting_minutes (0: every one) or since to list them`
    : "",
  scanned.allTime && !grouped && input.waiting_minutes !== undefined ? "rows and total are of all time, the longest wait first" : "",
  scanned.awaiting ? "within_24h: inbox conversations the page can still message (the customer wrote in the last 24 hours)" : "",
];

/**
 * The first `limit` matches in the answer's order, kept as they come: those awaiting a reply are a
 * queue (the longest wait first, so a cut leaves out the newest), the rest newest first.
 */
class FirstRows {
  private readonly rows: { m: Match; key: number; id: string }[] = [];
  constructor(
    private readonly limit: number,
    private readonly keyOf: (c: Conversation) => number,
  ) {}

  add(m: Match): void {
    const entry = { m, key: this.keyOf(m.c), id: String(m.c.id) };
    const before = (a: typeof entry, b: typeof entry) => a.key - b.key || b.id.localeCompare(a.id);
    let at = this.rows.length;
    while (at > 0 && before(entry, this.rows[at - 1]!) < 0) at--;
    if (at >= this.limit) return;
    this.rows.splice(at, 0, entry);
    if (this.rows.length > this.limit) this.rows.pop();
  }

  get matches(): Match[] {
    return this.rows.map((r) => r.m);
  }
}

export async function searchConversations(input: ListConversationsInput, ctx: ToolContext) {
  const tz = ctx.config.timezone;
  const awaitingAsked = input.awaiting_reply === true || input.waiting_minutes !== undefined;
  const time = timeOf(input);
  const first = new FirstRows(input.limit, awaitingAsked ? (c) => waitingSince(c) ?? 0 : (c) => -(time(c) ?? 0));
  let listed = 0;
  // Who the matches are with, each once (ordered: "how many people").
  const people = new Set<string>();
  const scanned = await scanConversations(input, ctx, false, (m) => {
    if (input.ordered !== undefined) people.add(personOf(m.c));
    if (m.longer) return;
    listed++;
    first.add(m);
  });
  const { matched, awaiting, filtering, complete, range, now } = scanned;
  const several = input.page_ids.length > 1;
  const shown = first.matches;
  // Remembered for the message reads and replies that follow (the rows scanned from the list already are).
  for (const m of shown) if (m.indexed) rememberConversations(ctx.messaging, m.pageId, [m.c]);
  const cut = cutShort(scanned);
  const readings = readingsOf(scanned, ctx);
  // A total only of lists read to their end: a page cut short, or one that failed, may hold more.
  // Without a filter a page is read only until it fills `limit`: then its count says nothing.
  const total = complete ? matched : undefined;
  const notes = [
    cut
      ? `pages with complete:false were read back to searched_back_to only (${SCAN_CALLS * 60} most recent conversations, or the time limit)${filtering ? "; pass since/until to search an older span" : "; list one page for a cursor"}`
      : "",
    ...readings.notes,
    ...awaitingNotes(scanned, input),
    scanned.orders ? OPEN_ORDERS_NOTE : "",
    scanned.sales ? orderedNote(input.ordered, scanned.sales.window) : "",
    scanned.sales ? "people: the customers of those conversations, each once" : "",
    scanned.customerNote ?? "",
    scanned.asOf === undefined ? "" : INDEXED_ROWS_NOTE,
  ].filter(Boolean);
  return {
    conversations: shown.map(({ c, pageId, tags, indexed, bought }) => {
      const joined = { ...(scanned.orders ? openOrderFields(scanned.orders.of(c)) : {}), ...boughtFields(bought, tz) };
      if (input.detail === "full") return { ...fullRecord(c), ...joined };
      const since = awaiting ? waitingSince(c) : undefined;
      const row: ConversationRow & { page_id?: string } = conversationRow(c, {
        pageId,
        timeZone: tz,
        tags,
        waitingMinutes: since === undefined ? undefined : Math.floor((now - since) / 60_000),
        indexed,
      });
      if (several) row.page_id = pageId;
      return { ...row, ...joined };
    }),
    total,
    matched: filtering && !complete ? matched : undefined,
    people: input.ordered !== undefined ? people.size : undefined,
    currency: input.ordered ? scanned.sales?.currency : undefined,
    range: range && awaiting && (scanned.ranged || input.waiting_minutes === undefined) ? { since: toIsoInZone(range.since, tz), until: toIsoInZone(range.until, tz) } : undefined,
    within_24h: within24h(scanned),
    waiting_longer: scanned.allTime && input.waiting_minutes === undefined ? matched - listed : undefined,
    truncated: shown.length < matched || (!complete && total === undefined) || undefined,
    // A total of matches is only as whole as the lists read for it.
    complete,
    ask_again_in_s: readings.askAgainIn,
    as_of: scanned.asOf === undefined ? undefined : toIsoInZone(new Date(scanned.asOf), tz),
    pages: pagesOf(scanned, ctx),
    note: notes.length ? notes.join("; ") : undefined,
  };
}

/** Who a conversation is with: the customer's id on the page, else the thread's. */
const personOf = (c: Conversation) => String(c.customers?.[0]?.fb_id ?? c.from?.id ?? c.from_psid ?? c.id);

/** What a row shows of the chat's sales (ordered: true): how many, their amount, the newest's day, and how the strongest was joined. */
function boughtFields(b: Bought | undefined, tz: string) {
  if (!b) return {};
  return { ordered: { orders: b.orders, amount: b.amount, last_order: b.last === null ? undefined : toDateInZone(new Date(b.last * 1000), tz), by: b.by } };
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
