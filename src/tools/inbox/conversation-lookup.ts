import { original } from "../../clients/call-signal.js";
import { InputError, NotFoundError } from "../../clients/errors.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { Conversation } from "../../clients/schemas/messaging.js";
import { recordDate } from "../../format/time.js";

/**
 * The message list and the private reply need facts only the conversation list carries
 * (customer_id, post_id, type), and no endpoint reads one conversation by id. So every
 * conversation a list returns is remembered here (those facts never change), and an unknown one
 * is looked for in the v2 list, newest update first: the conversation a user is working on is
 * almost always recent, so a few pages of 60 find it, and each page read fills the memory too.
 */
export interface ConversationFacts {
  /** The inbox's id of the person ("Global customer ID" in the messaging OpenAPI). */
  customer_id?: string;
  /** The page-scoped id: customers[].fb_id ("Facebook ID / PSID"), else from.id. */
  psid?: string;
  /** customers[].id ("Page-customer ID"). */
  page_customer_id?: string;
  post_id?: string;
  type?: string;
  /** Untrusted: sanitize before showing. */
  customer_name?: string;
  /** Phone numbers captured in the thread, as of the last list read. */
  phones: string[];
  /** Record times as of the last read (these do change): the customer's last message, the last update. */
  last_customer_at?: string;
  updated_at?: string;
}

const MAX_REMEMBERED = 5000;
const SEARCH_PAGES = 5;

const key = (pageId: string, conversationId: string) => `${pageId}/${conversationId}`;

/** The tenant's memory of conversations, in this process (the shared client's scope, not a call's view). */
function store(view: MessagingClient): Map<string, ConversationFacts> {
  return original(view).state.local("conversations", () => new Map<string, ConversationFacts>());
}

const recordMs = (at: string) => recordDate(at)?.getTime() ?? 0;

const idOf = (value: unknown) => (value == null || value === "" ? undefined : String(value));

/** The customer id the message list wants: `customer_id`, else the first customer's id. */
export function customerIdOf(c: Conversation): string | undefined {
  return idOf(c.customer_id ?? c.customers?.[0]?.id);
}

/** Phone numbers of `recent_phone_numbers` / `phone_info` items (or plain numbers, as the export list has them), without repeats. */
export function phonesOf(captures: readonly unknown[] | null | undefined): string[] {
  const numbers = (captures ?? []).map((p) => (typeof p === "string" ? p : (p as { phone_number?: unknown } | null)?.phone_number));
  return [...new Set(numbers.filter((n): n is string => typeof n === "string" && n !== ""))];
}

export function rememberConversations(client: MessagingClient, pageId: string, conversations: readonly Conversation[]): void {
  const map = store(client);
  for (const c of conversations) {
    const k = key(pageId, String(c.id));
    map.delete(k);
    map.set(k, {
      customer_id: customerIdOf(c),
      psid: idOf(c.customers?.[0]?.fb_id ?? c.from_psid ?? c.from?.id),
      page_customer_id: idOf(c.customers?.[0]?.id),
      post_id: c.post_id ?? undefined,
      type: c.type ?? undefined,
      // Bounded in bytes as well as in entries: the upstream decides how long these are.
      customer_name: (c.customers?.[0]?.name ?? c.from?.name ?? undefined)?.slice(0, 300),
      phones: phonesOf(c.recent_phone_numbers).slice(0, 10),
      last_customer_at: c.last_customer_interactive_at ?? undefined,
      updated_at: c.updated_at ?? undefined,
    });
  }
  // Map keeps insertion order: the first keys are the least recently seen.
  for (const old of map.keys()) {
    if (map.size <= MAX_REMEMBERED) break;
    map.delete(old);
  }
}

