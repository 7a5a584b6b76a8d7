import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../helpers/harness.js";

// A client that gives up on a write (Claude Desktop cancels a call at 60 s, a user presses stop)
// ends the answer, never the write: one already sent runs to its answer, whole and once, and one
// still waiting for the page's rate is never sent. Nothing is ever sent twice.

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const HOUR = 3_600_000;

describe("a write the client cancels", () => {
  let h: Harness;
  beforeAll(async () => {
    // Confirmations off: the write goes straight out, as with a client that cannot ask the user.
    h = await startHarness({ sandbox: { ratePerSecond: 5 }, config: { confirmWrites: "never" } });
  });
  afterAll(async () => {
    await h.close();
  });

  const pageId = () => h.sandbox.messaging.pages[0]!.id;
  const open = () =>
    h.sandbox.messaging.conversations.filter(
      (c) => c.page_id === pageId() && c.type === "INBOX" && Date.now() - ms(c.last_customer_interactive_at ?? "1970-01-01") < 20 * HOUR,
    );
  const sends = () => h.sandbox.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/messages"));
  const send = (conversationId: string, text: string, signal: AbortSignal) =>
    h.client.callTool({ name: "send_inbox_message", arguments: { page_id: pageId(), conversation_id: conversationId, message: text } }, { signal });

  it("once sent, runs to its answer: sent whole, once, and never again", async () => {
    const target = open()[0]!;
    const thread = h.sandbox.messaging.messages[target.id]!;
    const [before, count] = [sends().length, thread.length];
    h.sandbox.server.injectFault({ method: "POST", path: "/messages", kind: "latency", delayMs: 800 });
    const cancel = new AbortController();
    const arrived = new Promise<void>((resolve) => {
      const stop = h.sandbox.server.onRequest((q) => {
        if (q.method === "POST" && q.path.endsWith("/messages")) {
          stop();
          resolve();
        }
      });
    });
    const call = send(target.id, "Dạ shop gửi đơn ạ", cancel.signal);
    await arrived;
    cancel.abort();
    await expect(call).rejects.toThrow();
    // The upstream answers after the cancel; the message is there once, as sent.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(sends().length).toBe(before + 1);
    expect(thread.length).toBe(count + 1);
    expect(thread.at(-1)!.message).toContain("Dạ shop gửi đơn ạ");
    expect(h.logs.some((l) => /send .*done upstream after the call was cancelled/i.test(l))).toBe(true);
  });

  it("still waiting for the page's rate, is never sent", async () => {
    // With page tokens alone a send goes through the page-token API, 5 calls a second a page.
    const pages = await startHarness({
      shared: h.sandbox,
      config: { confirmWrites: "never", accessToken: undefined, pageAccessTokens: h.sandbox.credentials.pageTokens },
    });
    try {
      const [first, second] = open().slice(1, 3);
      const before = sends().length;
      // Reads take the page's places for the next seconds: the write waits behind them.
      const busy = Array.from({ length: 12 }, () => pages.call("list_messages", { page_id: pageId(), conversation_id: first!.id }));
      const cancel = new AbortController();
      const call = pages.client.callTool(
        { name: "send_inbox_message", arguments: { page_id: pageId(), conversation_id: first!.id, message: "Tin này không được gửi" } },
        { signal: cancel.signal },
      );
      setTimeout(() => cancel.abort(), 300);
      await expect(call).rejects.toThrow();
      await Promise.all(busy);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(sends().length).toBe(before);
      expect(h.sandbox.messaging.messages[first!.id]!.some((m) => String(m.message).includes("Tin này không được gửi"))).toBe(false);
      // The page is not left stuck: the next write goes out.
      const ok = await pages.call("send_inbox_message", { page_id: pageId(), conversation_id: second!.id, message: "Dạ ạ" });
      expect(ok.isError, ok.text).toBe(false);
      expect(sends().length).toBe(before + 1);
    } finally {
      await pages.close();
    }
  });
});
