import { describe, expect, it } from "vitest";
import { appendMessage, buildMessage, customerSender } from "../../../src/sandbox/messaging/messages.js";
import type { ConversationRecord } from "../../../src/sandbox/messaging/types.js";
import type { CustomerRecord, OrderRecord } from "../../../src/sandbox/pos/index.js";
import { useHarness } from "../../helpers/harness.js";

// A chat's customer in the shop (search_customers conversation_id), the reverse (list_conversations
// customer as a POS customer), and the order made for a chat (create_order conversation_id). Every
// truth is read off the sandbox's raw records: which POS record carries the chat's ids or phones.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const inbox = () => h.sandbox.messaging;
const pos = () => h.sandbox.pos;
const fold = (t: string) => t.normalize("NFD").replace(/\p{M}/gu, "").replace(/đ/g, "d").replace(/Đ/g, "D").toLowerCase().trim();
const profile = (c: ConversationRecord) => inbox().customers.find((pc) => pc.page_id === c.page_id && pc.psid === c.from.id)!;
/** Every phone the chat's records hold: captured in its messages, or on the customer's profile. */
const chatPhones = (c: ConversationRecord) => new Set([...c.recent_phone_numbers.map((p) => p.phone_number), ...profile(c).phone_numbers]);
const bySocial = (c: ConversationRecord) => pos().customers.filter((x) => x.fb_id !== null && (x.fb_id === c.from.id || x.fb_id === profile(c).global_id));
const byPhone = (c: ConversationRecord) => pos().customers.filter((x) => x.phone_numbers.some((p) => chatPhones(c).has(p)));
const byName = (c: ConversationRecord) => pos().customers.filter((x) => fold(x.name) === fold(c.customers[0]!.name));
const chats = (type?: ConversationRecord["type"]) => inbox().conversations.filter((c) => !c.is_removed && (type === undefined || c.type === type));

/** Chats that link to the shop in exactly one way: `kind` names it. */
function chatsLinkedBy(kind: "psid" | "platform" | "phone" | "name" | "none"): ConversationRecord[] {
  const found = chats("INBOX").filter((c) => {
    const social = bySocial(c);
    const phone = byPhone(c);
    const name = byName(c);
    if (kind === "psid") return social.length === 1 && social[0]!.fb_id === c.from.id;
    if (kind === "platform") return social.length === 1 && social[0]!.fb_id === profile(c).global_id;
    if (kind === "phone") return social.length === 0 && phone.length === 1 && phone[0]!.fb_id === null;
    if (kind === "name") return social.length === 0 && phone.length === 0 && name.length > 0 && chatPhones(c).size === 0;
    return social.length === 0 && phone.length === 0 && name.length === 0;
  });
  if (!found.length) throw new Error(`the demo has no chat linked by ${kind}`);
  return found;
}
const chatLinkedBy = (kind: Parameters<typeof chatsLinkedBy>[0]) => chatsLinkedBy(kind)[0]!;

/** The customer's latest orders as the POS lists them (newest first), in the answer's form. */
function latest(customer: CustomerRecord) {
  return pos()
    .orders.filter((o) => o.shop_customer_id === customer.id && !o.is_removed)
    .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at) || b.id - a.id)
    .slice(0, 3)
    .map((o) => ({ number: `#${o.display_id}`, status: o.status, amount: o.total_price_after_sub_discount }));
}
type Row = { id: string; matched_by: string; matched_on?: string; confident?: boolean; latest_orders: { number: string; status_name: string; amount: number }[] };
const statusCode: Record<string, number> = { new: 0, confirmed: 1, shipped: 2, received: 3, returning: 4, returned: 5, canceled: 6, packing: 8, waiting_to_ship: 9, waiting_for_goods: 11, waiting_to_print: 12, printed: 13, partly_returned: 15, money_collected: 16, waiting_for_confirmation: 17, ordered: 20 };
const shown = (row: Row) => row.latest_orders.map((o) => ({ number: o.number, status: statusCode[o.status_name], amount: o.amount }));

