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
    const expected = h.sandbox.pos.orders.filter((o) => !o.is_removed && o.bill_phone_number.includes(phone));
    expect(data.recent_orders.orders.length).toBe(Math.min(5, expected.length));
    for (const o of data.recent_orders.orders) expect(expected.map((e) => String(e.id))).toContain(o.id);
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
