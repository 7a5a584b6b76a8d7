import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationRecord, MessageRecord } from "../../../src/sandbox/messaging/index.js";
import { type Harness, startHarness } from "../../helpers/harness.js";

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const DAY = 86_400_000;

describe("send_inbox_message, reply_to_comment, send_private_reply", () => {
  let h: Harness;
  let pageId: string;
  let conversations: ConversationRecord[];
  const messagesOf = (id: string): MessageRecord[] => h.sandbox.messaging.messages[id]!;
  const sends = () => h.sandbox.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/messages")).length;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { hostileRecords: true } });
    pageId = h.sandbox.messaging.pages[0]!.id;
    conversations = h.sandbox.messaging.conversations.filter((c) => c.page_id === pageId);
  });
  afterAll(async () => {
    await h.close();
  });

  it("sends an inbox message that then appears in list_messages", async () => {
    const now = h.sandbox.now.getTime();
    const open = conversations.find(
      (c) => c.type === "INBOX" && c.last_customer_interactive_at && ms(c.last_customer_interactive_at) > now - 20 * 3_600_000,
    )!;
    const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: open.id, message: "Dạ shop gửi đơn hôm nay ạ" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.message_id).toBe(messagesOf(open.id).at(-1)!.id);
    const listed = await h.call("list_messages", { page_id: pageId, conversation_id: open.id, limit: 3 });
    const last = listed.data.messages.at(-1);
    expect(last).toMatchObject({ id: r.data.message_id, from: "page", text: "Dạ shop gửi đơn hôm nay ạ" });
  });

  it("sends a document by URL with its type and name", async () => {
    const now = h.sandbox.now.getTime();
    const open = conversations.find(
      (c) => c.type === "INBOX" && c.last_customer_interactive_at && ms(c.last_customer_interactive_at) > now - 20 * 3_600_000,
    )!;
    const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: open.id, content_url: "https://cdn.example/f/bang-gia.pdf" });
    expect(r.isError, r.text).toBe(false);
    const body = h.sandbox.server.requests.filter((q) => q.method === "POST").at(-1)!.body as Record<string, unknown>;
    expect(body).toMatchObject({ action: "reply_inbox", attachmentType: "DOCUMENT", name: "bang-gia.pdf", mime_type: "application/pdf" });
    expect(messagesOf(open.id).at(-1)!.attachments).toEqual([
      { type: "file", url: "https://cdn.example/f/bang-gia.pdf", name: "bang-gia.pdf", mime_type: "application/pdf" },
    ]);
  });

  it("refuses a message past the 24-hour window before sending it, naming the reason (inbox-window.test.ts: the ways forward)", async () => {
    const stale = conversations.find(
      (c) => c.type === "INBOX" && c.last_customer_interactive_at && ms(c.last_customer_interactive_at) < h.sandbox.now.getTime() - 3 * DAY,
    )!;
    const [count, before] = [messagesOf(stale.id).length, sends()];
    const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: stale.id, message: "Chào chị" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/24 hours/);
    expect(sends()).toBe(before);
    expect(messagesOf(stale.id).length).toBe(count);
  });

  it("validates the content before calling", async () => {
    const before = sends();
    const empty = await h.call("send_inbox_message", { page_id: pageId, conversation_id: conversations[0]!.id });
    expect(empty.isError).toBe(true);
    expect(empty.text).toMatch(/message/);
    const comment = conversations.find((c) => c.type === "COMMENT")!;
    const noSize = await h.call("reply_to_comment", { page_id: pageId, conversation_id: comment.id, content_url: "https://x.example/a.jpg" });
    expect(noSize.isError).toBe(true);
    expect(noSize.text).toMatch(/image_data/);
    const nothing = await h.call("reply_to_comment", { page_id: pageId, conversation_id: comment.id });
    expect(nothing.isError).toBe(true);
    expect(sends()).toBe(before);
  });

  it("replies to a comment with an image", async () => {
    const comment = conversations.find((c) => c.type === "COMMENT")!;
    const r = await h.call("reply_to_comment", {
      page_id: pageId,
      conversation_id: comment.id,
      message: "Shop inbox bạn rồi ạ",
      content_url: "https://cdn.example/size.jpg",
      image_data: '{"width":800,"height":600}',
    });
    expect(r.isError, r.text).toBe(false);
    const created = messagesOf(comment.id).at(-1)!;
    expect(created.id).toBe(r.data.message_id);
    expect(created.parent_id).toBe(comment.id);
    const body = h.sandbox.server.requests.at(-1)!.body as Record<string, unknown>;
    expect(body).toMatchObject({ action: "reply_comment", image_data: '{"width":800,"height":600}', message_id: messagesOf(comment.id)[0]!.id });
  });

  it("names the comment answered (message_id) even when comment_id is omitted", async () => {
    const comment = conversations.find((c) => c.type === "COMMENT" && c.id !== conversations.find((x) => x.type === "COMMENT")!.id)!;
    const root = messagesOf(comment.id).find((m) => m.from.admin_id === undefined)!;
    const r = await h.call("reply_to_comment", { page_id: pageId, conversation_id: comment.id, message: "Dạ shop inbox ạ" });
    expect(r.isError, r.text).toBe(false);
    const post = h.sandbox.server.requests.filter((q) => q.method === "POST").at(-1)!;
    expect(post.body).toMatchObject({ action: "reply_comment", message_id: root.id });
    expect(messagesOf(comment.id).at(-1)!.parent_id).toBe(root.id);
  });

  describe("private reply rule", () => {
    const rootOf = (c: ConversationRecord) => messagesOf(c.id)[0]!;

    it("refuses locally a comment that already had its private reply", async () => {
      const done = conversations.find((c) => c.type === "COMMENT" && rootOf(c).private_reply_conversation)!;
      const before = sends();
      const r = await h.call("send_private_reply", { page_id: pageId, conversation_id: done.id, message: "Giá 250k ạ" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/one per comment/);
      expect(sends()).toBe(before);
    });

    it("refuses locally a comment older than 7 days", async () => {
      const old = conversations.find(
        (c) => c.type === "COMMENT" && !rootOf(c).private_reply_conversation && ms(rootOf(c).inserted_at) < Date.now() - 8 * DAY,
      )!;
      const before = sends();
      const r = await h.call("send_private_reply", { page_id: pageId, conversation_id: old.id, message: "Giá 250k ạ" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/7 days/);
      expect(sends()).toBe(before);
    });

    it("sends once for a fresh comment, then refuses the second time", async () => {
      const fresh = h.sandbox.messaging.hostileConversationIds
        .map((id) => conversations.find((c) => c.id === id)!)
        .find((c) => c.type === "COMMENT")!;
      const r = await h.call("send_private_reply", { page_id: pageId, conversation_id: fresh.id, message: "Giá 250k ạ" });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.message_id).toBeTruthy();
      const body = h.sandbox.server.requests.filter((q) => q.method === "POST").at(-1)!.body as Record<string, unknown>;
      // The seed's user-token form has no from_id (the OpenAPI's page-token form requires it).
      expect(body).toEqual({ action: "private_replies", post_id: fresh.post_id, message_id: rootOf(fresh).id, message: "Giá 250k ạ" });
      const inbox = rootOf(fresh).private_reply_conversation;
      expect(inbox).toBeTruthy();
      // The answer names the inbox thread the message went to, not the comment thread.
      expect(r.data).toMatchObject({ conversation_id: inbox, comment_conversation_id: fresh.id });
      expect(messagesOf(inbox!).at(-1)!.message).toContain("Giá 250k ạ");
      const again = await h.call("send_private_reply", { page_id: pageId, conversation_id: fresh.id, message: "Giá 250k ạ" });
      expect(again.isError).toBe(true);
      expect(again.text).toMatch(/one per comment/);
      expect(again.text).toContain(`inbox thread ${inbox} with send_inbox_message`);
    });

    it("returns the upstream refusal when the comment could not be checked first", async () => {
      const recent = conversations.find(
        (c) => c.type === "COMMENT" && !rootOf(c).private_reply_conversation && ms(rootOf(c).inserted_at) > Date.now() - 5 * DAY,
      )!;
      // Make the early check impossible: the message list fails, the upstream still applies the rule.
      h.sandbox.server.injectFault({ method: "GET", path: `/conversations/${recent.id}/messages`, kind: "status", status: 404, times: 5 });
      rootOf(recent).private_reply_conversation = "already_sent_elsewhere";
      const r = await h.call("send_private_reply", { page_id: pageId, conversation_id: recent.id, message: "Giá 250k ạ" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/only one private reply per comment/);
    });

    it("refuses a private reply from an inbox conversation", async () => {
      const inbox = conversations.find((c) => c.type === "INBOX")!;
      await h.call("list_conversations", { page_ids: pageId, limit: 50 });
      const r = await h.call("send_private_reply", { page_id: pageId, conversation_id: inbox.id, message: "x" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/INBOX/);
    });

    it("refuses an inbox message to a comment thread and a comment reply to an inbox thread, naming the tool to use", async () => {
      const inbox = conversations.find((c) => c.type === "INBOX")!;
      const comment = conversations.find((c) => c.type === "COMMENT")!;
      await h.call("list_conversations", { page_ids: pageId, limit: 50 });
      await h.call("list_conversations", { page_ids: pageId, type: ["COMMENT"], limit: 50 });
      const before = sends();
      const toComment = await h.call("send_inbox_message", { page_id: pageId, conversation_id: comment.id, message: "x" });
      expect(toComment.isError).toBe(true);
      expect(toComment.text).toContain("is a conversation of type COMMENT");
      expect(toComment.text).toContain("reply_to_comment");
      const toInbox = await h.call("reply_to_comment", { page_id: pageId, conversation_id: inbox.id, message: "x" });
      expect(toInbox.isError).toBe(true);
      // Also when no list has shown the thread yet: the reply looks it up for its first comment.
      const fresh = await startHarness({ sandbox: { hostileRecords: true } });
      try {
        const unseen = fresh.sandbox.messaging.conversations.find((c) => c.page_id === pageId && c.type === "INBOX")!;
        const r = await fresh.call("reply_to_comment", { page_id: pageId, conversation_id: unseen.id, message: "x" });
        expect(r.isError).toBe(true);
        expect(r.text).toContain("send_inbox_message");
        expect(fresh.sandbox.server.requests.filter((q) => q.method === "POST").length).toBe(0);
      } finally {
        await fresh.close();
      }
      expect(toInbox.text).toContain("is a conversation of type INBOX");
      expect(toInbox.text).toContain("send_inbox_message");
      expect(sends()).toBe(before);
    });
  });
});
