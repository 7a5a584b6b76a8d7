import type { Conversation } from "../clients/schemas/messaging.js";
import type { PosOrder } from "../clients/schemas/pos.js";
import { id } from "../format/compact.js";
import { sideOf } from "../format/conversations.js";
import { conversationVersion, indexedConversation, preciseTime } from "./conversation-rows.js";
import { indexedOrder, unix } from "./order-rows.js";

// What the services push (webhooks) made into the rows the index keeps. Each is applied only when
// it is newer than what is held, at the precision the events carry (a message's microseconds, a
// conversation's version, an order's status history: orderVersion), so an event delivered twice,
// or late, changes nothing.

type Loose = Record<string, unknown>;
const rec = (value: unknown): Loose | undefined => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Loose) : undefined);

/**
 * The POS's `orders` webhook posts the order itself (WebhookOrderResponse): an order is an object
 * with an id, a status code, a shop and its times. Customers, products and stock posted to the
 * same address are not orders (undefined).
 */
export function pushedOrder(body: unknown): { shopId: string; order: PosOrder } | undefined {
  const o = rec(body);
  const shopId = id(o?.shop_id);
  if (!o || id(o.id) === undefined || shopId === undefined || typeof o.status !== "number" || unix(o.updated_at) === undefined || unix(o.inserted_at) === undefined) return undefined;
  return { shopId, order: indexedOrder(o as PosOrder) };
}

/** A record time to the list's form: seconds, no fraction, no zone. */
const listTime = (seconds: number) => new Date(Math.floor(seconds) * 1000).toISOString().slice(0, 19);

/**
 * A `messaging` event (a message received or sent) on the conversation held: it moves the
 * conversation's last activity, last sender and, when the customer wrote, their last message
 * time, as the list would show them. Ordered by the message's time to the microsecond (the list
 * has whole seconds: a customer's message and the page's reply often share one): undefined when
 * it is not newer than what is held (conversationVersion), so a message delivered again after the
 * reply, or late, changes nothing.
 */
export function afterMessage(held: Conversation, pageId: string, data: Loose): Conversation | undefined {
  const message = rec(data.message);
  const at = preciseTime(message?.inserted_at);
  if (!message || at === undefined || at <= conversationVersion(held)) return undefined;
  const from = rec(message.from) ?? {};
  const byCustomer = sideOf(from as { id?: unknown; admin_id?: unknown }, pageId) === "customer";
  const conversation = rec(data.conversation) ?? {};
  const second = listTime(at);
  return indexedConversation({
    ...held,
    updated_at: second,
    event_at: `${second}.${String(Math.round((at - Math.floor(at)) * 1e6)).padStart(6, "0")}`,
    last_sent_by: from,
    ...(byCustomer ? { last_customer_interactive_at: second } : {}),
    ...pick(conversation, ["snippet", "seen", "tags", "is_removed"]),
  } as Conversation);
}

/**
 * A `conversation` event (assignment, tags, read state, a new snippet), ordered by its `version`:
 * applied only when newer than the last one applied, as the webhook document says. The version
 * stays with the row (a message pushed after keeps it), so the same event again changes nothing.
 */
export function afterChange(held: Conversation, data: Loose): Conversation | undefined {
  const event = rec(data.conversation);
  const version = typeof event?.version === "number" ? event.version : undefined;
  const last = (held as Loose).version;
  if (!event || version === undefined || (typeof last === "number" && version <= last)) return undefined;
  return indexedConversation({ ...held, ...pick(event, ["snippet", "seen", "tags", "is_removed"]), version } as Conversation);
}

function pick(from: Loose, keys: readonly string[]): Loose {
  return Object.fromEntries(keys.filter((k) => from[k] !== undefined && from[k] !== null).map((k) => [k, from[k]]));
}