describe("search_customers conversation_id: the chat's customer in the shop", () => {
  it("finds the POS customer whose record carries the chat's page-scoped id, with their latest orders", async () => {
    const c = chatLinkedBy("psid");
    const customer = bySocial(c)[0]!;
    const r = await h.call("search_customers", { conversation_id: c.id });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.customers.map((x: Row) => [x.id, x.matched_by, x.matched_on, x.confident])).toEqual([[customer.id, "social_id", c.from.id, undefined]]);
    expect(shown(r.data.customers[0])).toEqual(latest(customer));
    expect(r.data.chat).toMatchObject({ conversation_id: c.id, page_id: c.page_id, customer_name: c.customers[0]!.name });
  });

  it("finds the one whose record carries the platform-wide id the message list shows", async () => {
    const c = chatLinkedBy("platform");
    const customer = bySocial(c)[0]!;
    const r = await h.call("search_customers", { conversation_id: c.id });
    expect(r.data.customers.map((x: Row) => [x.id, x.matched_by, x.matched_on])).toEqual([[customer.id, "social_id", profile(c).global_id]]);
  });

  it("finds the one whose conversation_link names the chat's customer", async () => {
    const c = chatLinkedBy("name");
    const customer = byName(c)[0]!;
    const saved = customer.conversation_link;
    customer.conversation_link = `https://pancake.vn/${c.page_id}?customer_id=${c.customer_id}`;
    try {
      const r = await h.call("search_customers", { conversation_id: c.id });
      expect(r.data.customers[0]).toMatchObject({ id: customer.id, matched_by: "social_id", matched_on: c.customer_id });
      expect(r.data.customers[0].confident).toBeUndefined();
    } finally {
      customer.conversation_link = saved;
    }
  });

  it("finds the one with a phone the chat captured, surely when no other customer has it", async () => {
    const c = chatLinkedBy("phone");
    const customer = byPhone(c)[0]!;
    const r = await h.call("search_customers", { conversation_id: c.id });
    const phone = customer.phone_numbers.find((p) => chatPhones(c).has(p));
    expect(r.data.customers.map((x: Row) => [x.id, x.matched_by, x.matched_on, x.confident])).toEqual([[customer.id, "phone", phone, undefined]]);
    expect(shown(r.data.customers[0])).toEqual(latest(customer));
  });

  it("offers customers with the same name only unconfidently, and says so", async () => {
    const c = chatLinkedBy("name");
    const r = await h.call("search_customers", { conversation_id: c.id });
    expect(r.data.customers.map((x: Row) => x.id).sort()).toEqual(byName(c).map((x) => x.id).sort());
    for (const row of r.data.customers) expect(row).toMatchObject({ matched_by: "name", confident: false });
    expect(r.data.note).toMatch(/name only/);
  });

  it("answers a chat no POS customer matches with an empty list and why, not an error", async () => {
    const c = chatLinkedBy("none");
    const r = await h.call("search_customers", { conversation_id: c.id });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.customers).toEqual([]);
    expect(r.data.total).toBe(0);
    expect(r.data.note).toContain("no POS customer among those the POS finds by this chat's phones");
  });

  it("says what it searched: a POS record with the chat's id but neither its phone nor its name is not found (the POS search takes a keyword, not a chat's id)", async () => {
    const c = chatLinkedBy("none");
    const stranger = pos().customers.find((x) => x.fb_id === null && !x.phone_numbers.some((p) => chatPhones(c).has(p)) && fold(x.name) !== fold(c.customers[0]!.name))!;
    stranger.fb_id = c.from.id;
    try {
      const r = await h.call("search_customers", { conversation_id: c.id });
      expect(r.data.customers).toEqual([]);
      expect(r.data.note).toContain("its search does not look up a chat's ids");
    } finally {
      stranger.fb_id = null;
    }
  });

  it("says when a phone the chat captured is on several customers, none of them sure", async () => {
    const c = chatLinkedBy("phone");
    const holder = byPhone(c)[0]!;
    const phone = holder.phone_numbers.find((p) => chatPhones(c).has(p))!;
    const saved = await h.call("save_customer", { name: "Trần Văn Bảo", phone_numbers: [phone] });
    expect(saved.isError, saved.text).toBe(false);
    const r = await h.call("search_customers", { conversation_id: c.id });
    expect(r.data.customers.map((x: Row) => x.id).sort()).toEqual([holder.id, saved.data.id].sort());
    // The one whose name is the chat's is still sure; the other shares only the phone.
    const sure = r.data.customers.filter((x: Row) => x.confident !== false).map((x: Row) => x.id);
    expect(sure).toEqual(fold(holder.name) === fold(c.customers[0]!.name) ? [holder.id] : []);
    expect(r.data.note).toContain("share the chat's phone");
  });

  it("reads a phone the customer wrote in a message in a form the inbox does not catch", async () => {
    const c = chatsLinkedBy("name").at(-1)!;
    const customer = byName(c)[0]!;
    const phone = customer.phone_numbers[0]!;
    const written = `sdt của em: ${phone.slice(0, 4)}-${phone.slice(4, 7)}-${phone.slice(7)} nhé`;
    const list = inbox().messages[c.id]!;
    appendMessage(list, c, buildMessage({ id: `m_written_${c.id}`, conversation: c, from: customerSender(c), text: written, at: Date.now() - 60_000 }));
    expect(list.at(-1)!.has_phone).toBe(false);
    const r = await h.call("search_customers", { conversation_id: c.id });
    expect(r.data.customers[0]).toMatchObject({ id: customer.id, matched_by: "phone", matched_on: phone });
    expect(r.data.chat.phones).toContain(phone);
  });

  it("takes the chat as tools and people give it: its id, the customer's page-scoped id with the page's name, the POS customer's link", async () => {
    // The link names the chat's customer: one with no other chat on the page, so it names this chat.
    const c = chatsLinkedBy("psid").find((x) => chats().filter((y) => y.page_id === x.page_id && y.customer_id === x.customer_id).length === 1)!;
    const customer = bySocial(c)[0]!;
    const page = inbox().pages.find((p) => p.id === c.page_id)!;
    const psid = c.id.slice(c.page_id.length + 1);
    const link = `https://pancake.vn/${c.page_id}?customer_id=${c.customer_id}`;
    for (const args of [{ conversation_id: ` ${c.id} ` }, { conversation_id: psid, page_id: page.name }, { conversation_id: c.id, page_id: c.page_id }, { conversation_id: link }]) {
      const r = await h.call("search_customers", args);
      expect(r.isError, `${JSON.stringify(args)}: ${r.text}`).toBe(false);
      expect(r.data.chat.conversation_id, JSON.stringify(args)).toBe(c.id);
      expect(r.data.customers.map((x: Row) => x.id)).toEqual([customer.id]);
    }
  });

  it("finds a comment thread by its id with its page, and asks for the page when the id does not name it", async () => {
    const c = chats("COMMENT").find((x) => x.page_id !== inbox().pages[0]!.id)!;
    const r = await h.call("search_customers", { conversation_id: c.id, page_id: c.page_id });
    expect(r.data.chat).toMatchObject({ conversation_id: c.id, page_id: c.page_id });
    const unknown = await h.call("search_customers", { conversation_id: "1000000999999_123456789012" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/page_id/);
    const name = await h.call("search_customers", { conversation_id: "Nguyễn Thị Lan" });
    expect(name.isError).toBe(true);
    expect(name.text).toMatch(/list_conversations/);
  });

  it("refuses filters that do not combine with a chat, and a page without a chat", async () => {
    const c = chatLinkedBy("psid");
    const both = await h.call("search_customers", { conversation_id: c.id, search: "Lan" });
    expect(both.isError).toBe(true);
    expect(both.text).toMatch(/search.*conversation_id/);
    const page = await h.call("search_customers", { page_id: c.page_id, search: "Lan" });
    expect(page.isError).toBe(true);
    expect(page.text).toContain("conversation_id");
  });
});

