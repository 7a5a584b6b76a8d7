import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { ConversationRecord } from "../../../src/sandbox/messaging/index.js";
import { useHarness } from "../../helpers/harness.js";

// Unread conversations counted on every page, and conversations by the customer's last message:
// the truth from the sandbox's records (seen flags, message times), independently of the tool.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const active = () => {
  const s = h.sandbox.messaging;
  const pages = new Set(s.pages.map((p) => p.id));
  return s.conversations.filter((c) => pages.has(c.page_id));
};

describe("list_conversations unread", () => {
  it("counts the unread conversations on each page in one call", async () => {
    const s = h.sandbox.messaging;
    const unread = active().filter((c) => !c.seen);
    expect(unread.length).toBeGreaterThan(5);
    const r = await h.call("list_conversations", { unread: true, group_by: ["page"] });
    expect(r.isError, r.text).toBe(false);
    expect(countTokens(r.text)).toBeLessThan(4_000);
    expect(r.data.total).toBe(unread.length);
    expect(r.data.complete).toBe(true);
    for (const page of s.pages) {
      const row = r.data.groups.find((g: { page_id: string }) => g.page_id === page.id);
      expect(row?.count ?? 0, page.name).toBe(unread.filter((c) => c.page_id === page.id).length);
    }
  });

  it("reads each page only to its last unread one, and lists them with what is unread", async () => {
    h.sandbox.server.resetRecords();
    const r = await h.call("list_conversations", { unread: true, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    const unread = active().filter((c) => !c.seen);
    expect(r.data.total).toBe(unread.length);
    for (const row of r.data.conversations) expect(row.unread).toBeDefined();
    const lists = h.sandbox.server.requests.filter((q) => q.path.includes("/v2/pages/"));
    for (const q of lists) expect(q.query.unread_first).toEqual(["true"]);
    // A page's unread ones fit in its first call or two, not a walk through every conversation.
    expect(lists.length).toBeLessThanOrEqual(2 * h.sandbox.messaging.pages.length);
  });

  it("sees a conversation read in the web app at once (read state is never taken from the index)", async () => {
    const target = active().find((c) => !c.seen)!;
    const before = (await h.call("list_conversations", { unread: true, group_by: ["page"] })).data.total;
    target.seen = true;
    target.unread_count = 0;
    try {
      const after = await h.call("list_conversations", { unread: true, group_by: ["page"] });
      expect(after.data.total).toBe(before - 1);
    } finally {
      target.seen = false;
      target.unread_count = 1;
    }
  });

  it("refuses unread: false naming the one value it takes", async () => {
    const before = h.sandbox.server.requests.length;
    const r = await h.call("list_conversations", { unread: false });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/unread: takes true only/);
    expect(h.sandbox.server.requests.length).toBe(before);
  });
});

describe("list_conversations by the customer's last message", () => {
  it("lists the conversations whose customer last wrote in a span, newest first, saying when", async () => {
    const since = Date.now() - 3 * 86_400_000;
    const wrote = (c: ConversationRecord) => (c.last_customer_interactive_at ? ms(c.last_customer_interactive_at) : undefined);
    const expected = active()
      .filter((c) => (wrote(c) ?? 0) >= Math.floor(since / 1000) * 1000)
      .sort((a, b) => wrote(b)! - wrote(a)! || b.id.localeCompare(a.id));
    expect(expected.length).toBeGreaterThan(5);
    const r = await h.call("list_conversations", { time_field: "customer", since: Math.floor(since / 1000), limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.conversations.map((c: { id: string }) => c.id)).toEqual(expected.slice(0, 50).map((c) => c.id));
    expect(r.data.total).toBe(expected.length);
    for (const row of r.data.conversations.filter((c: { last_from?: string }) => c.last_from === "page")) expect(row.last_customer_message_at).toBeDefined();
  });

  it("says when the customer last wrote on every row awaiting a reply", async () => {
    const r = await h.call("list_conversations", { awaiting_reply: true, limit: 10 });
    for (const row of r.data.conversations) {
      expect(row.last_customer_message_at, row.id).toMatch(/\+07:00$/);
      expect(Math.abs(Date.now() - Date.parse(row.last_customer_message_at) - row.waiting_minutes * 60_000)).toBeLessThan(120_000);
    }
  });
});
