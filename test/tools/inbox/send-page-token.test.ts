import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../../src/sandbox/index.js";
import type { ConversationRecord } from "../../../src/sandbox/messaging/index.js";
import { type Harness, startHarness } from "../../helpers/harness.js";

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
// The present, not a fixed day: the tool checks the 24-hour window against its own clock, as the
// live platform does, so the simulated inbox must live now (one instant for both sandboxes below).
const NOW = new Date();

// Only page tokens configured: sending uses the vendor's page-token form of the messages path.
describe("sending with page tokens only", () => {
  let h: Harness;
  let pageId: string;
  let token: string;
  let conversations: ConversationRecord[];
  /** An inbox thread inside the platform's 24-hour window. */
  const openInbox = () =>
    conversations.find((c) => c.type === "INBOX" && c.last_customer_interactive_at && ms(c.last_customer_interactive_at) > NOW.getTime() - 20 * 3_600_000)!;
  const posts = () => h.sandbox.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/messages"));
  beforeAll(async () => {
    const pageAccessTokens = new Sandbox({ now: NOW }).credentials.pageTokens;
    h = await startHarness({ sandbox: { now: NOW }, credentials: false, config: { pageAccessTokens } });
    pageId = h.sandbox.messaging.pages[0]!.id;
    token = pageAccessTokens[pageId]!;
    conversations = h.sandbox.messaging.conversations.filter((c) => c.page_id === pageId);
  });
  afterAll(() => h.close());

  it("sends an inbox message with page_access_token on /public_api/v1", async () => {
    const open = openInbox();
    const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: open.id, message: "Dạ shop gửi ạ" });
    expect(r.isError, r.text).toBe(false);
    const post = posts().at(-1)!;
    expect(post.path).toBe(`/api/public_api/v1/pages/${pageId}/conversations/${open.id}/messages`);
    expect(post.query).toEqual({ page_access_token: [token] });
    expect(h.sandbox.messaging.messages[open.id]!.at(-1)!.id).toBe(r.data.message_id);
  });

  it("sends a picture the OpenAPI's way: uploaded to the page, then sent by content id apart from the text", async () => {
    const open = openInbox();
    const before = posts().length;
    const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: open.id, message: "Mẫu áo đây ạ", content_url: h.sandbox.mediaUrl("ao-thun.png") });
    expect(r.isError, r.text).toBe(false);
    const upload = h.sandbox.server.requests.filter((q) => q.path.endsWith("/upload_contents")).at(-1)!;
    expect(upload.query).toEqual({ page_access_token: [token] });
    const sent = posts().slice(before);
    expect(sent.map((q) => q.body)).toEqual([
      { action: "reply_inbox", message: "Mẫu áo đây ạ" },
      { action: "reply_inbox", content_ids: [expect.stringMatching(/^ct_/)] },
    ]);
    const last = h.sandbox.messaging.messages[open.id]!.at(-1)!;
    expect(last.id).toBe(r.data.message_id);
    expect(last.attachments).toEqual([expect.objectContaining({ type: "photo" })]);
  });

  it("refuses to fetch a file from a private address or over plain http", async () => {
    const open = openInbox();
    const uploads = h.sandbox.server.requests.filter((q) => q.path.endsWith("/upload_contents")).length;
    for (const url of ["https://127.0.0.1/a.png", "https://[::1]/a.png", "http://example.com/a.png", "https://10.1.2.3/a.png"]) {
      const r = await h.call("send_inbox_message", { page_id: pageId, conversation_id: open.id, content_url: url });
      expect(r.isError, url).toBe(true);
      expect(r.text).toMatch(/content_url: (points to a private network address|must be an https URL)/);
    }
    expect(h.sandbox.server.requests.filter((q) => q.path.endsWith("/upload_contents")).length).toBe(uploads);
  });

  it("replies to a comment the same way, and never retries the write", async () => {
    const comment = conversations.find((c) => c.type === "COMMENT")!;
    const ok = await h.call("reply_to_comment", { page_id: pageId, conversation_id: comment.id, message: "Shop inbox bạn nhé" });
    expect(ok.isError, ok.text).toBe(false);
    expect(posts().at(-1)!.query).toEqual({ page_access_token: [token] });
    const before = posts().length;
    h.sandbox.server.injectFault({ method: "POST", path: "/messages", kind: "status", status: 502, times: 3 });
    const failed = await h.call("reply_to_comment", { page_id: pageId, conversation_id: comment.id, message: "Lần 2" });
    expect(failed.isError).toBe(true);
    expect(posts().length - before).toBe(1);
  });
});
