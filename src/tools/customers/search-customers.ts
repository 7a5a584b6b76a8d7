import { z } from "zod";
import { pageMemory } from "../../clients/list-checks.js";
import { InputError } from "../../clients/errors.js";
import type { CustomerListParams } from "../../clients/pos.js";
import type { PosCustomer } from "../../clients/schemas/pos.js";
import { num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { upstreamRecord } from "../../format/orders.js";
import { toIsoInZone, toUnix } from "../../format/time.js";
import { defineTool, READ, type ToolContext } from "../define.js";
import { readChat } from "../inbox/chat-profile.js";
import { cursorInput, detailRowsInput, limitInput, optionalPageIdInput, shopIdInput, sinceInput, untilInput } from "../inputs.js";
import { chatCustomers, latestOrders } from "../pos/chat-customers.js";
import { openRange } from "../pos/open-range.js";
import { pagedList } from "../pos/paging.js";
import { customerIds } from "../pos/customer-ref.js";
import { searchText } from "../pos/phone.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { customerLevels, refId } from "../pos/shop-refs.js";
import { normalizePhone } from "../../format/phone.js";
import { customerRow, customerRowSchema, ORDER_FIGURES } from "./customer-row.js";
import { nameSuggestions } from "./name-suggestions.js";

/** Upstream pages (of 100) a ranked answer reads: the list has no sort of its own. */
const RANK_PAGES = 30;
const RANK_PAGE_SIZE = 100;
const RANKS = ["reward_point", "order_count", "purchased_amount"] as const;
/** What a chat's lookup does not combine with: it names its own customers. */
const NOT_WITH_CHAT = ["search", "customer_ids", "levels", "since", "until", "sort_by", "ascending", "cursor"] as const;

const input = z.object({
  shop_id: shopIdInput,
  // What it matches the description says; a names-only text is left out of the listing.
  search: z.string().max(200).optional().describe("Search"),
  customer_ids: z.array(z.string().max(120)).max(100).optional().describe("Only these (ids, phones or names)"),
  conversation_id: z.string().max(300).optional().describe("Chat: its customer, latest orders"),
  page_id: optionalPageIdInput,
  levels: z.array(z.string().max(80)).max(20).optional().describe("Level names or ids"),
  time_field: z.enum(["created", "updated"]).default("created").describe("Field of since/until"),
  since: sinceInput,
  until: untilInput,
  sort_by: z.enum(RANKS).optional().describe("Largest first"),
  ascending: z.boolean().optional().describe("Smallest first"),
  limit: limitInput(100, 20),
  cursor: cursorInput,
  detail: detailRowsInput,
});

type SearchInput = z.output<typeof input>;

export const searchCustomers = defineTool({
  name: "search_customers",
  title: "Search customers",
  description:
    "POS customers by name, phone (any form) or email, with points, level, orders and spend.",
  toolset: "customers",
  annotations: READ,
  input,
  output: z.object({
    customers: z.array(customerRowSchema),
    total: z.number().optional(),
    next_cursor: z.string().optional(),
    range: z.object({ since: z.string().optional(), until: z.string().optional(), by: z.string() }).optional().describe("since/until as read, and the date they range over"),
    not_found: z.array(z.object({ value: z.string(), why: z.string() })).optional().describe("customer_ids naming no customer (or several): the others are answered"),
    chat: z.looseObject({ conversation_id: z.string(), page_id: z.string() }).optional(),
    suggestions: z
      .array(z.object({ id: z.string(), customer_name: z.string().optional(), phone: z.string().optional(), why: z.string() }))
      .optional()
      .describe("No match: customers with near names (why: how each differs), not matches"),
    note: z.string().optional(),
    figures: z.string().optional(),
  }),
  async handler(input, ctx) {
    if (input.conversation_id !== undefined) return chatAnswer(input, ctx);
    if (input.page_id !== undefined) throw new InputError("page_id", "is the page of conversation_id", "Pass conversation_id with it, or drop page_id.");
    const tz = ctx.config.timezone;
    const range = openRange(input.since, input.until, tz);
    const field = input.time_field === "created" ? "inserted_at" : "updated_at";
    const dates = { [`start_time_${field}`]: range.since && toUnix(range.since), [`end_time_${field}`]: range.until && toUnix(range.until) };
    const shopId = await resolveShopId(ctx, input.shop_id);
    const levels = await customerLevels(ctx.pos, shopId);
    const selectedLevel = input.levels?.map((l) => refId("levels", levels, l));
    const named = input.cursor || !input.customer_ids ? undefined : await namedCustomers(ctx, shopId, input.customer_ids);
    const ids = named?.ids;
    const notFound = named?.unknown.length ? named.unknown : undefined;
    const echo = rangeEcho(input, tz);
    // Every id unknown: no filter left, and an empty one would list every customer.
    if (ids?.length === 0) return { customers: [], total: 0, range: echo, not_found: notFound };
    const query = { search: searchText(input.search), customer_ids: ids?.join(","), selectedLevel, ...dates };
    const names = new Map(levels.map((l) => [l.id, l.name]));
    const rows = (list: PosCustomer[]) => list.map((c) => (input.detail === "full" ? upstreamRecord(c) : customerRow(c, tz, names)));
    const figures = input.detail === "full" ? undefined : ORDER_FIGURES;
    if (input.sort_by) {
      if (input.cursor) throw new InputError("cursor", "a ranked answer has no cursor", "Drop cursor, or raise limit (up to 100).");
      const ranked = await rankCustomers(ctx, shopId, query, input.sort_by, input.ascending === true);
      return { customers: rows(ranked.list.slice(0, input.limit)), total: ranked.total, range: echo, not_found: notFound, note: ranked.note, figures };
    }
    const page = await pagedList(
      "search_customers",
      input,
      () => query,
      (q, page_number, page_size) => ctx.pos.listCustomers(shopId, { ...q, page_number, page_size }),
      ctx.progress,
    );
    if (page.rows.length === 0 && !input.cursor && query.search && !ids) return { customers: [], total: page.total, range: echo, ...(await noMatch(ctx, shopId, query, query.search)) };
    const note = page.note && `Listed what the customer list served (${page.note}).`;
    return { customers: rows(page.rows), total: page.total, next_cursor: page.next_cursor, range: echo, not_found: notFound, note, figures: page.rows.length ? figures : undefined };
  },
});

/**
 * The customers customer_ids name (ids, phones or names): all in one read when every one is
 * known, else each looked up alone, so one unknown (or ambiguous) value leaves the others answered
 * and every such value is named with why.
 */
async function namedCustomers(ctx: ToolContext, shopId: string, values: string[]): Promise<{ ids: string[]; unknown: { value: string; why: string }[] }> {
  try {
    return { ids: await customerIds(ctx.pos, shopId, "customer_ids", values), unknown: [] };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
  }
  const each = await Promise.all(
    values.map(async (value): Promise<{ id: string } | { value: string; why: string }> => {
      try {
        return { id: (await customerIds(ctx.pos, shopId, "customer_ids", [value]))[0]! };
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        return { value, why: error.reason };
      }
    }),
  );
  return {
    ids: [...new Set(each.flatMap((e) => ("id" in e ? [e.id] : [])))],
    unknown: each.flatMap((e) => ("why" in e ? [e] : [])),
  };
}

/** since/until as read, and which date of the customer's they range over. */
function rangeEcho(input: Pick<SearchInput, "since" | "until" | "time_field">, timeZone: string) {
  if (input.since === undefined && input.until === undefined) return undefined;
  const { since, until } = openRange(input.since, input.until, timeZone);
  return { since: since && toIsoInZone(since, timeZone), until: until && toIsoInZone(until, timeZone), by: input.time_field === "created" ? "customer created" : "customer updated" };
}

/**
 * A search that found nobody says how the POS matches, and offers the customers whose names are
 * near what was typed (word order, a letter off, accents) apart from the matches: an empty list
 * alone read as "no such customer" when the name was one letter off.
 */
async function noMatch(ctx: ToolContext, shopId: string, query: CustomerListParams, search: string) {
  const how = `No customer's name, phone or email holds ${JSON.stringify(search)} as typed (the POS finds the text inside one, word order included)`;
  if (normalizePhone(search) || !/\p{L}/u.test(search)) return { note: how };
  const suggestions = await nameSuggestions(ctx.pos, shopId, query, search);
  if (suggestions.length === 0) return { note: `${how}; no name is near it either` };
  return { suggestions, note: `${how}; suggestions are other customers with near names, not matches: confirm one with the customer first` };
}

/**
 * The POS customers of a chat (pos/chat-customers.ts), each saying how it matched, with their
 * latest orders. Finding none is an answer, not an error.
 */
async function chatAnswer(input: SearchInput, ctx: ToolContext) {
  const clash = NOT_WITH_CHAT.find((k) => input[k] !== undefined);
  if (clash) throw new InputError(clash, "does not combine with conversation_id (the chat names its customers)", "Drop one of the two.");
  const tz = ctx.config.timezone;
  const shopId = await resolveShopId(ctx, input.shop_id);
  const chat = await readChat(ctx.messaging, input.conversation_id!, input.page_id);
  const [{ matches, namesakes }, levels] = await Promise.all([chatCustomers(ctx.pos, shopId, chat), customerLevels(ctx.pos, shopId)]);
  const shown = matches.slice(0, input.limit);
  const orders = await Promise.all(shown.map((m) => latestOrders(ctx.pos, shopId, String(m.customer.id), tz)));
  const names = new Map(levels.map((l) => [l.id, l.name]));
  const notes = [
    // The POS customer search finds by a keyword (a phone, a name: the OpenAPI's example is a
    // phone) and documents no search by a chat's ids: those are checked on what it finds.
    matches.length === 0 ? `no POS customer among those the POS finds by this chat's phones${chat.name ? " and name" : ""} (its search does not look up a chat's ids)` : "",
    matches.some((m) => m.matched_by === "name") ? "matched by name only: may be another person; check a phone or address with the customer" : "",
    matches.some((m) => m.matched_by === "phone" && !m.confident) ? "several POS customers share the chat's phone" : "",
    namesakes ? `${namesakes} more POS customer${namesakes > 1 ? "s have" : " has"} only the chat's name` : "",
  ].filter(Boolean);
  return {
    customers: shown.map((m, i) => ({
      ...(input.detail === "full" ? upstreamRecord(m.customer) : customerRow(m.customer, tz, names)),
      matched_by: m.matched_by,
      matched_on: sanitizeName(m.on),
      confident: m.confident ? undefined : false,
      latest_orders: orders[i],
    })),
    total: matches.length,
    chat: { conversation_id: chat.conversationId, page_id: chat.pageId, customer_name: sanitizeName(chat.name), phones: chat.phones },
    note: notes.length ? notes.join("; ") : undefined,
  };
}

/**
 * The customers that match, largest `field` first. The list cannot sort, so up to RANK_PAGES are
 * read; past them the answer says it ranks only the customers read.
 */
async function rankCustomers(ctx: ToolContext, shopId: string, query: CustomerListParams, field: (typeof RANKS)[number], ascending: boolean) {
  const read: PosCustomer[] = [];
  let total: number | undefined;
  const seen = pageMemory();
  for (let page = 1; page <= RANK_PAGES; page++) {
    const got = await ctx.pos.listCustomers(shopId, { ...query, page_number: page, page_size: RANK_PAGE_SIZE });
    // A page served again is the list's end (issue 43), not more customers.
    if (seen(page, got.data) !== undefined) break;
    read.push(...got.data);
    total = got.total_entries;
    if (got.data.length < RANK_PAGE_SIZE || (total !== undefined && read.length >= total)) break;
    await ctx.progress(read.length, total, `page ${page}`);
  }
  const value = (c: PosCustomer) => num(c[field]) ?? 0;
  const list = [...read].sort((a, b) => (ascending ? value(a) - value(b) : value(b) - value(a)));
  const complete = total === undefined ? read.length % RANK_PAGE_SIZE !== 0 || read.length === 0 : read.length >= total;
  const note = complete ? undefined : `Ranked among the ${read.length} customers read${total ? ` of ${total}` : ""}: narrow with search, levels or since/until for a complete ranking.`;
  return { list, total: complete ? read.length : total, note };
}
