import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConversationRecord, MessageRecord } from "../../../src/sandbox/messaging/index.js";
import { appendMessage, buildMessage, customerSender } from "../../../src/sandbox/messaging/messages.js";
import { type Harness, startHarness } from "../../helpers/harness.js";

// A message past the platform's 24-hour window is refused before the user is asked and before
// anything is sent, with only what a tool or the owner can do instead; a message inside it is
// asked about and sent. Over both protocol generations: a 2025-era client is asked with
// elicitation/create, a 2026-07-28 one with an input-required answer, both through the SDK's
// client, whose elicitation handler is where either question lands.

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const era of ["legacy", "modern"] as const) {
  describe(`send_inbox_message and the 24-hour window (${era} era)`, () => {
    let h: Harness;
    let pageId: string;
    const asked: string[] = [];
    beforeAll(async () => {
      h = await startHarness({
        era,
        sandbox: { ratePerSecond: 10_000 },
        elicit: (message) => {
          asked.push(message);
          return { action: "accept" };
        },
      });
      pageId = h.sandbox.messaging.pages[0]!.id;
    });
    afterAll(async () => {
      await h.close();
    });

    const conversations = () => h.sandbox.messaging.conversations.filter((c) => c.page_id === pageId);
    const messagesOf = (id: string): MessageRecord[] => h.sandbox.messaging.messages[id]!;
    const sends = () => h.sandbox.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/messages")).length;
    const now = () => h.sandbox.now.getTime();
    const inbox = (test: (c: ConversationRecord) => boolean) => conversations().filter((c) => c.type === "INBOX" && test(c));
    const lastWrote = (c: ConversationRecord) => (c.last_customer_interactive_at ? ms(c.last_customer_interactive_at) : 0);
    const stale = (c: ConversationRecord) => lastWrote(c) > 0 && lastWrote(c) < now() - 3 * DAY;
    /** A customer message (or comment) written `ago` ms before now, as the inbox appends one. */
    const customerWrites = (c: ConversationRecord, ago: number, text: string) => {
      const message = buildMessage({ id: `${c.id.split("_")[0]}_${Math.floor(Math.random() * 1e12)}`, conversation: c, from: customerSender(c), text, at: Date.now() - ago });
      appendMessage(messagesOf(c.id), c, message);
      return message;
    };

    it("refuses a conversation whose customer last wrote days ago: no dialog, no send, no tag offered", async () => {
      const old = inbox(stale)[0]!;
      const [before, count, dialogs] = [sends(), messagesOf(old.id).length, asked.length];
      const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: old.id, message: "Chào chị" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("more than 24 hours ago");
      expect(r.text).toContain("nothing was sent");
      expect(r.text).toContain("wait for them to write again");
      expect(r.text).not.toMatch(/\btag\b/i);
      expect(asked).toHaveLength(dialogs);
      expect(sends()).toBe(before);
      expect(messagesOf(old.id)).toHaveLength(count);
    });

    it("asks, then sends, for a conversation inside the window", async () => {
      const open = inbox((c) => lastWrote(c) > now() - 20 * HOUR)[0]!;
      const [before, dialogs] = [sends(), asked.length];
      const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: open.id, message: "Dạ shop gửi đơn ạ" });
      expect(r.isError, r.text).toBe(false);
      expect(asked).toHaveLength(dialogs + 1);
      expect(asked.at(-1)).toContain("Gửi tin nhắn này cho khách?");
      expect(sends()).toBe(before + 1);
      expect(messagesOf(open.id).at(-1)!.id).toBe(r.data.message_id);
    });

    it("sends when the customer wrote after the conversation was last listed", async () => {
      const target = inbox((c) => stale(c))[1]!;
      await h.call("list_conversations", { page_ids: pageId, limit: 100 });
      customerWrites(target, 2 * HOUR, "Shop ơi còn hàng không?");
      const before = sends();
      const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: target.id, message: "Dạ còn ạ" });
      expect(r.isError, r.text).toBe(false);
      expect(sends()).toBe(before + 1);
    });

    it("offers a private reply to the customer's recent comment, which then goes through", async () => {
      const [old, thread] = inbox(stale).flatMap((c) => {
        const comment = conversations().find((x) => x.type === "COMMENT" && x.customer_id === c.customer_id);
        return comment ? [[c, comment] as const] : [];
      })[0]!;
      const comment = customerWrites(thread, 2 * DAY, "Giá bao nhiêu shop?");
      const before = sends();
      const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: old.id, message: "Chào chị" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`send_private_reply with conversation_id ${thread.id} and comment_id ${comment.id}`);
      expect(sends()).toBe(before);
      const offered = await h.call("send_private_reply", { page_id: pageId, conversation_id: thread.id, comment_id: comment.id, message: "Giá 250k ạ" });
      expect(offered.isError, offered.text).toBe(false);
      expect(comment.private_reply_conversation).toBe(old.id);
    });

    it("offers no private reply when the customer's comments are older than 7 days", async () => {
      const ids = new Set(conversations().filter((x) => x.type === "COMMENT" && messagesOf(x.id).some((m) => !m.from.admin_id && ms(m.inserted_at) > now() - 8 * DAY)).map((x) => x.customer_id));
      const old = inbox((c) => stale(c) && !ids.has(c.customer_id) && conversations().some((x) => x.type === "COMMENT" && x.customer_id === c.customer_id))[0]!;
      const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: old.id, message: "Chào chị" });
      expect(r.isError).toBe(true);
      expect(r.text).not.toContain("send_private_reply");
    });

    it("offers the phone the chat captured", async () => {
      const old = inbox((c) => stale(c) && c.recent_phone_numbers.length > 0)[0]!;
      const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: old.id, message: "Chào chị" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`call or text them at ${old.recent_phone_numbers[0]!.phone_number}`);
      expect(r.text).toContain("captured in the chat");
    });

    it("offers the phone of the POS customer the chat belongs to when the chat captured none", async () => {
      const profile = (c: ConversationRecord) => h.sandbox.messaging.customers.find((p) => p.page_id === pageId && p.psid === c.from.id);
      const old = inbox(
        (c) =>
          stale(c) &&
          c.recent_phone_numbers.length === 0 &&
          !profile(c)?.phone_numbers.length &&
          messagesOf(c.id).every((m) => !/\d{9}/.test(m.original_message)) &&
          h.sandbox.pos.customers.some((x) => x.fb_id === c.from.id && x.phone_numbers.length > 0 && x.name === c.from.name),
      )[0]!;
      const record = h.sandbox.pos.customers.find((x) => x.fb_id === old.from.id)!;
      const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: old.id, message: "Chào chị" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`call or text them at ${record.phone_numbers[0]}`);
      expect(r.text).toContain("on their POS record");
    });

    it("when the platform still refuses (its clock decides), gives the same ways forward", async () => {
      const open = inbox((c) => lastWrote(c) > now() - 20 * HOUR && c.id !== inbox((x) => lastWrote(x) > now() - 20 * HOUR)[0]!.id)[0]!;
      await h.call("list_conversations", { page_ids: pageId, limit: 100 });
      // The platform's record moves past the window after the list was read.
      open.last_customer_interactive_at = new Date(now() - 2 * DAY).toISOString().slice(0, 19);
      const [before, count] = [sends(), messagesOf(open.id).length];
      const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: open.id, message: "Chào chị" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/subcode 2018278/);
      expect(r.text).toContain("wait for them to write again");
      expect(r.text).not.toMatch(/\btag\b/i);
      expect(sends()).toBe(before + 1);
      expect(messagesOf(open.id)).toHaveLength(count);
    });

    it("leaves comment threads outside the window: a reply to an old comment goes", async () => {
      const thread = conversations().find((c) => c.type === "COMMENT" && lastWrote(c) < now() - 3 * DAY)!;
      const r = await h.call("reply_to_comment", { page_id: pageId, conversation_id: thread.id, message: "Shop inbox bạn rồi ạ" });
      expect(r.isError, r.text).toBe(false);
      expect(messagesOf(thread.id).at(-1)!.id).toBe(r.data.message_id);
    });
  });
}
