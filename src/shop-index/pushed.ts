import type { Conversation } from "../clients/schemas/messaging.js";
import type { PosOrder } from "../clients/schemas/pos.js";
import { id } from "../format/compact.js";
import { sideOf } from "../format/conversations.js";
import { indexedConversation } from "./conversation-rows.js";
import { indexedOrder, unix } from "./order-rows.js";

// What the services push (webhooks) made into the rows the index keeps. Each is applied only when
// it is newer than what is held, so an event delivered twice, or late, changes nothing.

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

/** A record time to the list's form: seconds, no fraction, no zone (messages carry microseconds). */
const listTime = (value: unknown) => {
  const at = unix(value);
  return at === undefined ? undefined : new Date(at * 1000).toISOString().slice(0, 19);
};

/**
 * A `messaging` event (a message received or sent) on the conversation held: it moves the
 * conversation's last activity, last sender and, when the customer wrote, their last message
 * time, as the list would show them. Undefined when it is not newer than what is held.
 */
export function afterMessage(held: Conversation, pageId: string, data: Loose): Conversation | undefined {
  const message = rec(data.message);
  const at = listTime(message?.inserted_at);
  const heldAt = unix(held.updated_at) ?? 0;
  if (!message || at === undefined || unix(at)! < heldAt) return undefined;
  const from = rec(message.from) ?? {};
  const byCustomer = sideOf(from as { id?: unknown; admin_id?: unknown }, pageId) === "customer";
  const conversation = rec(data.conversation) ?? {};
  return indexedConversation({
    ...held,
    updated_at: at,
    last_sent_by: from,
    ...(byCustomer ? { last_customer_interactive_at: at } : {}),
    ...pick(conversation, ["snippet", "seen", "tags", "is_removed"]),
  } as Conversation);
}

/**
 * A `conversation` event (assignment, tags, read state, a new snippet), ordered by its `version`:
 * applied only when newer than the last one applied, as the webhook document says.
 */
export function afterChange(held: Conversation, data: Loose): Conversation | undefined {
  const event = rec(data.conversation);
  const version = typeof event?.version === "number" ? event.version : undefined;
  const last = (held as Loose).version;
  if (!event || version === undefined || (typeof last === "number" && version <= last)) return undefined;
  return { ...indexedConversation({ ...held, ...pick(event, ["snippet", "seen", "tags", "is_removed"]) } as Conversation), version } as Conversation;
}

function pick(from: Loose, keys: readonly string[]): Loose {
  return Object.fromEntries(keys.filter((k) => from[k] !== undefined && from[k] !== null).map((k) => [k, from[k]]));
}