/** Ids of remembered conversations (of one page, if given) starting with `typed`, most recently seen first (argument completion). */
export function recentConversationIds(client: MessagingClient, typed: string, max = 20, pageId?: string): string[] {
  const ids: string[] = [];
  for (const k of [...store(client).keys()].reverse()) {
    if (pageId !== undefined && !k.startsWith(`${pageId}/`)) continue;
    const conversationId = k.slice(k.indexOf("/") + 1);
    if (conversationId.startsWith(typed)) ids.push(conversationId);
    if (ids.length >= max) break;
  }
  return ids;
}

/** A customer message newer than the remembered one, read in the thread itself (`at`: record time). */
export function rememberCustomerMessage(client: MessagingClient, pageId: string, conversationId: string, at: string): void {
  const facts = store(client).get(key(pageId, conversationId));
  if (facts && (!facts.last_customer_at || recordMs(at) > recordMs(facts.last_customer_at))) facts.last_customer_at = at;
}

/** The page's remembered conversations that `test` keeps, most recently seen first. */
export function rememberedConversations(client: MessagingClient, pageId: string, test: (facts: ConversationFacts) => boolean): { id: string; facts: ConversationFacts }[] {
  return [...store(client)]
    .reverse()
    .filter(([k, facts]) => k.startsWith(`${pageId}/`) && test(facts))
    .map(([k, facts]) => ({ id: k.slice(pageId.length + 1), facts }));
}

/** What a list already told about a conversation, without reading anything. */
export function knownConversation(client: MessagingClient, pageId: string, conversationId: string): ConversationFacts | undefined {
  return store(client).get(key(pageId, conversationId));
}

/**
 * Refuses a send to the wrong kind of thread when its type is known (the upstream's own refusal
 * names its internal actions, not the tool to use). `kinds` are the types the tool sends to.
 */
export function requireKind(client: MessagingClient, pageId: string, conversationId: string, kinds: readonly string[], instead: string): void {
  const type = knownConversation(client, pageId, conversationId)?.type;
  if (type && !kinds.includes(type)) throw new InputError("conversation_id", `is a conversation of type ${type}`, instead);
}

export async function findConversation(client: MessagingClient, pageId: string, conversationId: string): Promise<ConversationFacts> {
  const found = await lookFor(client, pageId, () => store(client).get(key(pageId, conversationId)));
  if (found) return found;
  throw new NotFoundError(
    `conversation ${conversationId} is not among the ${SEARCH_PAGES * 60} most recently updated conversations of page ${pageId}`,
    "Check the id with list_conversations, or pass customer_id (and post_id for a private reply) from its record (detail \"full\").",
  );
}

/**
 * The id and facts of the page's most recently seen conversation with the customer the inbox
 * knows as `customerId` (conversation customer_id, or customers[].id), as findConversation looks.
 */
export async function findConversationOf(client: MessagingClient, pageId: string, customerId: string): Promise<{ id: string; facts: ConversationFacts }> {
  const remembered = () => rememberedConversations(client, pageId, (facts) => facts.customer_id === customerId || facts.page_customer_id === customerId)[0];
  const found = await lookFor(client, pageId, remembered);
  if (found) return found;
  throw new NotFoundError(
    `no conversation with customer ${customerId} among the ${SEARCH_PAGES * 60} most recently updated conversations of page ${pageId}`,
    "Find the conversation with list_conversations and pass its id.",
  );
}

/** What `find` finds in memory, else after reading the v2 list newest first, a page at a time. */
async function lookFor<T>(client: MessagingClient, pageId: string, find: () => T | undefined): Promise<T | undefined> {
  const known = find();
  if (known) return known;
  let last: string | undefined;
  for (let i = 0; i < SEARCH_PAGES; i++) {
    const { conversations } = await client.listConversations(pageId, last ? { last_conversation_id: last } : {});
    rememberConversations(client, pageId, conversations);
    const found = find();
    if (found) return found;
    if (conversations.length < 60) break;
    last = String(conversations[conversations.length - 1]!.id);
  }
  return undefined;
}
