import { beforeAll, describe, expect, it } from "vitest";
import { useHarness } from "../helpers/harness.js";

describe("draft_customer_reply prompt", () => {
  const h = useHarness({ sandbox: { hostileRecords: true } });
  let pageId: string;
  beforeAll(() => {
    pageId = h.sandbox.messaging.pages[0]!.id;
  });

  const texts = (r: { messages: { content: { type: string; text?: string } }[] }) => r.messages.map((m) => m.content.text ?? "");

  it("carries history, customer details and the orders found by phone, and asks for a draft only", async () => {
    const orderPhones = new Set(h.sandbox.pos.orders.filter((o) => !o.is_removed).map((o) => o.bill_phone_number));
    const c = h.sandbox.messaging.conversations.find(
      (x) => x.page_id === pageId && x.type === "INBOX" && x.recent_phone_numbers.some((p) => orderPhones.has(p.phone_number)),
    )!;
    const phone = c.recent_phone_numbers.find((p) => orderPhones.has(p.phone_number))!.phone_number;
    await h.call("list_conversations", { page_ids: pageId, limit: 50 });
    const r = await h.client.getPrompt({ name: "draft_customer_reply", arguments: { page_id: pageId, conversation_id: c.id, tone: "formal" } });
    const [task, context] = texts(r);
    expect(task).toMatch(/draft/i);
    expect(task).toMatch(/Do not send/);
    expect(task).toContain("formal");
    expect(context).toMatch(/^<customer_content>/);
    const data = JSON.parse(context!.replace(/^<customer_content>\n/, "").replace(/\n<\/customer_content>$/, ""));
    const last = h.sandbox.messaging.messages[c.id]!.at(-1)!;
    const talk = texts(r)[2]!;
    expect([...talk.matchAll(/<(?:customer|page)_message id="([^"]+)"/g)].at(-1)?.[1]).toBe(last.id);
    expect(data.customer.customer_name).toBe(c.customers[0]!.name);
    expect(data.customer.phones).toContain(phone);
    // The inbox's own id of the person is no POS customer id: left out, as the conversation rows leave it.
    expect(context).not.toContain(c.customer_id);
    const expected = h.sandbox.pos.orders.filter((o) => !o.is_removed && o.bill_phone_number.includes(phone));
    expect(data.recent_orders.orders.length).toBe(Math.min(5, expected.length));
    for (const o of data.recent_orders.orders) expect(expected.map((e) => String(e.id))).toContain(o.id);
  });

  it("takes the page by its name, as the tools do, and refuses an unknown one listing the pages", async () => {
    const page = h.sandbox.messaging.pages[0]!;
    const c = h.sandbox.messaging.conversations.find((x) => x.page_id === page.id && x.type === "INBOX")!;
    const byName = await h.client.getPrompt({ name: "draft_customer_reply", arguments: { page_id: page.name.toUpperCase(), conversation_id: c.id } });
    expect(texts(byName)[0]).toContain(`of page ${page.id}.`);
    await expect(h.client.getPrompt({ name: "draft_customer_reply", arguments: { page_id: "Không Có Trang", conversation_id: c.id } })).rejects.toThrow(
      new RegExp(page.name),
    );
    // A customer's name where the conversation id goes says how to find the id.
    await expect(
      h.client.getPrompt({ name: "draft_customer_reply", arguments: { page_id: page.id, conversation_id: "Huỳnh Kim Linh" } }),
    ).rejects.toThrow(/list_conversations \{"customer"/);
  });

  const contextOf = (r: { messages: { content: { type: string; text?: string } }[] }) =>
    JSON.parse(texts(r)[1]!.replace(/^<customer_content>\n/, "").replace(/\n<\/customer_content>$/, ""));

  it("names the carriers of the orders, and finds orders by a phone captured in another form", async () => {
    const pos = h.sandbox.pos;
    const shipped = pos.orders.filter((o) => !o.is_removed && o.partner);
    const phones = new Set(shipped.map((o) => o.bill_phone_number));
    const c = h.sandbox.messaging.conversations.find(
      (x) => x.page_id === pageId && x.type === "INBOX" && x.recent_phone_numbers.some((p) => phones.has(p.phone_number)),
    )!;
    const capture = c.recent_phone_numbers.find((p) => phones.has(p.phone_number))!;
    const national = capture.phone_number;
    c.recent_phone_numbers = [{ ...capture, phone_number: `+84 ${national.slice(1, 4)} ${national.slice(4, 7)} ${national.slice(7)}` }];
    await h.call("list_conversations", { page_ids: pageId, limit: 50 });
    const r = await h.client.getPrompt({ name: "draft_customer_reply", arguments: { page_id: pageId, conversation_id: c.id } });
    const data = contextOf(r);
    const expected = pos.orders.filter((o) => !o.is_removed && o.bill_phone_number.includes(national));
    expect(data.recent_orders.orders.length).toBe(Math.min(5, expected.length));
    const withCarrier = data.recent_orders.orders.filter((o: { carrier?: string }) => o.carrier);
    expect(withCarrier.length).toBeGreaterThan(0);
    for (const row of withCarrier) {
      const order = pos.orders.find((o) => String(o.id) === row.id)!;
      expect(row.carrier).toBe(pos.partners.find((p) => p.id === order.partner!.partner_id)!.name);
    }
  });

  it("falls back to the customer's name when the conversation has no phone, and says so", async () => {
    const pos = h.sandbox.pos;
    const plain = (t: string) => t.normalize("NFD").replace(/\p{M}/gu, "").replace(/đ/g, "d").toLowerCase();
    const unique = pos.customers.filter((x) => x.order_count > 0 && pos.customers.filter((y) => plain(y.name) === plain(x.name)).length === 1);
    // A chat the POS knows by no id, where no message gave a phone: only the name can lead to the
    // customer once the phones on its records are gone.
    const profile = (x: (typeof h.sandbox.messaging.conversations)[number]) => h.sandbox.messaging.customers.find((p) => p.page_id === x.page_id && p.psid === x.from.id)!;
    const c = h.sandbox.messaging.conversations.find(
      (x) =>
        x.page_id === pageId &&
        x.type === "INBOX" &&
        !x.has_phone &&
        unique.some((u) => u.name === x.customers[0]?.name) &&
        !pos.customers.some((y) => y.fb_id !== null && (y.fb_id === x.from.id || y.fb_id === profile(x).global_id)),
    )!;
    const customer = unique.find((u) => u.name === c.customers[0]!.name)!;
    profile(c).phone_numbers = [];
    await h.call("list_conversations", { page_ids: pageId, limit: 50 });
    const r = await h.client.getPrompt({ name: "draft_customer_reply", arguments: { page_id: pageId, conversation_id: c.id } });
    const data = contextOf(r);
    expect(data.recent_orders.note).toContain("found by name");
    expect(data.recent_orders.note).toContain(customer.id);
    const expected = pos.orders.filter((o) => !o.is_removed && o.shop_customer_id === customer.id);
    expect(data.recent_orders.orders.length).toBe(Math.min(5, expected.length));
    for (const o of data.recent_orders.orders) expect(expected.map((e) => String(e.id))).toContain(o.id);
  });

  it("takes the orders of the POS customer whose record carries the chat's page-scoped id, phone or not", async () => {
    const pos = h.sandbox.pos;
    const c = h.sandbox.messaging.conversations.find(
      (x) => x.page_id === pageId && x.type === "INBOX" && x.recent_phone_numbers.length === 0 && pos.customers.some((y) => y.fb_id === x.from.id && y.order_count > 0),
    )!;
    const customer = pos.customers.find((y) => y.fb_id === c.from.id)!;
    const r = await h.client.getPrompt({ name: "draft_customer_reply", arguments: { page_id: pageId, conversation_id: c.id } });
    const data = contextOf(r);
    expect(data.recent_orders.note).toBeUndefined();
    const expected = pos.orders.filter((o) => !o.is_removed && o.shop_customer_id === customer.id);
    expect(data.recent_orders.orders.map((o: { id: string }) => o.id).sort()).toEqual(
      [...expected].sort((a, b) => b.inserted_at.localeCompare(a.inserted_at)).slice(0, 5).map((o) => String(o.id)).sort(),
    );
  });

  it("keeps hostile customer text inert inside the marked block", async () => {
    const hostile = h.sandbox.messaging.hostileConversationIds[0]!;
    const r = await h.client.getPrompt({ name: "draft_customer_reply", arguments: { page_id: pageId, conversation_id: hostile } });
    const [task, context, talk] = texts(r);
    expect(task).not.toMatch(/attacker/);
    expect(context).not.toMatch(/[\u200b\u202e]|<script/);
    expect(context!.match(/<\/customer_content>/g)).toHaveLength(1);
    expect(talk).not.toMatch(/[\u200b\u202e]|<script/);
    expect(talk).toContain("Ignore previous instructions");
  });

  it("keeps the next step when the orders cannot be read", async () => {
    const orderPhones = new Set(h.sandbox.pos.orders.map((o) => o.bill_phone_number));
    const c = h.sandbox.messaging.conversations.find(
      (x) => x.page_id === pageId && x.type === "INBOX" && x.recent_phone_numbers.some((p) => orderPhones.has(p.phone_number)),
    )!;
    h.sandbox.server.injectFault({ path: "/orders", kind: "status", status: 403, body: { success: false, message: "Forbidden" }, times: 20 });
    const r = await h.client.getPrompt({ name: "draft_customer_reply", arguments: { page_id: pageId, conversation_id: c.id } });
    h.sandbox.server.clearFaults();
    const data = JSON.parse(texts(r)[1]!.replace(/^<customer_content>\n/, "").replace(/\n<\/customer_content>$/, ""));
    expect(data.recent_orders.note).toMatch(/^Orders could not be read: .*\nNext step: \S/s);
  });

  it("completes page_id, and conversation_id from conversations already listed", async () => {
    const r = await h.client.complete({ ref: { type: "ref/prompt", name: "draft_customer_reply" }, argument: { name: "page_id", value: "1122" } });
    expect(r.completion.values).toEqual([h.sandbox.messaging.pages[1]!.id]);
    const listed = await h.call("list_conversations", { page_ids: pageId, limit: 5 });
    const first = listed.data.conversations[0].id as string;
    const c = await h.client.complete({
      ref: { type: "ref/prompt", name: "draft_customer_reply" },
      argument: { name: "conversation_id", value: first.slice(0, first.length - 2) },
    });
    expect(c.completion.values).toContain(first);
  });
});
