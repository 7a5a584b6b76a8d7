import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import type { ConversationRecord } from "../../../src/sandbox/messaging/index.js";
import { useHarness } from "../../helpers/harness.js";

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const byUpdated = (a: ConversationRecord, b: ConversationRecord) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id);

describe("list_conversations", () => {
  const h = useHarness({ sandbox: { hostileRecords: true } });
  let pageId: string;
  let ofPage: () => ConversationRecord[];
  beforeAll(() => {
    pageId = h.sandbox.messaging.pages[0]!.id;
    ofPage = () => h.sandbox.messaging.conversations.filter((c) => c.page_id === pageId);
  });

  it("lists the comment threads of one post, its page found from the post id, and says who wrote last", async () => {
    const withComments = h.sandbox.messaging.conversations.filter((c) => c.post_id && c.type === "COMMENT");
    const postId = withComments[0]!.post_id!;
    const expected = withComments.filter((c) => c.post_id === postId).sort(byUpdated);
    const r = await h.call("list_conversations", { post_id: postId, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.conversations.map((c: { id: string }) => c.id)).toEqual(expected.map((c) => c.id));
    for (const row of r.data.conversations) expect(["customer", "page"]).toContain(row.last_from);
    const clash = await h.call("list_conversations", { post_id: postId, awaiting_reply: true });
    expect(clash.isError).toBe(true);
    expect(clash.text).toContain("last_from");
    const other = h.sandbox.messaging.pages.find((p) => !postId.startsWith(`${p.id}_`))!;
    const wrong = await h.call("list_conversations", { post_id: postId, page_ids: [other.id, h.sandbox.messaging.pages.find((p) => p.id !== other.id && !postId.startsWith(`${p.id}_`))?.id ?? other.id] });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain("is not a post of the pages listed");
    expect(wrong.text).toContain("Pass page_ids with the post's page, or the post_id of one of its comment rows");
  });

  it("returns the most recently updated conversations as compact rows with tag and staff names", async () => {
    const r = await h.call("list_conversations", { page_ids: pageId, limit: 30 });
    expect(r.isError, r.text).toBe(false);
    const expected = ofPage().sort(byUpdated).slice(0, 30);
    expect(r.data.conversations.map((c: { id: string }) => c.id)).toEqual(expected.map((c) => c.id));
    const tagName = new Map(h.sandbox.messaging.tags[pageId]!.map((t) => [t.id, t.text]));
    for (const [i, row] of r.data.conversations.entries()) {
      const c = expected[i]!;
      expect(row.tags ?? []).toEqual(c.tags.map((t) => tagName.get(t)));
      expect(row.assignees ?? []).toEqual(c.current_assign_users.map((u) => u.name));
      expect(row.has_phone ?? false).toBe(c.has_phone);
      expect(row.updated_at).toMatch(/\+07:00$/);
      expect(Date.parse(row.updated_at)).toBe(ms(c.updated_at));
      expect(row.last_from).toBe(c.last_sent_by.admin_id ? "page" : "customer");
    }
  });

  it("keeps rows to what a seller reads, with when each began and when the customer last wrote, at most 120 tokens a row and 50 rows a call", async () => {
    const r = await h.call("list_conversations", { page_ids: pageId, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    const byId = new Map(ofPage().map((c) => [c.id, c]));
    for (const row of r.data.conversations) {
      const c = byId.get(row.id)!;
      expect(row.unread, row.id).toBe(c.unread_count || (c.seen ? undefined : true));
      expect(row.has_phone, row.id).toBe(c.has_phone || undefined);
      // The customer's own name is customer_name: last_sender names staff only.
      expect(row.last_sender, row.id).toBe(row.last_from === "page" ? (c.last_sent_by.admin_name ?? c.last_sent_by.name) : undefined);
      // An inbox thread's post (an ad's, say) is raw access; a comment's says which post it is on.
      expect(row.post_id, row.id).toBe(c.type === "INBOX" ? undefined : (c.post_id ?? undefined));
      // When it began, always; when the customer last wrote, where staff wrote after it (else it is updated_at).
      expect(Date.parse(row.created_at), row.id).toBe(ms(c.inserted_at));
      expect(row.last_customer_message_at && Date.parse(row.last_customer_message_at), row.id).toBe(row.last_from === "page" && c.last_customer_interactive_at ? ms(c.last_customer_interactive_at) : undefined);
      // The inbox's customer id (the conversation id finds the chat's customer) and the message
      // count are left to the raw record.
      expect(Object.keys(row).filter((k) => ["customer_id", "message_count", "seen", "unread_count"].includes(k)), row.id).toEqual([]);
    }
    expect(r.data.conversations.some((row: { last_customer_message_at?: string }) => row.last_customer_message_at)).toBe(true);
    // 50 rows in about 5,900 tokens (7,700 while rows carried the inbox's customer id, the message
    // count, and the customer's last message time where it repeated the last activity).
    expect(countTokens(JSON.stringify(r.data.conversations)) / r.data.conversations.length).toBeLessThanOrEqual(120);
    const over = await h.call("list_conversations", { page_ids: pageId, limit: 51 });
    expect(over.isError).toBe(true);
    expect(over.text).toMatch(/limit/);
  });

  it("sanitizes customer-authored names and snippets", async () => {
    const hostile = h.sandbox.messaging.hostileConversationIds;
    const r = await h.call("list_conversations", { page_ids: pageId, limit: 10 });
    const rows = r.data.conversations.filter((c: { id: string }) => hostile.includes(c.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.customer_name).not.toMatch(/[\u200b\u202e]/);
      expect(row.snippet ?? "").not.toMatch(/[\u200b\u202e]|<script/);
    }
  });

  it("walks every conversation across pages without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const r = await h.call("list_conversations", { page_ids: pageId, limit: 45, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      seen.push(...r.data.conversations.map((c: { id: string }) => c.id));
      cursor = r.data.next_cursor;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(seen).toEqual(ofPage().sort(byUpdated).map((c) => c.id));
  });

  it("gives raw records 10 to a call, continuing where the cut fell", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 7; i++) {
      const r = await h.call("list_conversations", { page_ids: pageId, limit: 45, detail: "full", ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.conversations).toHaveLength(10);
      seen.push(...r.data.conversations.map((c: { id: string }) => c.id));
      cursor = r.data.next_cursor;
    }
    // 70 rows: past the first upstream page of 60, so the cut also carries across upstream pages.
    expect(seen).toEqual(ofPage().sort(byUpdated).map((c) => c.id).slice(0, 70));
  });

  it("filters by type and by tag names, accents optional", async () => {
    const comments = await h.call("list_conversations", { page_ids: pageId, type: ["COMMENT"], limit: 50 });
    expect(comments.data.conversations.every((c: { type: string }) => c.type === "COMMENT")).toBe(true);
    expect(comments.data.conversations.length).toBe(Math.min(50, ofPage().filter((c) => c.type === "COMMENT").length));

    const tag = h.sandbox.messaging.tags[pageId]!.find((t) => /[^\x00-\x7f]/.test(t.text))!;
    const folded = tag.text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/đ/g, "d").replace(/Đ/g, "D").toUpperCase();
    const r = await h.call("list_conversations", { page_ids: pageId, tags: JSON.stringify([folded]), limit: 50 });
    expect(r.isError, r.text).toBe(false);
    const expected = ofPage().filter((c) => c.tags.includes(tag.id));
    expect(r.data.conversations.map((c: { id: string }) => c.id).sort()).toEqual(expected.map((c) => c.id).slice(0, 100).sort());
  });

  it('uses the counted list for tags ["ALL"] and walks it to the end', async () => {
    const before = h.sandbox.server.count("GET", `/api/v1/pages/${pageId}/conversations`);
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await h.call("list_conversations", { page_ids: pageId, tags: ["ALL"], limit: 50, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      ids.push(...r.data.conversations.map((c: { id: string }) => c.id));
      cursor = r.data.next_cursor;
    } while (cursor);
    expect(h.sandbox.server.count("GET", `/api/v1/pages/${pageId}/conversations`)).toBeGreaterThan(before);
    expect(ids).toEqual(ofPage().filter((c) => c.tags.length > 0).sort(byUpdated).map((c) => c.id));
  });

  it("gives the total with with_total and pages by page number, latest activity first", async () => {
    const now = Math.floor(h.sandbox.now.getTime() / 1000);
    const since = now - 20 * 86_400;
    const expected = ofPage().filter((c) => ms(c.updated_at) >= since * 1000 && ms(c.updated_at) <= now * 1000 + 999);
    const first = await h.call("list_conversations", { page_ids: pageId, since, until: now, with_total: true, limit: 50 });
    expect(first.isError, first.text).toBe(false);
    expect(h.sandbox.server.requests.filter((r) => r.path.endsWith("/public_api/v1/pages/" + pageId + "/conversations")).at(-1)!.query.order_by).toEqual([
      "updated_at",
    ]);
    expect(first.data.total).toBe(expected.length);
    const ids = first.data.conversations.map((c: { id: string }) => c.id);
    let cursor = first.data.next_cursor;
    while (cursor) {
      const r = await h.call("list_conversations", { page_ids: pageId, limit: 50, cursor });
      ids.push(...r.data.conversations.map((c: { id: string }) => c.id));
      cursor = r.data.next_cursor;
    }
    expect(ids).toEqual(expected.sort(byUpdated).map((c) => c.id));
  });

  it("rows of a list by creation say when each conversation began, beside the last activity", async () => {
    const r = await h.call("list_conversations", { page_ids: pageId, time_field: "created", limit: 50 });
    const byId = new Map(ofPage().map((c) => [c.id, c]));
    for (const row of r.data.conversations) {
      const c = byId.get(row.id)!;
      expect(Date.parse(row.created_at), row.id).toBe(ms(c.inserted_at));
      expect(Date.parse(row.updated_at), row.id).toBe(ms(c.updated_at));
      expect(row.last_from, row.id).toBe(c.last_sent_by.admin_id ? "page" : "customer");
    }
    expect(r.data.conversations.some((row: { last_from: string }) => row.last_from === "customer")).toBe(true);
  });

  it("lists by creation with time_field created: newest created first, the range on creation, walked with a cursor", async () => {
    const now = Math.floor(h.sandbox.now.getTime() / 1000);
    const since = now - 40 * 86_400;
    const expected = ofPage()
      .filter((c) => ms(c.inserted_at) >= since * 1000)
      .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at) || b.id.localeCompare(a.id));
    expect(expected.length).toBeGreaterThan(60);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await h.call("list_conversations", { page_ids: pageId, time_field: "created", since, until: now, limit: 50, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      seen.push(...r.data.conversations.map((c: { id: string }) => c.id));
      cursor = r.data.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected.map((c) => c.id));
    // Counted by creation on the page-number list, its order_by the creation time.
    const counted = await h.call("list_conversations", { page_ids: pageId, time_field: "created", since: now - 14 * 86_400, until: now, with_total: true, limit: 1 });
    expect(counted.data.total).toBe(ofPage().filter((c) => ms(c.inserted_at) >= (now - 14 * 86_400) * 1000).length);
    expect(h.sandbox.server.requests.filter((q) => q.path.endsWith(`/public_api/v1/pages/${pageId}/conversations`)).at(-1)!.query.order_by).toEqual(["inserted_at"]);
  });

  it("lists RATING conversations, and says the total of a list that ended in one call", async () => {
    const expected = ofPage().filter((c) => c.type === "RATING").sort(byUpdated);
    expect(expected.length).toBeGreaterThan(0);
    const r = await h.call("list_conversations", { page_ids: pageId, type: "RATING", limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.conversations.map((c: { id: string }) => c.id)).toEqual(expected.map((c) => c.id));
    expect(r.data.total).toBe(expected.length);
    const more = await h.call("list_conversations", { page_ids: pageId, limit: 5 });
    expect(more.data.total).toBeUndefined();
  });

  it("merges the pages newest created first with time_field created", async () => {
    const active = new Set(h.sandbox.messaging.pages.map((p) => p.id));
    const expected = h.sandbox.messaging.conversations
      .filter((c) => active.has(c.page_id))
      .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at) || b.id.localeCompare(a.id))
      .slice(0, 15);
    const r = await h.call("list_conversations", { time_field: "created", limit: 15 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.conversations.map((c: { id: string }) => c.id)).toEqual(expected.map((c) => c.id));
  });

  it("pages the counted list by the first page's length, not an assumed 60", async () => {
    const now = Math.floor(h.sandbox.now.getTime() / 1000);
    const rows = ofPage().sort(byUpdated).slice(0, 25);
    const path = `/public_api/v1/pages/${pageId}/conversations`;
    h.sandbox.server.injectFault({ method: "GET", path, kind: "status", status: 200, body: { success: true, conversations: rows, total: 40 } });
    const first = await h.call("list_conversations", { page_ids: pageId, since: now - 86_400 * 20, until: now, with_total: true, limit: 25 });
    expect(first.isError, first.text).toBe(false);
    expect(first.data.total).toBe(40);
    expect(first.data.next_cursor).toBeTruthy();
    const before = h.sandbox.server.requests.length;
    await h.call("list_conversations", { page_ids: pageId, limit: 5, cursor: first.data.next_cursor });
    // The call goes on to later pages when the demo's page 2 has fewer rows than the limit.
    expect(h.sandbox.server.requests.slice(before).find((r) => r.path.endsWith(path))!.query.page_number).toEqual(["2"]);
  });

  it("continues the v2 list after the last row returned, so a conversation moving to the top repeats nothing", async () => {
    const before = ofPage().sort(byUpdated);
    const first = await h.call("list_conversations", { page_ids: pageId, limit: 5 });
    expect(first.data.conversations.map((c: { id: string }) => c.id)).toEqual(before.slice(0, 5).map((c) => c.id));
    const moved = before[10]!;
    const saved = moved.updated_at;
    moved.updated_at = "2099-01-01T00:00:00";
    const second = await h.call("list_conversations", { page_ids: pageId, limit: 5, cursor: first.data.next_cursor });
    moved.updated_at = saved;
    expect(second.data.conversations.map((c: { id: string }) => c.id)).toEqual(before.slice(5, 10).map((c) => c.id));
  });

  it("states the range a total counts, the default month included", async () => {
    const r = await h.call("list_conversations", { page_ids: pageId, with_total: true, limit: 1 });
    expect(r.isError, r.text).toBe(false);
    // The server's clock runs on from the sandbox's "now" while the tests run.
    const until = Date.parse(r.data.range.until);
    expect(Math.abs(until - h.sandbox.now.getTime())).toBeLessThan(120_000);
    const since = Date.parse(r.data.range.since);
    expect(r.data.range.since).toMatch(/T00:00:00\+07:00$/);
    expect(Math.round((until - since) / 86_400_000)).toBe(30);
    const counted = ofPage().filter((c) => ms(c.updated_at) >= since && ms(c.updated_at) <= until + 999);
    expect(r.data.total).toBe(counted.length);
  });

  it("checks the one-month span and filter combinations before calling", async () => {
    const before = h.sandbox.server.requests.length;
    const long = await h.call("list_conversations", { page_ids: pageId, with_total: true, since: "2026-01-01", until: "2026-03-01" });
    expect(long.isError).toBe(true);
    expect(long.text).toMatch(/31 days/);
    // Only since, 40 days back: refused the same way, never a total of its first 31 days.
    const sinceOnly = await h.call("list_conversations", { page_ids: pageId, with_total: true, since: new Date(h.sandbox.now.getTime() - 40 * 86_400_000).toISOString() });
    expect(sinceOnly.isError).toBe(true);
    expect(sinceOnly.text).toMatch(/longer than the 31 days.* to now is 40 days/);
    const clash = await h.call("list_conversations", { page_ids: pageId, tags: ["ALL"], type: ["INBOX"] });
    expect(clash.isError).toBe(true);
    expect(clash.text).toMatch(/type/);
    const paged = await h.call("list_conversations", { page_ids: pageId, with_total: true, unread_first: true });
    expect(paged.isError).toBe(true);
    expect(h.sandbox.server.requests.length).toBe(before);
  });

  it("answers a page id that is not the account's with the ids that are, not with settings advice", async () => {
    const r = await h.call("list_conversations", { page_ids: "123" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Error \(invalid_input\): page_ids\[0\]: 123 is not a page of this account/);
    for (const page of h.sandbox.messaging.pages) expect(r.text).toContain(`${page.id} (${page.name})`);
    expect(r.text).not.toMatch(/PANCAKE_/);
  });

  it("rejects unknown tag names listing the valid ones, and foreign cursors", async () => {
    const r = await h.call("list_conversations", { page_ids: pageId, tags: ["no such tag"] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(h.sandbox.messaging.tags[pageId]![0]!.text);
    const bad = await h.call("list_conversations", { page_ids: pageId, cursor: "bm90LWEtY3Vyc29y" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/cursor/);
  });
});
