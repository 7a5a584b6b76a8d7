import { describe, expect, it } from "vitest";
import { toDateInZone } from "../../../src/format/time.js";
import type { ConversationRecord } from "../../../src/sandbox/messaging/index.js";
import { useHarness } from "../../helpers/harness.js";

// One rule for scope: with no dates, every filter and grouping of list_conversations counts what the
// same question counts without it, of all time (waiting for a reply too), from the sandbox's raw
// records. Each filter with each grouping: the total is the filter's, and the groups split it.

const h = useHarness({ sandbox: { ratePerSecond: 100_000 } });
const at = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);

type Filter = { name: string; args: Record<string, unknown>; keep: (c: ConversationRecord) => boolean };

const awaiting = (c: ConversationRecord) => {
  const last = h.sandbox.messaging.messages[c.id]?.at(-1);
  return !!last && last.from.admin_id === undefined;
};
const tagged = (name: string) => (c: ConversationRecord) => c.tags.some((id) => tagName(c.page_id, id) === name);
const tagName = (pageId: string, id: number) => h.sandbox.messaging.tags[pageId]?.find((t) => t.id === id)?.text;

function filters(): Filter[] {
  // A tag most pages have and some conversations carry: "Khiếu nại" in the demo shop.
  const tag = "Khiếu nại";
  return [
    { name: "every conversation", args: {}, keep: () => true },
    { name: "awaiting a reply", args: { awaiting_reply: true }, keep: awaiting },
    { name: "waiting over two days", args: { waiting_minutes: 2880 }, keep: (c) => awaiting(c) && Date.now() - at(c.last_customer_interactive_at ?? c.updated_at) >= 2880 * 60_000 },
    { name: "inbox only", args: { type: ["INBOX"] }, keep: (c) => c.type === "INBOX" },
    { name: `tagged ${tag}`, args: { tags: [tag] }, keep: tagged(tag) },
    { name: `awaiting, tagged ${tag}`, args: { awaiting_reply: true, tags: [tag] }, keep: (c) => awaiting(c) && tagged(tag)(c) },
    { name: "awaiting comments", args: { awaiting_reply: true, type: ["COMMENT"] }, keep: (c) => awaiting(c) && c.type === "COMMENT" },
  ];
}

type Key = "page" | "type" | "tag" | "assignee" | "day";
const valuesOf: Record<Key, (c: ConversationRecord) => string[]> = {
  page: (c) => [c.page_id],
  type: (c) => [c.type],
  tag: (c) => {
    const names = [...new Set(c.tags.map((id) => tagName(c.page_id, id)).filter((n): n is string => !!n))];
    return names.length ? names : ["(no tag)"];
  },
  assignee: (c) => (c.current_assign_users.length ? [...new Set(c.current_assign_users.map((u) => u.name))] : ["(unassigned)"]),
  day: (c) => [toDateInZone(new Date(at(c.updated_at)), h.config.timezone)],
};
const labelOf: Record<Key, (g: Record<string, unknown>) => string> = {
  page: (g) => String(g.page_id),
  type: (g) => String(g.type),
  tag: (g) => String(g.tag),
  assignee: (g) => String(g.assignee),
  day: (g) => String(g.day),
};

const live = () => {
  const active = new Set(h.sandbox.messaging.pages.map((p) => p.id));
  return h.sandbox.messaging.conversations.filter((c) => active.has(c.page_id) && !c.is_removed);
};

describe("list_conversations: the same scope under every filter and grouping", () => {
  for (const key of ["page", "type", "tag", "assignee", "day"] as const) {
    it(`group_by ${key} counts what each filter counts, of all time`, async () => {
      for (const filter of filters()) {
        const matches = live().filter(filter.keep);
        const r = await h.call("list_conversations", { ...filter.args, group_by: [key], limit: 50 });
        expect(r.isError, `${filter.name}: ${r.text}`).toBe(false);
        expect(r.data.complete, filter.name).toBe(true);
        expect(r.data.total, `${filter.name} by ${key}`).toBe(matches.length);
        // No narrower span beside all-time groups.
        expect(r.data.range, filter.name).toBeUndefined();
        const want = new Map<string, number>();
        for (const c of matches) for (const v of valuesOf[key](c)) want.set(v, (want.get(v) ?? 0) + 1);
        const got = new Map<string, number>((r.data.groups as Record<string, unknown>[]).map((g) => [labelOf[key](g), Number(g.count)]));
        const summed = (r.data.other?.count ?? 0) + (r.data.earlier?.count ?? 0);
        // Every group listed is exact (a page named with none shows 0); those past the limit are summed.
        for (const [label, count] of got) expect(count, `${filter.name} by ${key}: ${label}`).toBe(want.get(label) ?? 0);
        const rest = [...want].filter(([label]) => !got.has(label)).reduce((n, [, count]) => n + count, 0);
        expect(summed, `${filter.name} by ${key}: summed groups`).toBe(rest);
      }
    });
  }

  it("lists rows of the same scope as the count: a total, and rows or a word on where the rest are", async () => {
    for (const filter of filters().filter((f) => f.args.awaiting_reply || f.args.waiting_minutes !== undefined)) {
      const matches = live().filter(filter.keep);
      const r = await h.call("list_conversations", { ...filter.args, limit: 50 });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.total, filter.name).toBe(matches.length);
      const rows = (r.data.conversations as unknown[]).length;
      // Fewer rows than the limit and the matches: the answer says where the others are.
      if (rows < Math.min(50, matches.length)) {
        expect(r.data.waiting_longer, filter.name).toBe(matches.length - rows);
        expect(r.data.note, filter.name).toMatch(/pass waiting_minutes \(0: every one\) or since to list them/);
      }
    }
  });
});
