import { beforeAll, describe, expect, it } from "vitest";
import type { ConversationRecord, MessagingState } from "../../../src/sandbox/messaging/index.js";
import { useHarness } from "../../helpers/harness.js";
import { localDay } from "../page-stats/expected.js";

// Counts come from the sandbox's records: each conversation's page, type, tags (by the page's tag
// names), assignees and creation or last-activity time, counted here, independently of the tool.

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const DAY = 86_400;

type Row = Record<string, unknown> & { count: number };
/** A grouped answer as "key|key" -> count. */
const counted = (groups: Row[], keys: string[]) => new Map(groups.map((g) => [keys.map((k) => g[k]).join("|"), g.count]));

function tally<T>(items: T[], keysOf: (item: T) => string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) for (const key of new Set(keysOf(item))) out.set(key, (out.get(key) ?? 0) + 1);
  return out;
}

describe("list_conversations group_by: counts over every page, read to the end", () => {
  const h = useHarness();
  let s: MessagingState;
  let now: number;
  let live: ConversationRecord[];
  const pageName = (id: string) => s.pages.find((p) => p.id === id)!.name;
  const createdWithin = (since: number, until: number) => (c: ConversationRecord) => ms(c.inserted_at) >= since * 1000 && ms(c.inserted_at) <= until * 1000 + 999;
  beforeAll(() => {
    s = h.sandbox.messaging;
    now = Math.floor(h.sandbox.now.getTime() / 1000);
    const active = new Set(s.pages.map((p) => p.id));
    live = s.conversations.filter((c) => active.has(c.page_id));
  });

  it("counts new conversations per page by creation time: one call a page, the page-number list's total of that range by creation", async () => {
    const since = now - 7 * DAY;
    const expected = tally(live.filter(createdWithin(since, now)), (c) => [pageName(c.page_id)]);
    // Conversations created before the range but active in it are not new: the answer differs from the last-activity count.
    const active = live.filter((c) => ms(c.updated_at) >= since * 1000 && ms(c.inserted_at) < since * 1000);
    expect(active.length).toBeGreaterThan(0);
    const before = h.sandbox.server.requests.length;
    const r = await h.call("list_conversations", { time_field: "created", since, until: now, group_by: ["page"] });
    expect(r.isError, r.text).toBe(false);
    expect(counted(r.data.groups, ["page"])).toEqual(expected);
    const counts = [...expected.values()];
    expect(r.data.groups.map((g: Row) => g.count)).toEqual([...counts].sort((a, b) => b - a));
    for (const g of r.data.groups) expect(pageName(g.page_id)).toBe(g.page);
    expect(r.data.total).toBe(counts.reduce((a, b) => a + b, 0));
    expect(r.data.complete).toBe(true);
    expect(r.data.conversations).toBeUndefined();
    expect(r.data.pages.map((p: { page_name: string }) => p.page_name)).toEqual(s.pages.map((p) => p.name));
    const asked = h.sandbox.server.requests.slice(before).filter((q) => q.path.includes("/conversations"));
    expect(asked.map((q) => q.path).sort()).toEqual(s.pages.map((p) => `/api/public_api/v1/pages/${p.id}/conversations`).sort());
    for (const q of asked) expect(q.query).toMatchObject({ order_by: ["inserted_at"], since: [String(since)], until: [String(now)], page_number: ["1"] });
  });

  it("counts the pages that answer and says complete: false naming the one that refused", async () => {
    const broken = s.pages[1]!;
    h.sandbox.server.injectFault({ path: `/v1/pages/${broken.id}/conversations`, kind: "status", status: 403, body: { success: false, message: "No permission" }, times: Infinity });
    try {
      const since = now - 7 * DAY;
      const r = await h.call("list_conversations", { since, until: now, group_by: "page" });
      expect(r.isError, r.text).toBe(false);
      const expected = tally(live.filter((c) => c.page_id !== broken.id && ms(c.updated_at) >= since * 1000), (c) => [pageName(c.page_id)]);
      expect(counted(r.data.groups, ["page"])).toEqual(expected);
      expect(r.data.complete).toBe(false);
      expect(r.data.pages.find((p: { page_id: string }) => p.page_id === broken.id)).toMatchObject({ complete: false, error: expect.stringMatching(/403/) });
      expect(r.data.note).toMatch(/pages with an error are not counted/);
    } finally {
      h.sandbox.server.clearFaults();
    }
  });

  it("counts by creation where the page-number list lacks the filter, from the index read by last activity", async () => {
    const since = now - 7 * DAY;
    const expected = tally(live.filter((c) => c.type === "INBOX" && createdWithin(since, now)(c)), (c) => [pageName(c.page_id)]);
    const r = await h.call("list_conversations", { time_field: "created", since, until: now, type: "INBOX", group_by: "page" });
    expect(counted(r.data.groups, ["page"])).toEqual(expected);
    expect(r.data.complete).toBe(true);
    expect(r.data.as_of).toBeDefined();
  });

  it("counts per type with RATING among the types", async () => {
    const types = ["RATING", "COMMENT"];
    const expected = tally(
      live.filter((c) => types.includes(c.type)),
      (c) => [c.type],
    );
    expect(expected.get("RATING")).toBeGreaterThan(0);
    const r = await h.call("list_conversations", { type: types, group_by: "type" });
    expect(r.isError, r.text).toBe(false);
    expect(counted(r.data.groups, ["type"])).toEqual(expected);
  });

  it("lists the pages fewest first when asked, a page with none at 0 (issue 39: sorting both ways)", async () => {
    const expected = tally(live.filter((c) => c.type === "RATING"), (c) => [pageName(c.page_id)]);
    for (const p of s.pages) if (!expected.has(p.name)) expected.set(p.name, 0);
    expect([...expected.values()]).toContain(0);
    const r = await h.call("list_conversations", { type: ["RATING"], group_by: ["page"], ascending: true });
    expect(r.isError, r.text).toBe(false);
    expect(counted(r.data.groups, ["page"])).toEqual(expected);
    expect(r.data.groups.map((g: Row) => g.count)).toEqual([...expected.values()].sort((a, b) => a - b));
    const rows = await h.call("list_conversations", { ascending: true });
    expect(rows.isError).toBe(true);
    expect(rows.text).toContain("ascending: orders groups (group_by)");
  });

  it("counts per tag name over the pages (a tag per page id), untagged apart, each conversation once in the total", async () => {
    const names = (c: ConversationRecord) => c.tags.map((t) => s.tags[c.page_id]!.find((x) => x.id === t)!.text);
    const expected = tally(live, (c) => (c.tags.length ? names(c) : ["(no tag)"]));
    expect(live.some((c) => c.tags.length > 1)).toBe(true);
    const r = await h.call("list_conversations", { group_by: ["tag"], limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(counted(r.data.groups, ["tag"])).toEqual(expected);
    expect(r.data.total).toBe(live.length);
    expect(r.data.note).toMatch(/several tags .* counts under each/);
  });

  it("counts per assignee and type, the two keys together, and caps the groups with the rest summed", async () => {
    const expected = tally(live, (c) => (c.current_assign_users.length ? c.current_assign_users.map((u) => u.name) : ["(unassigned)"]).map((a) => `${a}|${c.type}`));
    const all = await h.call("list_conversations", { group_by: ["assignee", "type"], limit: 50 });
    expect(all.isError, all.text).toBe(false);
    expect(counted(all.data.groups, ["assignee", "type"])).toEqual(expected);
    expect(all.data.other).toBeUndefined();
    const top = await h.call("list_conversations", { group_by: ["assignee", "type"], limit: 3 });
    const sorted = [...expected.values()].sort((a, b) => b - a);
    expect(top.data.groups.map((g: Row) => g.count)).toEqual(sorted.slice(0, 3));
    expect(top.data.other).toEqual({ groups: expected.size - 3, count: sorted.slice(3).reduce((a, b) => a + b, 0) });
  });

  it("counts per day of creation in the shop's time zone, in day order, for one page's comments", async () => {
    const page = s.pages[1]!;
    const since = now - 30 * DAY;
    const mine = live.filter((c) => c.page_id === page.id && c.type === "COMMENT" && createdWithin(since, now)(c));
    const expected = tally(mine, (c) => [localDay(ms(c.inserted_at))]);
    const r = await h.call("list_conversations", { page_ids: "Mây Kids", type: "COMMENT", time_field: "created", since, until: now, group_by: "day" });
    expect(r.isError, r.text).toBe(false);
    expect(counted(r.data.groups, ["day"])).toEqual(expected);
    expect(r.data.groups.map((g: Row) => g.day)).toEqual([...expected.keys()].sort());
    expect(r.data.note).toMatch(/day are of creation/);
  });

  it("lists the newest days past limit and sums the earlier ones, never hiding today", async () => {
    const since = now - 10 * DAY;
    const expected = tally(
      live.filter((c) => ms(c.updated_at) >= since * 1000),
      (c) => [localDay(ms(c.updated_at))],
    );
    const days = [...expected.keys()].sort();
    expect(days.length).toBeGreaterThan(4);
    const r = await h.call("list_conversations", { since, until: now, group_by: "day", limit: 3 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.groups.map((g: Row) => g.day)).toEqual(days.slice(-3));
    expect(r.data.groups.at(-1).day).toBe(localDay(now * 1000));
    const earlier = days.slice(0, -3);
    expect(r.data.earlier).toEqual({ groups: earlier.length, count: earlier.reduce((t, d) => t + expected.get(d)!, 0) });
    expect(r.data.other).toBeUndefined();
    expect(r.data.note).toContain(`The ${earlier.length} earliest groups are summed in the "earlier" row`);
  });

  it("counts by last activity by default, and a post's comment threads on the post's page", async () => {
    const since = now - 10 * DAY;
    const expected = tally(
      live.filter((c) => ms(c.updated_at) >= since * 1000),
      (c) => [localDay(ms(c.updated_at))],
    );
    const r = await h.call("list_conversations", { since, until: now, group_by: "day", limit: 50 });
    expect(counted(r.data.groups, ["day"])).toEqual(expected);
    const post = live.find((c) => c.type === "COMMENT")!.post_id!;
    const threads = await h.call("list_conversations", { post_id: post, group_by: "type" });
    expect(threads.isError, threads.text).toBe(false);
    expect(counted(threads.data.groups, ["type"])).toEqual(tally(live.filter((c) => c.post_id === post), (c) => [c.type]));
    expect(threads.data.pages.map((p: { page_id: string }) => p.page_id)).toEqual([live.find((c) => c.post_id === post)!.page_id]);
  });

  it("counts those awaiting a reply per assignee", async () => {
    const weekAgo = now - 6 * DAY;
    const waiting = live.filter((c) => {
      const last = s.messages[c.id]!.at(-1)!;
      return !last.from.admin_id && ms(c.updated_at) >= weekAgo * 1000;
    });
    const expected = tally(waiting, (c) => (c.current_assign_users.length ? c.current_assign_users.map((u) => u.name) : ["(unassigned)"]));
    const r = await h.call("list_conversations", { awaiting_reply: true, since: weekAgo, until: now, group_by: "assignee", limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(counted(r.data.groups, ["assignee"])).toEqual(expected);
    expect(r.data.total).toBe(waiting.length);
  });

  it("refuses what a count cannot do, naming what to do instead, before calling upstream", async () => {
    const listed = await h.call("list_conversations", { page_ids: s.pages[0]!.id, limit: 5 });
    const before = h.sandbox.server.requests.length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ cursor: listed.data.next_cursor }, /cursor: lists rows; group_by answers counts/],
      [{ detail: "full" }, /detail: lists rows; group_by answers counts/],
      [{ with_total: true }, /with_total: does not apply with group_by\nNext step: Drop it: group_by counts every match/],
      [{ unread_first: true }, /unread_first: does not apply with group_by/],
      [{ tags: ["ALL"] }, /Name the tags; group_by \["tag"\] counts each tag/],
      [{ group_by: ["page", "type", "day"] }, /group_by/],
      [{ group_by: ["channel"] }, /"page"\|"type"\|"tag"\|"assignee"\|"day"\|"post"\|"ad" at group_by\[0\]/],
    ];
    for (const [extra, message] of cases) {
      const r = await h.call("list_conversations", { group_by: ["page"], ...extra });
      expect(r.isError, JSON.stringify(extra)).toBe(true);
      expect(r.text).toMatch(message);
    }
    const paged = await h.call("list_conversations", { page_ids: s.pages[0]!.id, with_total: true, type: ["COMMENT"] });
    expect(paged.text).toMatch(/type: cannot be combined with with_total .*\nNext step: Drop with_total and pass group_by/);
    const old = await h.call("list_conversations", { order_by: "inserted_at" });
    expect(old.text).toMatch(/order_by.*time_field/);
    expect(h.sandbox.server.requests.length).toBe(before);
  });
});

/** Without the shop index: lists are walked within their bounds, each filter sent upstream. */
const NO_INDEX = { mode: "off", refreshSeconds: 0, maxRows: 1_000, preload: false } as const;

describe("list_conversations group_by without the shop index", () => {
  const h = useHarness({ config: { index: NO_INDEX } });

  it("walks the v2 list by creation where the count needs a filter the page-number list lacks", async () => {
    const s = h.sandbox.messaging;
    const now = Math.floor(h.sandbox.now.getTime() / 1000);
    const active = new Set(s.pages.map((p) => p.id));
    const live = s.conversations.filter((c) => active.has(c.page_id));
    const pageName = (id: string) => s.pages.find((p) => p.id === id)!.name;
    const since = now - 7 * DAY;
    const created = (c: ConversationRecord) => ms(c.inserted_at) >= since * 1000 && ms(c.inserted_at) <= now * 1000 + 999;
    const expected = tally(live.filter((c) => c.type === "INBOX" && created(c)), (c) => [pageName(c.page_id)]);
    const before = h.sandbox.server.requests.length;
    const r = await h.call("list_conversations", { time_field: "created", since, until: now, type: "INBOX", group_by: "page" });
    expect(counted(r.data.groups, ["page"])).toEqual(expected);
    expect(r.data.as_of).toBeUndefined();
    const asked = h.sandbox.server.requests.slice(before).filter((q) => q.path.includes("/conversations"));
    expect(asked.every((q) => q.path.includes("/v2/pages/"))).toBe(true);
    for (const q of asked) expect(q.query).toMatchObject({ order_by: ["inserted_at"], since: [String(since)], until: [String(now)] });
  });

  it("sends the type filter upstream", async () => {
    const before = h.sandbox.server.requests.length;
    const r = await h.call("list_conversations", { type: ["RATING", "COMMENT"], group_by: "type" });
    expect(r.isError, r.text).toBe(false);
    for (const q of h.sandbox.server.requests.slice(before).filter((x) => x.path.includes("/v2/pages/"))) {
      expect([...(q.query.type ?? []), ...(q.query["type[]"] ?? [])].sort()).toEqual(["COMMENT", "RATING"]);
    }
  });
});

describe("list_conversations group_by on a page with thousands of conversations", () => {
  const h = useHarness({ config: { pageRatePerSecond: 100_000 }, sandbox: { ratePerSecond: 100_000 } });

  it("counts every one per page from the page-number list's total, where a walk would stop at 3,000", async () => {
    const s = h.sandbox.messaging;
    const page = s.pages[2]!;
    const now = h.sandbox.now.getTime();
    const template = s.conversations.find((c) => c.page_id === page.id)!;
    for (let i = 0; i < 3_100; i++) {
      const at = new Date(now - 3_600_000 - i * 600_000).toISOString().slice(0, 19);
      s.conversations.push({ ...template, id: `${page.id}_new${i}`, updated_at: at, inserted_at: at, type: "COMMENT" });
    }
    const since = Math.floor(now / 1000) - 30 * DAY;
    const inRange = (c: ConversationRecord) => c.page_id === page.id && ms(c.inserted_at) >= since * 1000;
    const r = await h.call("list_conversations", { page_ids: page.id, time_field: "created", since, until: "now", group_by: "page" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({ total: s.conversations.filter(inRange).length, complete: true });
    // A filter the page-number list lacks is counted from the shop index, every one of them.
    const comments = await h.call("list_conversations", { page_ids: page.id, time_field: "created", since, until: "now", type: "COMMENT", group_by: "page" });
    expect(comments.data).toMatchObject({ total: s.conversations.filter((c) => inRange(c) && c.type === "COMMENT").length, complete: true });
    expect(comments.data.total).toBeGreaterThan(3_000);
  });
});

describe("list_conversations group_by: a count cut short says so", () => {
  const h = useHarness({ config: { pageRatePerSecond: 100_000, index: NO_INDEX }, sandbox: { ratePerSecond: 100_000 } });

  it("reads at most 3,000 conversations of a page, then says complete: false and how far back it counted", async () => {
    const s = h.sandbox.messaging;
    const page = s.pages[2]!;
    const template = s.conversations.find((c) => c.page_id === page.id)!;
    for (let i = 0; i < 3_000; i++) {
      const at = new Date(Date.parse("2026-01-01T00:00:00Z") - i * 3_600_000).toISOString().slice(0, 19);
      s.conversations.push({ ...template, id: `${page.id}_old${i}`, updated_at: at, inserted_at: at });
    }
    const sorted = s.conversations.filter((c) => c.page_id === page.id).sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id));
    const r = await h.call("list_conversations", { group_by: "page" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.complete).toBe(false);
    const cut = r.data.pages.find((p: { page_id: string }) => p.page_id === page.id);
    expect(cut).toMatchObject({ matched: 3_000, complete: false });
    expect(Date.parse(cut.searched_back_to)).toBe(ms(sorted[2_999]!.updated_at));
    expect(r.data.groups.find((g: Row) => g.page_id === page.id).count).toBe(3_000);
    expect(r.data.note).toMatch(/complete:false were counted back to searched_back_to only \(3000 conversations a page, or 20 s\); narrow since\/until/);
    for (const other of r.data.pages.filter((p: { page_id: string }) => p.page_id !== page.id)) expect(other.complete).toBe(true);
  });
});
