import { normalizePhone } from "../../src/format/phone.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import type { ConversationRecord } from "../../src/sandbox/messaging/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/types.js";

// The truth of "what did this chat's customer buy", from the sandbox's raw records alone: a chat
// and an order are linked when the order names the chat, when the order's customer carries the
// chat's customer's id on the platform, or when the order's bill phone is one the chat captured;
// only sales count (not canceled, deleted or removed). Written apart from the server's join.

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

/** How a chat reaches an order, strongest first; undefined when it does not. */
export function linkOf(c: ConversationRecord, o: OrderRecord): By | undefined {
  const socials = new Set([c.customers[0]?.fb_id, c.from_psid, c.from?.id].filter((x): x is string => !!x));
  const phones = new Set(c.recent_phone_numbers.map((p) => normalizePhone(p.phone_number)).filter((p): p is string => !!p));
  if (o.conversation_id !== null && o.conversation_id === c.id) return "order link";
  if (o.customer?.fb_id && socials.has(o.customer.fb_id)) return "social id";
  const bill = normalizePhone(o.bill_phone_number);
  if (bill && phones.has(bill)) return "phone";
  return undefined;
}

/** The sales linked to a chat created within [from, to] (UTC ms; either end open), each with its strongest link. */
export function salesOf(sandbox: Sandbox, c: ConversationRecord, from = Number.NEGATIVE_INFINITY, to = Number.POSITIVE_INFINITY): { order: OrderRecord; by: By }[] {
  return sandbox.pos.orders.flatMap((order) => {
    if (!isSale(order)) return [];
    const created = at(order.inserted_at);
    if (created < from || created > to) return [];
    const by = linkOf(c, order);
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
