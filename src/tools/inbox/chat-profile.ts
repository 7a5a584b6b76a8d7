import { InputError } from "../../clients/errors.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { Message } from "../../clients/schemas/messaging.js";
import { id } from "../../format/compact.js";
import { sideOf } from "../../format/conversations.js";
import { normalizePhone, phonesInText } from "../../format/phone.js";
import { findConversation, findConversationOf, knownConversation, phonesOf } from "./conversation-lookup.js";
import { readMessages } from "./list-messages.js";

/**
 * A chat as the inbox knows its customer: the ids and phones the POS can be searched with
 * (pos/chat-customers.ts). Where each comes from, in the messaging OpenAPI:
 * - `psid`: the conversation's customers[].fb_id ("Facebook ID / PSID"), else from.id;
 * - `globalId`: the message list's customers[].global_id ("Customer's global Facebook ID");
 * - `customerId`: the conversation's customer_id ("Global customer ID"), and `pageCustomerId` its
 *   customers[].id ("Page-customer ID");
 * - `phones`: the conversation's recent_phone_numbers, the message list's recent_phone_numbers
 *   (the customer's), conv_phone_numbers and customers[].recent_phone_numbers, each message's
 *   phone_info, and numbers the customer wrote in a form the inbox does not catch;
 * - `addresses`: the message list's customers[].shop_customer_addresses (saved from the chat).
 */
export interface Chat {
  pageId: string;
  conversationId: string;
  type?: string;
  postId?: string;
  /** The customer's name as the inbox shows it. Untrusted: sanitize before showing. */
  name?: string;
  psid?: string;
  globalId?: string;
  customerId?: string;
  pageCustomerId?: string;
  /** National form, without repeats. */
  phones: string[];
  addresses: ChatAddress[];
  /** The newest messages read (READ_MESSAGES unless asked for fewer), oldest first. */
  messages: Message[];
}

/** Untrusted: typed by the customer or staff. */
interface ChatAddress {
  full_name?: string;
  phone_number?: string;
  address?: string;
  full_address?: string;
  province_id?: string;
  district_id?: string;
  commune_id?: string;
}

/** Messages read for the phones a customer wrote: a chat's number is given early or late, rarely deep in between. */
const READ_MESSAGES = 80;
const PLAIN_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

type Loose = Record<string, unknown>;
const rec = (value: unknown): Loose => (typeof value === "object" && value !== null ? (value as Loose) : {});

/**
 * What a POS customer's conversation_link names ("https://pancake.vn/<page id>?customer_id=<id>",
 * the POS OpenAPI's Customer example): the page, and the inbox customer on it.
 */
export function conversationLink(link: unknown): { page?: string; customer?: string } | undefined {
  if (typeof link !== "string") return undefined;
  try {
    const url = new URL(link);
    return { page: url.pathname.split("/").find(Boolean), customer: url.searchParams.get("customer_id") ?? undefined };
  } catch {
    return undefined;
  }
}

/**
 * The chat `given` names, in the forms people and tools give it: a conversation id as
 * list_conversations and POS orders show it ("<page id>_<psid>" for an inbox thread, which names
 * its page), a customer's page-scoped id with its page, or the POS customer's conversation_link
 * ("https://pancake.vn/<page id>?customer_id=<id>", the POS OpenAPI's Customer example). `newest`
 * messages are read (fewer, fewer calls: 20 take one).
 */