describe("list_conversations customer: a POS customer's chats", () => {
  /** The chats a POS record points to: by its phones, its chat id, or the inbox customer its link names. */
  const chatsOf = (x: CustomerRecord) => {
    const linked = x.conversation_link ? new URL(x.conversation_link).searchParams.get("customer_id") : null;
    return chats()
      .filter(
        (c) =>
          c.recent_phone_numbers.some((p) => x.phone_numbers.includes(p.phone_number)) || (x.fb_id !== null && c.from.id === x.fb_id) || c.customer_id === linked,
      )
      .map((c) => c.id)
      .sort();
  };

  it("finds them by the POS customer's id, through the phones and chat ids on the record", async () => {
    const customer = pos().customers.find((x) => x.fb_id !== null && chatsOf(x).length >= 2 && byName(chats().find((c) => c.from.id === x.fb_id)!).length === 1)!;
    const r = await h.call("list_conversations", { customer: customer.id });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.conversations.map((c: { id: string }) => c.id).sort()).toEqual(chatsOf(customer));
    expect(r.data.note).toContain(customer.id);
  });

  it("finds by a phone the chats of the POS customer holding it, even those that never captured it", async () => {
    const customer = pos().customers.find((x) => x.fb_id !== null && chats().some((c) => c.from.id === x.fb_id && !c.recent_phone_numbers.some((p) => x.phone_numbers.includes(p.phone_number))))!;
    const r = await h.call("list_conversations", { customer: customer.phone_numbers[0] });
    expect(r.data.conversations.map((c: { id: string }) => c.id).sort()).toEqual(chatsOf(customer));
  });

  it("still matches a phone by the chats that captured it when the POS cannot be read, and says so", async () => {
    const c = chats().find((x) => x.recent_phone_numbers.length > 0)!;
    const phone = c.recent_phone_numbers[0]!.phone_number;
    h.sandbox.server.injectFault({ path: "/customers", kind: "status", status: 502, body: { success: false, message: "Bad gateway" }, times: 10 });
    try {
      const r = await h.call("list_conversations", { customer: phone });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.conversations.map((x: { id: string }) => x.id).sort()).toEqual(chats().filter((x) => x.recent_phone_numbers.some((p) => p.phone_number === phone)).map((x) => x.id).sort());
      expect(r.data.note).toContain("the POS could not be read");
    } finally {
      h.sandbox.server.clearFaults();
    }
  });

  it("takes the inbox's own customer id from a conversation row too", async () => {
    const c = chatLinkedBy("none");
    const r = await h.call("list_conversations", { customer: c.customer_id });
    const theirs = chats().filter((x) => x.customer_id === c.customer_id);
    // Latest activity first, as every list of conversations.
    expect(r.data.conversations.map((x: { id: string }) => x.id)).toEqual(theirs.sort((a, b) => b.updated_at.localeCompare(a.updated_at)).map((x) => x.id));
    expect(r.data.note).toContain("inbox's customer id");
  });
});

