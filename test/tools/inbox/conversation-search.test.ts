import { beforeAll, describe, expect, it } from "vitest";
import type { ConversationRecord, MessagingState } from "../../../src/sandbox/messaging/index.js";
import { useHarness } from "../../helpers/harness.js";

// Expected answers come from the sandbox's records: its conversations, their messages (who wrote
// last, when) and captured phones, with names folded here, independently of the tool code.

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const byUpdated = (a: ConversationRecord, b: ConversationRecord) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id);
/** Those awaiting a reply come as a queue: the customer's last word longest ago first. */
const waitedSince = (c: ConversationRecord) => ms(c.last_customer_interactive_at ?? c.updated_at);
const byLongestWait = (a: ConversationRecord, b: ConversationRecord) => waitedSince(a) - waitedSince(b) || b.id.localeCompare(a.id);
const words = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/đ/g, "d")
    .replace(/Đ/g, "D")
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

/** Conversations whose last message is the customer's, with that message's time. */
function awaiting(state: MessagingState): { c: ConversationRecord; at: number }[] {
  const active = new Set(state.pages.map((p) => p.id));
  return state.conversations.flatMap((c) => {
    const last = state.messages[c.id]?.at(-1);
    return active.has(c.page_id) && last && last.from.admin_id === undefined ? [{ c, at: ms(last.inserted_at) }] : [];
  });
}

/** Start of the shop's day six days back: awaiting_reply without since looks at the last 7 days. */
const weekStart = () => {
  const vn = new Date(Date.now() + 7 * 3_600_000);
  return Date.UTC(vn.getUTCFullYear(), vn.getUTCMonth(), vn.getUTCDate() - 6) - 7 * 3_600_000;
};
const thisWeek = (a: { c: ConversationRecord }) => ms(a.c.updated_at) >= weekStart();