export async function readChat(client: MessagingClient, given: string, pageId: string | undefined, newest = READ_MESSAGES): Promise<Chat> {
  const typed = given.trim();
  const { page, conversationId, facts } = /^https?:\/\//i.test(typed) ? await fromLink(client, typed, pageId) : await fromId(client, typed, pageId);
  const window = facts.customer_id ? await readMessages(client, page, conversationId, facts.customer_id, 0, newest) : undefined;
  const context = window?.context ?? {};
  const person = rec(Array.isArray(context.customers) ? context.customers[0] : undefined);
  const written = (window?.messages ?? []).filter((m) => sideOf(m.from, page) === "customer");
  const phones = [
    ...facts.phones,
    ...phonesOf(context.recent_phone_numbers as unknown[] | undefined),
    ...phonesOf(context.conv_phone_numbers as unknown[] | undefined),
    ...phonesOf(person.recent_phone_numbers as unknown[] | undefined),
    ...phonesOf(written.flatMap((m) => m.phone_info ?? [])),
    ...written.flatMap((m) => phonesInText(m.original_message ?? m.message)),
  ];
  const addresses = (Array.isArray(person.shop_customer_addresses) ? person.shop_customer_addresses : []).map((raw) => {
    const a = rec(raw);
    // An empty field of a saved address is no field (an empty commune_id is no place).
    const pick = (k: string) => id(a[k]) || undefined;
    return { full_name: pick("full_name"), phone_number: pick("phone_number"), address: pick("address"), full_address: pick("full_address"), province_id: pick("province_id"), district_id: pick("district_id"), commune_id: pick("commune_id") };
  });
  return {
    pageId: page,
    conversationId,
    type: facts.type,
    postId: facts.post_id,
    name: facts.customer_name ?? id(person.name),
    psid: facts.psid,
    globalId: id(person.global_id),
    customerId: facts.customer_id ?? id(person.customer_id),
    pageCustomerId: facts.page_customer_id,
    phones: [...new Set(phones.map((p) => normalizePhone(p)).filter((p): p is string => p !== undefined))],
    addresses: addresses.filter((a) => a.address || a.full_address || a.commune_id),
    messages: window?.messages ?? [],
  };
}

/** A conversation id, with its page given or read from the id. */
async function fromId(client: MessagingClient, typed: string, pageId: string | undefined) {
  if (!PLAIN_ID.test(typed)) {
    throw new InputError("conversation_id", `${JSON.stringify(typed.slice(0, 60))} is not a conversation id`, 'Find the conversation with list_conversations {"customer": "<name or phone>"} and pass its id.');
  }
  const page = pageId ?? (await pageOf(client, typed));
  // A bare page-scoped id names the customer's inbox thread on the page: "<page id>_<psid>".
  const conversationId = /^\d+$/.test(typed) && !typed.startsWith(`${page}_`) ? `${page}_${typed}` : typed;
  return { page, conversationId, facts: await findConversation(client, page, conversationId) };
}

/** The POS customer's conversation_link: its page, and the customer's latest conversation there. */
async function fromLink(client: MessagingClient, typed: string, pageId: string | undefined) {
  const link = conversationLink(typed);
  if (!link) throw new InputError("conversation_id", "is not a valid link", "Pass the conversation's id from list_conversations.");
  const { customer = "", page: linkPage } = link;
  if (!PLAIN_ID.test(customer) || !linkPage || !PLAIN_ID.test(linkPage)) {
    throw new InputError("conversation_id", "a link names a chat as https://pancake.vn/<page id>?customer_id=<id> (a POS customer's conversation_link)", "Pass the conversation's id from list_conversations.");
  }
  const page = pageId ?? (await client.resolvePage(linkPage, "conversation_id"));
  const found = await findConversationOf(client, page, customer);
  return { page, conversationId: found.id, facts: found.facts };
}

/** The page of a conversation id: the one it starts with, else the one a list showed it on. */
async function pageOf(client: MessagingClient, conversationId: string): Promise<string> {
  const pages = await client.activePageIds();
  const page =
    pages.find((p) => conversationId.startsWith(`${p}_`)) ??
    pages.find((p) => knownConversation(client, p, conversationId) !== undefined) ??
    (pages.length === 1 ? pages[0] : undefined);
  if (page) return page;
  throw new InputError("page_id", `conversation ${conversationId} does not name its page (a comment thread's id names its post)`, "Pass page_id: the page's id or name, as the conversation's row shows it.");
}
