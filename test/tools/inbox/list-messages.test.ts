import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationRecord, MessageRecord } from "../../../src/sandbox/messaging/index.js";
import { type Harness, startHarness } from "../../helpers/harness.js";

describe("list_messages", () => {
  let h: Harness;
  let pageId: string;
  let longest: ConversationRecord;
  const messagesOf = (id: string): MessageRecord[] => h.sandbox.messaging.messages[id]!;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { hostileRecords: true } });
    pageId = h.sandbox.messaging.pages[0]!.id;
    longest = h.sandbox.messaging.conversations
      .filter((c) => c.page_id === pageId && c.type === "INBOX")
      .sort((a, b) => b.message_count - a.message_count)[0]!;
  });
  afterAll(async () => {
    await h.close();
  });

  it("returns the newest messages oldest first, marked page or customer", async () => {
    const r = await h.call("list_messages", { page_id: pageId, conversation_id: longest.id, customer_id: longest.customer_id });
    expect(r.isError, r.text).toBe(false);
    const expected = messagesOf(longest.id).slice(-20);
    expect(r.data.messages.map((m: { id: string }) => m.id)).toEqual(expected.map((m) => m.id));
    for (const [i, row] of r.data.messages.entries()) {
      const m = expected[i]!;
      expect(row.from).toBe(m.from.admin_id ? "page" : "customer");
      if (m.original_message) expect(row.text).toBe(m.original_message);
      expect(row.time).toMatch(/\+07:00$/);
    }
    expect(r.data.next_cursor).toBeTruthy();
  });

  it("pages back through the whole thread without gaps or repeats", async () => {
    const seen: string[][] = [];
    let cursor: string | undefined;
    do {
      const r = await h.call("list_messages", { page_id: pageId, conversation_id: longest.id, limit: 7, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.messages.length).toBeLessThanOrEqual(7);
      seen.unshift(r.data.messages.map((m: { id: string }) => m.id));
      cursor = r.data.next_cursor;
    } while (cursor);
    expect(seen.flat()).toEqual(messagesOf(longest.id).map((m) => m.id));
  });

  it("says the total of a thread it gave whole, and none of one it cut", async () => {
    const short = h.sandbox.messaging.conversations.find((c) => c.page_id === pageId && messagesOf(c.id).length < 20)!;
    const whole = await h.call("list_messages", { page_id: pageId, conversation_id: short.id, customer_id: short.customer_id });
    expect(whole.data.total).toBe(messagesOf(short.id).length);
    expect(whole.data.next_cursor).toBeUndefined();
    const cut = await h.call("list_messages", { page_id: pageId, conversation_id: longest.id, customer_id: longest.customer_id, limit: 5 });
    expect(cut.data.total).toBeUndefined();
  });

  it("looks customer_id up from the conversation list once, then remembers it", async () => {
    // A comment thread past the list pages (60 rows, latest activity first) the look-ups above read.
    const listed = h.sandbox.messaging.conversations
      .filter((c) => c.page_id === pageId)
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id));
    const listPage = (c: ConversationRecord) => Math.floor(listed.indexOf(c) / 60);
    const target = listed.find((c) => c.type === "COMMENT" && listPage(c) > listPage(longest))!;
    const v2 = `/api/public_api/v2/pages/${pageId}/conversations`;
    const before = h.sandbox.server.count("GET", v2);
    const first = await h.call("list_messages", { page_id: pageId, conversation_id: target.id, limit: 5 });
    expect(first.isError, first.text).toBe(false);
    const scans = h.sandbox.server.count("GET", v2) - before;
    expect(scans).toBeGreaterThan(0);
    const request = h.sandbox.server.requests.filter((q) => q.path.endsWith(`/conversations/${target.id}/messages`)).at(-1)!;
    expect(request.query.customer_id).toEqual([target.customer_id]);
    await h.call("list_messages", { page_id: pageId, conversation_id: target.id, limit: 5 });
    expect(h.sandbox.server.count("GET", v2) - before).toBe(scans);
  });

  it("converts HTML when there is no plain text, sanitizes it, and summarizes attachments", async () => {
    const hostile = h.sandbox.messaging.hostileConversationIds[0]!;
    const list = messagesOf(hostile);
    const last = list[list.length - 1]!;
    last.original_message = "";
    last.message = "<div>Xin <b>chào</b><br />shop\u202e ơi</div>";
    last.attachments = [{ type: "photo", url: "https://cdn.sandbox.example/u/x.jpg" }];
    const r = await h.call("list_messages", { page_id: pageId, conversation_id: hostile });
    expect(r.isError, r.text).toBe(false);
    const row = r.data.messages.at(-1);
    expect(row.text).toBe("Xin chào\nshop ơi");
    expect(row.attachments).toEqual([{ type: "photo", url: "https://cdn.sandbox.example/u/x.jpg" }]);
    for (const m of r.data.messages) expect(m.text ?? "").not.toMatch(/<script|[\u200b\u202e]/);
  });

  it("refuses a cursor of another conversation and an unknown conversation", async () => {
    const r = await h.call("list_messages", { page_id: pageId, conversation_id: longest.id, limit: 5 });
    const other = h.sandbox.messaging.conversations.find((c) => c.page_id === pageId && c.id !== longest.id)!;
    const bad = await h.call("list_messages", { page_id: pageId, conversation_id: other.id, cursor: r.data.next_cursor });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/cursor/);
    const missing = await h.call("list_messages", { page_id: pageId, conversation_id: "no_such_conversation" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/not_found|customer_id/);
  });
});
