import { beforeAll, describe, expect, it } from "vitest";
import type { ConversationRecord, MessagingState } from "../../../src/sandbox/messaging/index.js";
import { useHarness } from "../../helpers/harness.js";

// A grouped count answers every group the call named, 0 where nothing matched. Counts come from
// the sandbox's records (each conversation's page, type, tags by the page's tag names, and its
// last-activity or creation time), counted here.

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const DAY = 86_400;

type Row = Record<string, unknown> & { count: number };
const counted = (groups: Row[], keys: string[]) => new Map(groups.map((g) => [keys.map((k) => g[k]).join("|"), g.count]));

describe("list_conversations group_by answers the groups it was asked for, 0 included", () => {
  const h = useHarness();
  let s: MessagingState;
  let now: number;
  const activeWithin = (since: number) => (c: ConversationRecord) => ms(c.updated_at) >= since * 1000;
  beforeAll(() => {
    s = h.sandbox.messaging;
    now = Math.floor(h.sandbox.now.getTime() / 1000);
  });

  it("names each type of `type`, one without a match at 0 after those with", async () => {
    // An Instagram page has no ratings at all.
    const page = s.pages.find((p) => p.platform === "instagram_official")!;
    const since = now - 30 * DAY;
    const comments = s.conversations.filter((c) => c.page_id === page.id && c.type === "COMMENT" && activeWithin(since)(c)).length;
    expect(comments).toBeGreaterThan(0);
    const r = await h.call("list_conversations", { page_ids: page.name, since, until: now, type: ["RATING", "COMMENT"], group_by: "type" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.groups).toEqual([
      { type: "COMMENT", count: comments },
      { type: "RATING", count: 0 },
    ]);
    expect(r.data.total).toBe(comments);
    // A zero group ranks last: it takes only the room limit leaves.
    const top = await h.call("list_conversations", { page_ids: page.name, since, until: now, type: ["RATING", "COMMENT"], group_by: "type", limit: 1 });
    expect(top.data.groups).toEqual([{ type: "COMMENT", count: comments }]);
    expect(top.data.other).toBeUndefined();
  });

  it("names every page read, per page and per type together", async () => {
    const since = now - 30 * DAY;
    const ratings = s.conversations.filter((c) => c.type === "RATING" && ms(c.inserted_at) >= since * 1000);
    const r = await h.call("list_conversations", { time_field: "created", since, until: now, type: ["RATING"], group_by: ["page", "type"] });
    expect(r.isError, r.text).toBe(false);
    const expected = new Map(s.pages.map((p) => [`${p.id}|RATING`, ratings.filter((c) => c.page_id === p.id).length]));
    expect([...expected.values()]).toContain(0);
    expect(counted(r.data.groups, ["page_id", "type"])).toEqual(expected);
    for (const g of r.data.groups) expect(g.page).toBe(s.pages.find((p) => p.id === g.page_id)!.name);
  });

  it("names a page with no new conversation in a range the page-number list counts", async () => {
    // The newest hour some page began no conversation in, and another page did.
    const hourOf = (c: ConversationRecord) => Math.floor(ms(c.inserted_at) / 3_600_000);
    const begun = (h: number) => s.pages.map((p) => s.conversations.filter((c) => c.page_id === p.id && hourOf(c) === h).length);
    const latest = Math.floor((now * 1000) / 3_600_000) - 1;
    const hour = Array.from({ length: 24 * 30 }, (_, i) => latest - i).find((h) => begun(h).includes(0) && begun(h).some((n) => n > 0))!;
    expect(hour).toBeDefined();
    const since = hour * 3600;
    const r = await h.call("list_conversations", { time_field: "created", since, until: since + 3599, group_by: "page" });
    expect(r.isError, r.text).toBe(false);
    expect(counted(r.data.groups, ["page_id"])).toEqual(new Map(s.pages.map((p, i) => [p.id, begun(hour)[i]])));
    expect(r.data.groups.at(-1).count).toBe(0);
  });

  it("names each tag of `tags` by its name, one on no conversation of the range at 0", async () => {
    const since = now - 2 * DAY;
    const recent = s.conversations.filter(activeWithin(since));
    const names = s.tags[s.pages[0]!.id]!.map((t) => t.text);
    const carrying = (name: string) => recent.filter((c) => c.tags.some((id) => s.tags[c.page_id]!.find((t) => t.id === id)?.text === name));
    const used = names.find((n) => carrying(n).length > 0)!;
    const unused = names.find((n) => carrying(n).length === 0)!;
    expect(unused).toBeDefined();
    const r = await h.call("list_conversations", { since, until: now, tags: [used, unused], group_by: "tag", limit: 50 });
    expect(r.isError, r.text).toBe(false);
    const groups = counted(r.data.groups, ["tag"]);
    expect(groups.get(used)).toBe(carrying(used).length);
    expect(groups.get(unused)).toBe(0);
    expect(r.data.groups.at(-1)).toEqual({ tag: unused, count: 0 });
  });

  it("answers no zero for a page that could not be read, nor for keys whose values are whatever conversations hold", async () => {
    const broken = s.pages[2]!;
    h.sandbox.server.injectFault({ path: `/v2/pages/${broken.id}/conversations`, kind: "status", status: 403, body: { success: false, message: "No permission" }, times: Infinity });
    try {
      const r = await h.call("list_conversations", { since: now - 7 * DAY, until: now, type: ["RATING"], group_by: "page" });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.complete).toBe(false);
      expect(r.data.groups.map((g: Row) => g.page_id)).not.toContain(broken.id);
    } finally {
      h.sandbox.server.clearFaults();
    }
    const assignees = await h.call("list_conversations", { since: now - 7 * DAY, until: now, type: ["RATING"], group_by: "assignee" });
    expect(assignees.data.groups.every((g: Row) => g.count > 0)).toBe(true);
  });
});