describe("list_conversations: customers by name or phone, awaiting reply, all pages", () => {
  const h = useHarness();
  let s: MessagingState;
  beforeAll(() => {
    s = h.sandbox.messaging;
  });

  it("finds a customer's conversations on every page by given name alone, without accents", async () => {
    // A given name that some customers share, written without accents and in capitals.
    const given = words(s.conversations[7]!.customers[0]!.name).at(-1)!;
    const expected = s.conversations.filter((c) => words(c.customers[0]!.name).includes(given)).sort(byUpdated);
    expect(new Set(expected.map((c) => c.page_id)).size).toBeGreaterThan(1);
    const r = await h.call("list_conversations", { customer: given.toUpperCase(), limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(ids(r.data.conversations)).toEqual(ids(expected).slice(0, 50));
    expect(r.data.total).toBe(expected.length);
    for (const row of r.data.conversations) expect(row.page_id).toBe(expected.find((c) => c.id === row.id)!.page_id);
    // Every page holds fewer than 600 conversations: each list was read to its end.
    expect(s.pages.every((page) => s.conversations.filter((c) => c.page_id === page.id).length < 600)).toBe(true);
    expect(r.data.complete).toBe(true);
    for (const page of s.pages) {
      const summary = r.data.pages.find((p: { page_id: string }) => p.page_id === page.id);
      expect(summary).toEqual({ page_id: page.id, page_name: page.name, matched: expected.filter((c) => c.page_id === page.id).length, complete: true });
    }
  });

  it("counts a page read to the range's start as complete, with no searched_back_to to misread", async () => {
    // "Types of conversation on Mây Kids in the last 7 days": the oldest one counted may be days
    // after the range begins, and the list was still read to its start.
    const page = s.pages[1]!;
    const r = await h.call("list_conversations", { page_ids: page.name, since: "last 7 days", group_by: ["type"] });
    expect(r.isError, r.text).toBe(false);
    const since = Date.parse(r.data.range.since);
    const inRange = s.conversations.filter((c) => c.page_id === page.id && ms(c.updated_at) >= since);
    expect(r.data.total).toBe(inRange.length);
    expect(r.data.complete).toBe(true);
    expect(r.data.pages).toEqual([{ page_id: page.id, page_name: page.name, matched: inRange.length, complete: true }]);
  });

  it("drops a form of address and matches the full name folded", async () => {
    const c = s.conversations.find((x) => x.type === "INBOX" && x.page_id === s.pages[1]!.id)!;
    const name = c.customers[0]!.name;
    const expected = s.conversations.filter((x) => words(x.customers[0]!.name).join(" ").includes(words(name).join(" "))).sort(byUpdated);
    const r = await h.call("list_conversations", { customer: `chị ${words(name).join(" ")}`, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(ids(r.data.conversations)).toEqual(ids(expected));
  });

  it("finds the same conversations for a phone in any common form", async () => {
    const c = s.conversations.find((x) => x.recent_phone_numbers.length > 0)!;
    const phone = c.recent_phone_numbers[0]!.phone_number; // 0xxxxxxxxx
    const expected = s.conversations.filter((x) => x.recent_phone_numbers.some((p) => p.phone_number === phone)).sort(byUpdated);
    const national = phone.slice(1);
    const forms = [
      phone,
      `+84 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`,
      `84${national}`,
      `${phone.slice(0, 4)}.${phone.slice(4, 7)}.${phone.slice(7)}`,
    ];
    for (const form of forms) {
      const r = await h.call("list_conversations", { customer: form });
      expect(r.isError, r.text).toBe(false);
      expect(ids(r.data.conversations), form).toEqual(ids(expected));
    }
  });

  it("lists who awaits a reply on every page, with totals per page and an explicit cut", async () => {
    const expected = awaiting(s)
      .filter(thisWeek)
      .map((a) => a.c)
      .sort(byLongestWait);
    const r = await h.call("list_conversations", { awaiting_reply: true, limit: 10 });
    expect(r.isError, r.text).toBe(false);
    expect(ids(r.data.conversations)).toEqual(ids(expected).slice(0, 10));
    // Every conversation awaiting a reply is counted, those of older days apart (issue 28: 32 listed, 171 waiting).
    const every = awaiting(s);
    expect(every.length).toBeGreaterThan(expected.length);
    expect(r.data.total).toBe(every.length);
    expect(r.data.waiting_longer).toBe(every.length - expected.length);
    expect(r.data.note).toMatch(/every conversation awaiting a reply, of all time/);
    expect(r.data.truncated).toBe(true);
    // The customer wrote last in each: each says how long they have waited instead.
    expect(r.data.conversations.every((row: { waiting_minutes: number; last_from?: string }) => row.waiting_minutes >= 0 && row.last_from === undefined)).toBe(true);
    for (const page of s.pages) {
      const summary = r.data.pages.find((p: { page_id: string }) => p.page_id === page.id);
      expect(summary.matched).toBe(every.filter((a) => a.c.page_id === page.id).length);
    }
    // Grouped, every group counts all time: no span of the last days is shown beside them.
    const grouped = await h.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
    expect(grouped.data.total).toBe(every.length);
    expect(grouped.data.groups.map((g: { page_id: string; count: number }) => [g.page_id, g.count]).sort()).toEqual(
      s.pages.map((p) => [p.id, every.filter((a) => a.c.page_id === p.id).length]).filter(([, n]) => n).sort(),
    );
    expect(grouped.data.range).toBeUndefined();
    expect(grouped.data.note).toMatch(/groups and total count every conversation awaiting a reply, of all time/);
    expect(grouped.data.note).not.toMatch(/last 7 days/);
  });

  it("keeps only those waiting at least waiting_minutes, of all time, and says for how long", async () => {
    const all = awaiting(s);
    const now = Date.now();
    // A threshold with no conversation within five minutes of it, so the clock moving cannot flip one.
    const waits = all.map((a) => (now - a.at) / 60_000).sort((a, b) => a - b);
    const gap = waits.findIndex((w, i) => i > 0 && w - waits[i - 1]! > 10 && waits[i - 1]! > 30);
    const minutes = Math.floor(waits[gap - 1]! + 5);
    const expected = all.filter((a) => now - a.at >= minutes * 60_000).map((a) => a.c).sort(byLongestWait);
    expect(expected.length).toBeLessThan(all.length);
    const r = await h.call("list_conversations", { waiting_minutes: minutes, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(ids(r.data.conversations)).toEqual(ids(expected).slice(0, 50));
    expect(r.data.total).toBe(awaiting(s).filter((a) => now - a.at >= minutes * 60_000).length);
    for (const row of r.data.conversations) {
      const at = all.find((a) => a.c.id === row.id)!.at;
      expect(Math.abs(row.waiting_minutes - (Date.now() - at) / 60_000)).toBeLessThan(2);
      // How long they have waited says who wrote last and when: neither is said again.
      expect([row.last_from, row.updated_at], row.id).toEqual([undefined, undefined]);
    }
  });

  it("lists the last 7 days unless told otherwise, counts the older ones apart, says so, and counts who can still be messaged", async () => {
    const r = await h.call("list_conversations", { awaiting_reply: true, limit: 5 });
    expect(r.isError, r.text).toBe(false);
    expect(Date.parse(r.data.range.since)).toBe(weekStart());
    expect(r.data.note).toMatch(/last 7 days/);
    expect(r.data.note).toMatch(/pass waiting_minutes \(0: every one\) or since to list them/);
    const now = Date.now();
    const waiting = awaiting(s).filter((a) => thisWeek(a));
    // The seed holds older ones too: those are what used to bury today's, counted but not listed.
    const ever = awaiting(s);
    expect(ever.length).toBeGreaterThan(waiting.length);
    expect(r.data.total).toBe(ever.length);
    expect(r.data.waiting_longer).toBe(ever.length - waiting.length);
    const open = waiting.filter((a) => a.c.type === "INBOX" && now - a.at < 24 * 3_600_000);
    expect(open.length).toBeGreaterThan(0);
    expect(r.data.within_24h).toBe(open.length);
    // Each page says its own, for the page that has to answer them.
    for (const page of r.data.pages) expect(page.within_24h, page.page_id).toBe(open.filter((a) => a.c.page_id === page.page_id).length);
    expect(r.data.pages.filter((p: { within_24h: number }) => p.within_24h > 0).length).toBeGreaterThan(1);
    const older = await h.call("list_conversations", { awaiting_reply: true, since: "2026-01-01", limit: 5 });
    expect(older.data.total).toBeGreaterThan(waiting.length);
    // A wait asked lists every one of all time, the longest first: no narrower scope than its count.
    const waited = await h.call("list_conversations", { waiting_minutes: 0, limit: 50 });
    expect(waited.data.total).toBe(ever.length);
    expect(waited.data.conversations).toHaveLength(Math.min(50, ever.length));
    expect(waited.data.waiting_longer).toBeUndefined();
    expect(waited.data.range).toBeUndefined();
  });

  it("answers 'not answered since a time' with since, on one page named by name", async () => {
    const page = s.pages[0]!;
    const since = new Date(Date.now() - 2 * 86_400_000);
    const expected = awaiting(s)
      .filter((a) => a.c.page_id === page.id && ms(a.c.updated_at) >= Math.floor(since.getTime() / 1000) * 1000)
      .map((a) => a.c)
      .sort(byLongestWait);
    const r = await h.call("list_conversations", { page_ids: "thoi trang may", awaiting_reply: true, since: Math.floor(since.getTime() / 1000), limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(ids(r.data.conversations)).toEqual(ids(expected));
    expect(r.data.conversations[0].page_id).toBeUndefined();
    expect(r.data.waiting_longer).toBeUndefined();
  });

  it("drops a conversation from the awaiting list once the page replies", async () => {
    // Inside the 24-hour window, where the platform accepts a reply.
    const window = { awaiting_reply: true, type: ["INBOX"], since: Math.floor(Date.now() / 1000) - 23 * 3600, limit: 50 };
    const first = await h.call("list_conversations", window);
    expect(first.data.truncated).toBeUndefined();
    const target = first.data.conversations[0];
    expect(target).toBeDefined();
    const sent = await h.call("send_inbox_message", { page_id: target.page_id, conversation_id: target.id, message: "Dạ shop trả lời ạ" });
    expect(sent.isError, sent.text).toBe(false);
    const after = await h.call("list_conversations", window);
    expect(ids(after.data.conversations)).toEqual(ids(first.data.conversations).filter((id) => id !== target.id));
    expect(after.data.total).toBe(first.data.total - 1);
  });

  it("merges the latest conversations of every page when no page is named, counted once the index holds them", async () => {
    const active = new Set(s.pages.map((p) => p.id));
    const all = s.conversations.filter((c) => active.has(c.page_id)).sort(byUpdated);
    const r = await h.call("list_conversations", { limit: 25 });
    expect(r.isError, r.text).toBe(false);
    expect(ids(r.data.conversations)).toEqual(ids(all.slice(0, 25)));
    expect(r.data.truncated).toBe(true);
    // The awaiting counts above read every page into the index: the list is counted whole.
    expect(r.data.total).toBe(all.length);
    expect(r.data.as_of).toBeDefined();
  });

  it("says in the listing which options take one page only", async () => {
    const tool = (await h.client.listTools()).tools.find((t) => t.name === "list_conversations")!;
    const props = tool.inputSchema.properties as Record<string, { description?: string }>;
    expect(props.with_total!.description).toMatch(/one page/i);
  });

  it("refuses one-page options with a search before calling upstream", async () => {
    const listed = await h.call("list_conversations", { page_ids: s.pages[0]!.id, limit: 5 });
    const before = h.sandbox.server.requests.length;
    for (const extra of [{ with_total: true }, { unread_first: true }, { tags: ["ALL"] }, { cursor: listed.data.next_cursor }]) {
      const r = await h.call("list_conversations", { customer: "Lan", ...extra });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(new RegExp(Object.keys(extra)[0]!));
    }
    expect(h.sandbox.server.requests.filter((q) => q.path.includes("/conversations")).length).toBe(
      h.sandbox.server.requests.slice(0, before).filter((q) => q.path.includes("/conversations")).length,
    );
  });

  it("reports a page that fails with that page and still answers for the others", async () => {
    const broken = s.pages[1]!;
    h.sandbox.server.injectFault({ path: `/v2/pages/${broken.id}/conversations`, kind: "status", status: 403, body: { success: false, message: "No permission" }, times: Infinity });
    try {
      const r = await h.call("list_conversations", { awaiting_reply: true, limit: 50 });
      expect(r.isError, r.text).toBe(false);
      const summary = r.data.pages.find((p: { page_id: string }) => p.page_id === broken.id);
      expect(summary).toMatchObject({ matched: 0, complete: false });
      expect(summary.error).toMatch(/403/);
      const expected = awaiting(s).filter((a) => a.c.page_id !== broken.id);
      // Not a total: the page that failed may have some too.
      expect(r.data).toMatchObject({ complete: false, matched: expected.length });
      expect(r.data.total).toBeUndefined();
    } finally {
      h.sandbox.server.clearFaults();
    }
  });
});

describe("list_conversations: a bounded search says how far back it looked", () => {
  const h = useHarness();

  it("reads at most 600 conversations of a page and names the oldest time it reached", async () => {
    const s = h.sandbox.messaging;
    const page = s.pages[0]!;
    // Grow the page to 800 conversations: 600 old copies, one of them with a customer found nowhere else.
    const template = s.conversations.find((c) => c.page_id === page.id && c.type === "INBOX")!;
    for (let i = 0; i < 600; i++) {
      const at = new Date(Date.parse("2026-01-01T00:00:00Z") - i * 3_600_000).toISOString().slice(0, 19);
      const name = i === 599 ? "Khách Hàng Rất Cũ" : template.customers[0]!.name;
      s.conversations.push({ ...template, id: `${page.id}_old${i}`, updated_at: at, customers: [{ ...template.customers[0]!, name }], from: { ...template.from, name } });
      s.messages[`${page.id}_old${i}`] = s.messages[template.id]!;
    }
    const sorted = s.conversations.filter((c) => c.page_id === page.id).sort(byUpdated);
    const r = await h.call("list_conversations", { page_ids: page.id, customer: "khach hang rat cu" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.conversations).toEqual([]);
    // Nothing found in the 600 read is no total of 0: older ones were not read.
    expect(r.data.total).toBeUndefined();
    expect(r.data.matched).toBe(0);
    expect(r.data.complete).toBe(false);
    expect(r.data.pages[0]).toMatchObject({ matched: 0, complete: false });
    expect(Date.parse(r.data.pages[0].searched_back_to)).toBe(ms(sorted[599]!.updated_at));
    expect(r.data.note).toMatch(/since/);
    // Within a span that reaches it, the same search finds it.
    const found = await h.call("list_conversations", { page_ids: page.id, customer: "khach hang rat cu", since: "2025-01-01", until: "2025-12-31" });
    expect(ids(found.data.conversations)).toEqual([`${page.id}_old599`]);
    expect(found.data).toMatchObject({ total: 1, complete: true });
    expect(found.data.pages[0].searched_back_to).toBeUndefined();
    // Every page, the others read to their end: the one cut short makes the answer incomplete.
    const all = await h.call("list_conversations", { customer: "khach hang rat cu" });
    expect(all.data.complete).toBe(false);
    expect(all.data.pages.filter((p: { complete: boolean }) => !p.complete).map((p: { page_id: string }) => p.page_id)).toEqual([page.id]);
    for (const other of all.data.pages.filter((p: { page_id: string }) => p.page_id !== page.id)) expect(other.searched_back_to).toBeUndefined();
  });
});