describe("create_order conversation_id: the order made in a chat", () => {
  const orderOf = (id: string) => pos().orders.find((o) => String(o.id) === id) as OrderRecord;
  const item = () => pos().variations.find((v) => v.remain_quantity > 5)!;

  it("fills the receiver from the chat's POS customer, links the order to the chat, and the chat's lookup then shows it", async () => {
    const c = chatLinkedBy("psid");
    const customer = bySocial(c)[0]!;
    const r = await h.call("create_order", { conversation_id: c.id, items: [{ variation_id: item().id, quantity: 1 }] });
    expect(r.isError, r.text).toBe(false);
    const order = orderOf(r.data.id);
    const home = customer.shop_customer_address[0]!;
    expect(order).toMatchObject({ conversation_id: c.id, page_id: c.page_id, shop_customer_id: customer.id, bill_full_name: customer.name, bill_phone_number: customer.phone_numbers[0] });
    expect(order.shipping_address.commune_id).toBe(home.commune_id);
    expect(r.data.chat).toMatchObject({ conversation_id: c.id, page_id: c.page_id, customer_id: customer.id, matched_by: "social_id" });
    expect(r.data.defaults.join("\n")).toMatch(/name, phone, address from the record of .*by social_id/);
    const after = await h.call("search_customers", { conversation_id: c.id });
    expect(after.data.customers[0].latest_orders[0].number).toBe(`#${order.display_id}`);
  });

  it("takes the receiver from what the chat captured when no POS customer is sure, and the new customer then matches the chat", async () => {
    const c = chats("INBOX").find((x) => bySocial(x).length === 0 && byPhone(x).length === 0 && x.recent_phone_numbers.length > 0)!;
    const phone = c.recent_phone_numbers[0]!.phone_number;
    const commune = pos().geo.communes[3]!;
    profile(c).shop_customer_addresses = [
      { full_name: c.customers[0]!.name, phone_number: phone, address: "12 Lê Lợi", full_address: "12 Lê Lợi", province_id: commune.province_id, district_id: commune.district_id, commune_id: commune.id },
    ];
    const before = h.sandbox.server.requests.length;
    const r = await h.call("create_order", { conversation_id: c.id, items: [{ variation_id: item().id, quantity: 2 }] });
    expect(r.isError, r.text).toBe(false);
    // The chat's phone is searched once, with the chat, not again for the receiver.
    const searched = h.sandbox.server.requests.slice(before).filter((q) => q.method === "GET" && q.path.endsWith("/customers") && q.query.search?.[0] === phone);
    expect(searched).toHaveLength(1);
    const order = orderOf(r.data.id);
    expect(order).toMatchObject({ conversation_id: c.id, page_id: c.page_id, bill_full_name: c.customers[0]!.name, bill_phone_number: phone });
    expect(order.shipping_address).toMatchObject({ commune_id: commune.id, address: "12 Lê Lợi" });
    expect(r.data.defaults.join("\n")).toContain("name, phone, address from the chat");
    const after = await h.call("search_customers", { conversation_id: c.id });
    expect(after.data.customers.map((x: Row) => [x.id, x.latest_orders[0]?.number])).toEqual([[order.shop_customer_id, `#${order.display_id}`]]);
  });

  it("sells through the chat's page: an Instagram chat's order has the Instagram source and its page", async () => {
    const ig = inbox().pages.find((p) => p.platform === "instagram_official")!;
    const c = chats("INBOX").find((x) => x.page_id === ig.id && bySocial(x).length === 1)!;
    const r = await h.call("create_order", { conversation_id: c.id, items: [{ variation_id: item().id, quantity: 1 }] });
    expect(r.isError, r.text).toBe(false);
    const order = orderOf(r.data.id);
    const source = pos().orderSources.find((s) => String(s.id) === order.order_sources)!;
    expect(source.name).toBe("Instagram");
    expect(order).toMatchObject({ page_id: ig.id, conversation_id: c.id });
    expect(r.data.defaults?.join("\n") ?? "").not.toMatch(/source/);
  });

  it("refuses to guess between two sure customers of the chat, naming them", async () => {
    const c = chatLinkedBy("phone");
    const holder = byPhone(c)[0]!;
    const phone = holder.phone_numbers.find((p) => chatPhones(c).has(p))!;
    const twin = await h.call("save_customer", { name: c.customers[0]!.name, phone_numbers: [phone] });
    expect(twin.isError, twin.text).toBe(false);
    const before = pos().orders.length;
    const r = await h.call("create_order", { conversation_id: c.id, items: [{ variation_id: item().id, quantity: 1 }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("customer_id");
    expect(pos().orders.length).toBe(before);
    const chosen = await h.call("create_order", { conversation_id: c.id, customer_id: holder.id, items: [{ variation_id: item().id, quantity: 1 }] });
    expect(orderOf(chosen.data.id)).toMatchObject({ shop_customer_id: holder.id, conversation_id: c.id });
  });
});
