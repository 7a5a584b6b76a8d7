import { beforeAll, describe, expect, it } from "vitest";
import type { ConversationRecord, MessagingState } from "../../../src/sandbox/messaging/index.js";
import { useHarness } from "../../helpers/harness.js";

// Each page has its own tags. The demo gives every page the same ones, so here one tag is taken
// off every page but the first (from the page's list and its conversations): a search or count
// for it over every page answers the first page's matches, the others with 0 and complete,
// without reading their lists; only a tag no page has is an error.

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const DAY = 86_400;

describe("list_conversations tags over pages where only some have the tag", () => {
  const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
  let s: MessagingState;
  let now: number;
  let only: { page: string; id: number; name: string };
  const rest = () => s.pages.slice(1).map((p) => p.id);
  const tagged = (pageId: string, tagId: number) => s.conversations.filter((c) => c.page_id === pageId && c.tags.includes(tagId));
  /** Conversation-list requests made for the pages without the tag since `before`. */
  const listsOfRest = (before: number) => h.sandbox.server.requests.slice(before).filter((q) => q.path.includes("/conversations") && rest().some((p) => q.path.includes(`/pages/${p}/`)));

  beforeAll(() => {
    s = h.sandbox.messaging;
    now = Math.floor(h.sandbox.now.getTime() / 1000);
    const first = s.pages[0]!.id;
    // The first page's tag on the most conversations active in the last 20 days.
    const recent = (c: ConversationRecord) => ms(c.updated_at) >= (now - 20 * DAY) * 1000;
    const best = s.tags[first]!.map((t) => ({ t, n: tagged(first, t.id).filter(recent).length })).sort((a, b) => b.n - a.n)[0]!;
    expect(best.n).toBeGreaterThan(1);
    only = { page: first, id: best.t.id, name: best.t.text };
    for (const pageId of rest()) {
      const gone = s.tags[pageId]!.filter((t) => t.text === only.name).map((t) => t.id);
      expect(gone).toHaveLength(1);
      s.tags[pageId] = s.tags[pageId]!.filter((t) => !gone.includes(t.id));
      for (const c of s.conversations) if (c.page_id === pageId) c.tags = c.tags.filter((id) => !gone.includes(id));
    }
  });

  const within = (since: number, field: "updated_at" | "inserted_at") => (c: ConversationRecord) => ms(c[field]) >= since * 1000 && ms(c[field]) <= now * 1000 + 999;
  const pagesAnswer = (matched: number) => [
    { page_id: only.page, page_name: s.pages[0]!.name, matched, complete: true },
    ...s.pages.slice(1).map((p) => ({ page_id: p.id, page_name: p.name, matched: 0, complete: true })),
  ];

  it("per page over 20 days (each page's list total): the tagged page's count, 0 and complete for the others, no list read for them", async () => {
    const since = now - 20 * DAY;
    const truth = tagged(only.page, only.id).filter(within(since, "updated_at")).length;
    const before = h.sandbox.server.requests.length;
    const r = await h.call("list_conversations", { tags: [only.name], group_by: ["page"], since, until: now });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.groups).toEqual([
      { page: s.pages[0]!.name, page_id: only.page, count: truth },
      ...s.pages.slice(1).map((p) => ({ page: p.name, page_id: p.id, count: 0 })),
    ]);
    expect(r.data).toMatchObject({ total: truth, complete: true, pages: pagesAnswer(truth) });
    expect(r.data.note).not.toMatch(/error/);
    expect(listsOfRest(before)).toEqual([]);
  });

  it("per page by creation over 60 days (counted here from every match): the same", async () => {
    const since = now - 60 * DAY;
    const truth = tagged(only.page, only.id).filter(within(since, "inserted_at")).length;
    const before = h.sandbox.server.requests.length;
    const r = await h.call("list_conversations", { tags: [only.name], group_by: ["page"], time_field: "created", since, until: now });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.groups[0]).toEqual({ page: s.pages[0]!.name, page_id: only.page, count: truth });
    expect(r.data).toMatchObject({ total: truth, complete: true, pages: pagesAnswer(truth) });
    expect(listsOfRest(before)).toEqual([]);
  });

  it("by tag, naming a tag every page has and the one only the first has: each counted, the first only where it is", async () => {
    const since = now - 20 * DAY;
    const common = s.tags[only.page]!.find((t) => t.id !== only.id && rest().every((p) => s.tags[p]!.some((x) => x.text === t.text)))!;
    const ids = (name: string) => new Set(s.pages.flatMap((p) => s.tags[p.id]!.filter((t) => t.text === name).map((t) => t.id)));
    const count = (name: string) => s.conversations.filter((c) => within(since, "updated_at")(c) && c.tags.some((id) => ids(name).has(id) && s.tags[c.page_id]!.some((t) => t.id === id))).length;
    const r = await h.call("list_conversations", { tags: [only.name, common.text], group_by: ["tag"], since, until: now });
    expect(r.isError, r.text).toBe(false);
    // The conversations' other tags are counted too; the two named are checked here.
    const byTag = new Map(r.data.groups.map((g: { tag: string; count: number }) => [g.tag, g.count]));
    expect([byTag.get(only.name), byTag.get(common.text)]).toEqual([count(only.name), count(common.text)]);
    expect(count(only.name)).toBeGreaterThan(0);
    expect(r.data.complete).toBe(true);
    expect(r.data.pages.every((p: { error?: string }) => p.error === undefined)).toBe(true);
  });

  it("a search (awaiting a reply): the tagged page's matches, complete, a total, the others not read", async () => {
    const since = now - 20 * DAY;
    const truth = tagged(only.page, only.id).filter((c) => within(since, "updated_at")(c) && c.last_sent_by.id === c.from.id).length;
    const before = h.sandbox.server.requests.length;
    const r = await h.call("list_conversations", { tags: [only.name], awaiting_reply: true, since, until: now, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({ total: truth, complete: true, pages: pagesAnswer(truth) });
    expect(r.data.conversations).toHaveLength(truth);
    expect(truth).toBeGreaterThan(0);
    expect(listsOfRest(before)).toEqual([]);
  });

  it("a tag no page has is an error naming it, with the tags there are", async () => {
    const r = await h.call("list_conversations", { tags: ["Không có thẻ này"], group_by: ["page"], since: now - 20 * DAY, until: now });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`no tag "Không có thẻ này" on any of the ${s.pages.length} pages`);
    expect(r.text).toContain(only.name);
  });
});
