import type { Sandbox } from "../../src/sandbox/index.js";
import type { ConversationRecord } from "../../src/sandbox/messaging/types.js";
import type { CustomerRecord, OrderRecord } from "../../src/sandbox/pos/types.js";
import type { Scenario } from "./framework.js";

// Questions that cross the inbox and the shop: the customer in a chat, what they bought, a POS
// customer's chats, and the order made for a chat. The truth is which POS record carries the
// chat's page-scoped id or a phone the chat captured, read off the raw records.

const fold = (t: string) => t.normalize("NFD").replace(/\p{M}/gu, "").replace(/đ/g, "d").replace(/Đ/g, "D").toLowerCase().trim();
const inboxChats = (s: Sandbox) => s.messaging.conversations.filter((c) => c.type === "INBOX" && !c.is_removed);
const ordersOf = (s: Sandbox, customer: CustomerRecord) =>
  s.pos.orders.filter((o) => o.shop_customer_id === customer.id && !o.is_removed).sort((a, b) => b.inserted_at.localeCompare(a.inserted_at) || b.id - a.id);

/** The POS customer whose record carries the chat's page-scoped id. */
const posCustomerOf = (s: Sandbox, c: ConversationRecord) => s.pos.customers.find((x) => x.fb_id === c.from.id);

/** Chats whose customer the POS knows by the chat's id and who has bought: the `n`th from the start or, negative, the end. */
function buyerChat(s: Sandbox, n: number): { c: ConversationRecord; customer: CustomerRecord } {
  const chats = inboxChats(s).filter((c) => {
    const customer = posCustomerOf(s, c);
    return customer !== undefined && ordersOf(s, customer).length > 0;
  });
  const c = chats.at(n)!;
  return { c, customer: posCustomerOf(s, c)! };
}

/** A chat whose customer the POS has only under the same name: a phone or id would have settled it. */
const namesakeChat = (s: Sandbox) =>
  inboxChats(s).find((c) => {
    const profile = s.messaging.customers.find((p) => p.page_id === c.page_id && p.psid === c.from.id)!;
    const phones = new Set([...c.recent_phone_numbers.map((p) => p.phone_number), ...profile.phone_numbers]);
    const linked = s.pos.customers.some((x) => (x.fb_id !== null && (x.fb_id === c.from.id || x.fb_id === profile.global_id)) || x.phone_numbers.some((p) => phones.has(p)));
    return !linked && phones.size === 0 && s.pos.customers.some((x) => fold(x.name) === fold(c.customers[0]!.name));
  })!;

const itemsText = (o: OrderRecord) => o.items.map((it) => `${it.variation_info.name}${it.variation_info.detail ? ` (${it.variation_info.detail})` : ""} ×${it.quantity}`);

export const chatToShopScenarios: Scenario<unknown>[] = [
  {
    question: "Does the customer in this chat have orders with us?",
    async ask(q) {
      const r = await q.call("search_customers", { conversation_id: buyerChat(q.sandbox, 0).c.id });
      const [customer] = r.data.customers;
      return { customer: customer.id, sure: customer.matched_by === "social_id" && customer.confident !== false, orders: customer.order_count };
    },
    truth: (s) => {
      const { customer } = buyerChat(s, 0);
      return { customer: customer.id, sure: true, orders: ordersOf(s, customer).length };
    },
  },
  {
    question: "What did she last buy?",
    async ask(q) {
      const r = await q.call("search_customers", { conversation_id: buyerChat(q.sandbox, 5).c.id });
      const [last] = r.data.customers[0].latest_orders;
      return { number: last.number, items: last.items };
    },
    truth: (s) => {
      const [last] = ordersOf(s, buyerChat(s, 5).customer);
      return { number: `#${last!.display_id}`, items: itemsText(last!) };
    },
  },
  {
    question: "Is the person in this chat someone we already sold to, or just someone with the same name?",
    async ask(q) {
      const r = await q.call("search_customers", { conversation_id: namesakeChat(q.sandbox).id });
      return r.data.customers.map((c: { id: string; matched_by: string; confident?: boolean }) => `${c.id} ${c.matched_by} ${c.confident !== false}`).sort();
    },
    truth: (s) => {
      const name = fold(namesakeChat(s).customers[0]!.name);
      return s.pos.customers.filter((x) => fold(x.name) === name).map((x) => `${x.id} name false`).sort();
    },
  },
  {
    question: "Which chats does POS customer X have?",
    async ask(q) {
      const { customer } = buyerChat(q.sandbox, 2);
      const r = await q.call("list_conversations", { customer: customer.id });
      return r.data.conversations.map((c: { id: string }) => c.id).sort();
    },
    truth: (s) => {
      const { customer } = buyerChat(s, 2);
      return s.messaging.conversations
        .filter((c) => !c.is_removed && (c.from.id === customer.fb_id || c.recent_phone_numbers.some((p) => customer.phone_numbers.includes(p.phone_number))))
        .map((c) => c.id)
        .sort();
    },
  },
  {
    question: "Create the order for this chat: one of SKU X.",
    async ask(q) {
      const { c } = buyerChat(q.sandbox, -1);
      const sku = q.sandbox.pos.variations.find((v) => v.remain_quantity > 5)!.display_id;
      const r = await q.call("create_order", { conversation_id: c.id, items: [{ product: sku, quantity: 1 }] });
      const order = q.sandbox.pos.orders.find((o) => String(o.id) === r.data.id)!;
      return { conversation: order.conversation_id, page: order.page_id, customer: order.shop_customer_id, phone: order.bill_phone_number, commune: order.shipping_address.commune_id };
    },
    truth: (s) => {
      const { c, customer } = buyerChat(s, -1);
      return { conversation: c.id, page: c.page_id, customer: customer.id, phone: customer.phone_numbers[0], commune: customer.shop_customer_address[0]!.commune_id };
    },
  },
];
