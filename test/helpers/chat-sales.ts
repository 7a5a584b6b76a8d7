import { normalizePhone } from "../../src/format/phone.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import type { ConversationRecord } from "../../src/sandbox/messaging/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/types.js";

// The truth of "what did this chat's customer buy", from the sandbox's raw records alone: a chat
// and an order are linked when the order names the chat, when the order's customer carries the
// chat's customer's id on the platform (the psid the chat shows, the person's global id its page
// customer holds, or a psid of that global id on another page), or when the order's bill phone is
// one the chat captured or its page customer holds; only sales count (not canceled, deleted or
// removed). Written apart from the server's join.

export type By = "order link" | "social id" | "phone";

/** Record times are UTC without a suffix. */
export const at = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);

/** The shop's zone in the tests (the server's default, Asia/Ho_Chi_Minh): UTC+7 all year. */
const SHOP_OFFSET_MS = 7 * 3_600_000;

/** Start of the shop's day `days` from today (UTC ms). */
export function shopDay(days: number): number {
  const d = new Date(Date.now() + SHOP_OFFSET_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days) - SHOP_OFFSET_MS;
}

/** Last week, Monday to Sunday in the shop's calendar: [start, end) in UTC ms. */
export function lastWeek(): [number, number] {
  const d = new Date(Date.now() + SHOP_OFFSET_MS);
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  const monday = shopDay(-sinceMonday);
  return [monday - 7 * 86_400_000, monday];
}

/** Sales: orders listed, neither canceled (6) nor deleted (7). */
export const isSale = (o: OrderRecord) => !o.is_removed && o.status !== 6 && o.status !== 7;

/** What a chat is linked to orders by: its own id, its customer's platform ids and the phones the inbox caught of them. */
export function chatIds(sandbox: Sandbox, c: ConversationRecord): { id: string; socials: Set<string>; phones: Set<string> } {
  const own = [c.customers[0]?.fb_id, c.from_psid, c.from?.id].filter((x): x is string => !!x);
  const profile = sandbox.messaging.customers.find((p) => p.page_id === c.page_id && p.psid === own[0]);
  const global = profile?.global_id ?? undefined;
  // One person, one global id: their psids and the phones they left on every page.
  const same = global ? sandbox.messaging.customers.filter((p) => p.global_id === global) : profile ? [profile] : [];
  const elsewhere = global ? same.map((p) => p.psid) : [];
  const caught = [...c.recent_phone_numbers.map((p) => p.phone_number), ...same.flatMap((p) => p.phone_numbers ?? [])];
  return {
    id: c.id,
    socials: new Set([...own, ...(global ? [global] : []), ...elsewhere]),
    phones: new Set(caught.map((p) => normalizePhone(p)).filter((p): p is string => !!p)),
  };
}

/** How a chat reaches an order, strongest first; undefined when it does not. */
export function linkOf(chat: ReturnType<typeof chatIds>, o: OrderRecord): By | undefined {
  if (o.conversation_id !== null && o.conversation_id === chat.id) return "order link";
  if (o.customer?.fb_id && chat.socials.has(o.customer.fb_id)) return "social id";
  const bill = normalizePhone(o.bill_phone_number);
  if (bill && chat.phones.has(bill)) return "phone";
  return undefined;
}

/** The sales linked to a chat created within [from, to] (UTC ms; either end open), each with its strongest link. */
export function salesOf(sandbox: Sandbox, c: ConversationRecord, from = Number.NEGATIVE_INFINITY, to = Number.POSITIVE_INFINITY): { order: OrderRecord; by: By }[] {
  const chat = chatIds(sandbox, c);
  return sandbox.pos.orders.flatMap((order) => {
    if (!isSale(order)) return [];
    const created = at(order.inserted_at);
    if (created < from || created > to) return [];
    const by = linkOf(chat, order);
    return by ? [{ order, by }] : [];
  });
}

/** When the customer last wrote in the chat (UTC ms), from its messages. */
export function customerWroteAt(sandbox: Sandbox, c: ConversationRecord): number | undefined {
  const pageId = c.page_id;
  const theirs = (sandbox.messaging.messages[c.id] ?? []).filter((m) => m.from.admin_id === undefined && m.from.id !== pageId);
  const last = theirs.at(-1);
  return last ? at(last.inserted_at) : undefined;
}

export const RANK: By[] = ["order link", "social id", "phone"];
