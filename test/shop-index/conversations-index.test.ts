import { describe, expect, it } from "vitest";
import type { ConversationRecord } from "../../src/sandbox/messaging/index.js";
import { useHarness } from "../helpers/harness.js";

// The conversation index: who awaits a reply, of all time, counted from every conversation of
// every page, and kept in step as customers write and staff answer.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);

/** Conversations of the active pages whose last message is the customer's. */
function waiting(): ConversationRecord[] {
  const s = h.sandbox.messaging;
  const active = new Set(s.pages.map((p) => p.id));
  return s.conversations.filter((c) => active.has(c.page_id) && s.messages[c.id]?.at(-1)?.from.admin_id === undefined && (s.messages[c.id]?.length ?? 0) > 0);
}


describe("the conversation index", () => {
  it("counts everyone awaiting a reply, of all time, and keeps counting them as the inbox moves", async () => {
    const first = await h.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
    expect(first.isError, first.text).toBe(false);
    expect(first.data.total).toBe(waiting().length);
    expect(first.data.complete).toBe(true);

    // A customer who had been answered writes again; the page answers another.
    const s = h.sandbox.messaging;
    const answered = s.conversations.find((c) => c.type === "INBOX" && !waiting().includes(c) && s.pages.some((p) => p.id === c.page_id))!;
    h.sandbox.simulate.customerMessage(answered.id, "Shop ơi còn hàng không?");
    const target = waiting().find((c) => c.type === "INBOX" && c.page_id !== answered.page_id && Date.now() - ms(c.last_customer_interactive_at ?? c.updated_at) < 20 * 3_600_000)!;
    const sent = await h.call("send_inbox_message", { page_id: target.page_id, conversation_id: target.id, message: "Dạ shop trả lời ạ" });
    expect(sent.isError, sent.text).toBe(false);

    h.sandbox.server.resetRecords();
    const after = await h.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
    expect(after.data.total).toBe(first.data.total);
    expect(after.data.total).toBe(waiting().length);
    const pageOf = (data: { groups: { page_id: string; count: number }[] }, id: string) => data.groups.find((g) => g.page_id === id)?.count ?? 0;
    expect(pageOf(after.data, answered.page_id)).toBe(pageOf(first.data, answered.page_id) + 1);
    expect(pageOf(after.data, target.page_id)).toBe(pageOf(first.data, target.page_id) - 1);
    // Warm: one list request a page brings each up to date.
    const lists = h.sandbox.server.requests.filter((q) => q.path.includes("/conversations"));
    expect(lists.length).toBeLessThanOrEqual(s.pages.length);
  });

  it("counts by page, type and day of creation, as the conversations are", async () => {
    const s = h.sandbox.messaging;
    const active = new Set(s.pages.map((p) => p.id));
    const live = s.conversations.filter((c) => active.has(c.page_id));
    const r = await h.call("list_conversations", { group_by: ["type"], limit: 50 });
    expect(r.isError, r.text).toBe(false);
    const byType = new Map<string, number>();
    for (const c of live) byType.set(c.type, (byType.get(c.type) ?? 0) + 1);
    expect(new Map(r.data.groups.map((g: { type: string; count: number }) => [g.type, g.count]))).toEqual(byType);
    expect(r.data.total).toBe(live.length);
  });
});
