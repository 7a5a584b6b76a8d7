import { beforeAll, describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const DAY = 86_400;

describe("page_data toolset", () => {
  const h = useHarness();
  let pageId: string;
  let now: number;
  beforeAll(() => {
    pageId = h.sandbox.messaging.pages[0]!.id;
    now = Math.floor(h.sandbox.now.getTime() / 1000);
  });

  async function walk(tool: string, args: Record<string, unknown>, key: string) {
    const rows: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    let total: number | undefined;
    do {
      const r = await h.call(tool, { ...args, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      rows.push(...r.data[key]);
      total ??= r.data.total;
      cursor = r.data.next_cursor;
    } while (cursor);
    return { rows, total };
  }

  it("list_page_customers walks a range page by page with the total", async () => {
    const since = now - 40 * DAY;
    const expected = h.sandbox.messaging.customers
      .filter((c) => c.page_id === pageId && ms(c.inserted_at) >= since * 1000 && ms(c.inserted_at) <= now * 1000 + 999)
      .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at) || b.id.localeCompare(a.id));
    const { rows, total } = await walk("list_page_customers", { page_id: pageId, since, until: now, limit: 30 }, "customers");
    expect(total).toBe(expected.length);
    expect(rows.map((r) => r.psid)).toEqual(expected.map((c) => c.psid));
  });

  it("list_posts returns the range's posts with derived counters", async () => {
    const since = now - 60 * DAY;
    const expected = h.sandbox.messaging.posts
      .filter((p) => p.page_id === pageId && ms(p.inserted_at) >= since * 1000 && ms(p.inserted_at) <= now * 1000 + 999)
      .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at));
    const { rows, total } = await walk("list_posts", { page_id: pageId, since, until: now, limit: 4 }, "posts");
    expect(total).toBe(expected.length);
    expect(rows.map((r) => r.id)).toEqual(expected.map((p) => p.id));
    const post = expected[0]!;
    const threads = h.sandbox.messaging.conversations.filter((c) => c.post_id === post.id && c.type !== "INBOX");
    const comments = threads.reduce((sum, c) => sum + c.message_count, 0);
    expect(rows[0]).toMatchObject({ like_count: post.like_count, ...(comments ? { comment_count: comments } : {}) });
  });

  it("list_posts and list_call_logs always ask for 30 rows and slice them locally", async () => {
    const query = (suffix: string) => h.sandbox.server.requests.filter((r) => r.path.endsWith(suffix)).at(-1)!.query;
    const since = now - 60 * DAY;
    const expected = h.sandbox.messaging.posts
      .filter((p) => p.page_id === pageId && ms(p.inserted_at) >= since * 1000 && ms(p.inserted_at) <= now * 1000 + 999)
      .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at));
    expect(expected.length).toBeGreaterThan(12);
    const first = await h.call("list_posts", { page_id: pageId, since, until: now, limit: 7 });
    expect(first.isError, first.text).toBe(false);
    expect(query("/posts")).toMatchObject({ page_number: ["1"], page_size: ["30"] });
    const second = await h.call("list_posts", { page_id: pageId, since, until: now, limit: 7, cursor: first.data.next_cursor });
    expect(query("/posts")).toMatchObject({ page_number: ["1"], page_size: ["30"] });
    expect([...first.data.posts, ...second.data.posts].map((p: { id: string }) => p.id)).toEqual(expected.slice(0, 14).map((p) => p.id));
    const id = h.sandbox.messaging.sipPackages[pageId]!;
    const calls = await h.call("list_call_logs", { page_ids: [pageId], subscription_id: id });
    expect(calls.isError, calls.text).toBe(false);
    expect(calls.data.calls.length).toBe(Math.min(20, h.sandbox.messaging.callLogs.filter((l) => l.page_id === pageId).length));
    expect(query("/sip_call_logs")).toMatchObject({ page_size: ["30"] });
  });

  it("list_call_logs pages through the calls: who, answered or missed, for how long", async () => {
    const id = h.sandbox.messaging.sipPackages[pageId]!;
    const { rows } = await walk("list_call_logs", { page_ids: pageId, subscription_id: id, limit: 30 }, "calls");
    const logs = h.sandbox.messaging.callLogs.filter((l) => l.page_id === pageId);
    expect(rows.length).toBe(logs.length);
    expect(rows.filter((r) => r.answered).length).toBe(logs.filter((l) => l.status === "completed").length);
    expect(rows.map((r) => r.status)).toEqual(logs.map((l) => l.status));
    expect(rows.map((r) => r.talk_seconds ?? 0)).toEqual(logs.map((l) => l.duration));
    expect(rows.map((r) => r.phone_number)).toEqual(logs.map((l) => (l.direction === "inbound" ? l.caller : l.callee)));
  });

  it("list_call_logs says what to look up when the package id is unknown, then remembers the one that worked", async () => {
    const other = h.sandbox.messaging.pages[1]!;
    const before = h.sandbox.server.requests.length;
    const missing = await h.call("list_call_logs", { page_ids: other.id });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/subscription_id: no call-centre package id is known for page \d+/);
    expect(missing.text).toMatch(/PANCAKE_CALL_CENTER_IDS/);
    expect(missing.text).toMatch(/A page without a call centre has no calls to list/);
    expect(h.sandbox.server.requests.length).toBe(before);

    // Once a call with the id succeeded, the page's calls are read without it.
    const id = h.sandbox.messaging.sipPackages[pageId]!;
    expect((await h.call("list_call_logs", { page_ids: pageId, subscription_id: id, limit: 1 })).isError).toBe(false);
    const again = await h.call("list_call_logs", { page_ids: pageId, limit: 3 });
    expect(again.isError, again.text).toBe(false);
    expect(h.sandbox.server.requests.filter((r) => r.path.endsWith("/sip_call_logs")).at(-1)!.query.id).toEqual([id]);

    const wrong = await h.call("list_call_logs", { page_ids: pageId, subscription_id: "sip_wrong" });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toMatch(/Call center package not found/);
    expect(wrong.text).toMatch(/Check the call-centre package id sip_wrong of page/);
    // A refused id does not replace the one that works.
    expect((await h.call("list_call_logs", { page_ids: pageId, limit: 3 })).isError).toBe(false);
  });

  it("list_call_logs tells a page without a call centre from a wrong id", async () => {
    const instagram = h.sandbox.messaging.pages[2]!;
    expect(h.sandbox.messaging.sipPackages[instagram.id]).toBeUndefined();
    const r = await h.call("list_call_logs", { page_ids: instagram.id, subscription_id: "sip_guess" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/has no call centre, so it has no calls to list; do not ask for another id/);
    expect(r.text).not.toMatch(/PANCAKE_CALL_CENTER_IDS/);
  });

  it("enforces the documented page sizes and ranges before calling", async () => {
    const before = h.sandbox.server.requests.length;
    for (const [tool, args] of [
      ["list_posts", { page_id: pageId, limit: 31 }],
      ["list_page_customers", { page_id: pageId, limit: 101 }],
      ["list_call_logs", { page_ids: pageId, subscription_id: "x", limit: 31 }],
      ["list_call_logs", { subscription_id: "x" }],
      ["list_posts", { page_id: pageId, since: "2026-05-02", until: "2026-05-01" }],
      ["list_page_customers", { page_id: "../../v1/pages" }],
    ] as const) {
      const r = await h.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
    }
    expect(h.sandbox.server.requests.length).toBe(before);
  });
});

describe("list_call_logs on the vendor OpenAPI's record", () => {
  const h = useHarness();

  it("reads caller, callee, start_time, duration and status when the seed document's fields are absent", async () => {
    const s = h.sandbox.messaging;
    const pageId = s.pages[0]!.id;
    const openapi = ["id", "call_id", "caller", "callee", "start_time", "duration", "status", "page_id"] as const;
    s.callLogs = s.callLogs.map((l) => Object.fromEntries(openapi.map((k) => [k, l[k]])) as unknown as (typeof s.callLogs)[number]);
    const r = await h.call("list_call_logs", { page_ids: pageId, subscription_id: s.sipPackages[pageId]!, limit: 30 });
    expect(r.isError, r.text).toBe(false);
    const logs = s.callLogs.filter((l) => l.page_id === pageId).slice(0, 30);
    expect(r.data.calls).toEqual(
      logs.map((l) => ({
        caller: l.caller,
        callee: l.callee,
        status: l.status,
        answered: l.status === "completed",
        started_at: expect.stringMatching(/\+07:00$/),
        talk_seconds: l.duration,
      })),
    );
    for (const [i, row] of r.data.calls.entries()) expect(Date.parse(row.started_at)).toBe(ms(logs[i]!.start_time));
  });
});

describe("list_call_logs without any call-centre id", () => {
  const h = useHarness();

  it("says which setting to add, before any call", async () => {
    const none = await h.call("list_call_logs", {});
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/page_ids: no call-centre package id is known for any of these pages/);
    expect(none.text).toMatch(/PANCAKE_CALL_CENTER_IDS/);
    expect(h.sandbox.server.requests.filter((r) => r.path.endsWith("/sip_call_logs"))).toHaveLength(0);
  });
});

describe("list_call_logs over every page with a call centre (PANCAKE_CALL_CENTER_IDS)", () => {
  const h = useHarness({ callCenters: true });
  /** Start of the shop's day: 22 November 2026, 00:00 in Vietnam. */
  const today = Date.parse("2026-11-22T00:00:00+07:00");
  const ms = (t: string) => Date.parse(`${t}Z`);
  const newestFirst = (a: { created_time: string }, b: { created_time: string }) => b.created_time.localeCompare(a.created_time);

  it("answers 'missed calls today' in one call: incoming calls nobody answered, every page, newest first", async () => {
    const s = h.sandbox.messaging;
    const r = await h.call("list_call_logs", { since: "today", missed: true });
    expect(r.isError, r.text).toBe(false);
    const missed = s.callLogs.filter((l) => ms(l.created_time) >= today && l.direction === "inbound" && l.answered_time === null).sort(newestFirst);
    expect(missed.length).toBeGreaterThan(0);
    expect(r.data.calls.map((c: { started_at: string }) => Date.parse(c.started_at))).toEqual(missed.map((l) => ms(l.created_time)));
    expect(r.data.calls.map((c: { page_id: string }) => c.page_id)).toEqual(missed.map((l) => l.page_id));
    for (const c of r.data.calls) expect(c).toMatchObject({ direction: "inbound", answered: false });
    expect(r.data.pages_without_call_center).toEqual([s.pages[2]!.name]);
    // An outbound call the customer did not pick up is no call the shop missed.
    const week = await h.call("list_call_logs", { since: "2026-11-15", missed: true, limit: 30 });
    const since = Date.parse("2026-11-15T00:00:00+07:00");
    const ofWeek = s.callLogs.filter((l) => ms(l.created_time) >= since && l.answered_time === null);
    expect(ofWeek.some((l) => l.direction === "outbound")).toBe(true);
    expect(week.data.calls.length).toBe(Math.min(30, ofWeek.filter((l) => l.direction === "inbound").length));
    expect(week.data.calls.every((c: { direction: string }) => c.direction === "inbound")).toBe(true);
  });

  it("merges every page's calls of a range, and says when there are more than shown", async () => {
    const s = h.sandbox.messaging;
    const since = Date.parse("2026-11-15T00:00:00+07:00");
    const r = await h.call("list_call_logs", { since: "2026-11-15", limit: 30 });
    const all = s.callLogs.filter((l) => ms(l.created_time) >= since).sort(newestFirst);
    expect(new Set(all.map((l) => l.page_id)).size).toBe(2);
    expect(r.data.calls.map((c: { started_at: string }) => Date.parse(c.started_at))).toEqual(all.slice(0, 30).map((l) => ms(l.created_time)));
    expect(r.data.truncated).toBe(all.length > 30 ? true : undefined);
  });

  it("walks one page's missed calls with a cursor that needs no page_ids", async () => {
    const s = h.sandbox.messaging;
    const pageId = s.pages[0]!.id;
    const missed = s.callLogs.filter((l) => l.page_id === pageId && l.direction === "inbound" && l.answered_time === null).sort(newestFirst);
    const seen: number[] = [];
    let r = await h.call("list_call_logs", { page_ids: "Thời Trang Mây", missed: true, limit: 7 });
    seen.push(...r.data.calls.map((c: { started_at: string }) => Date.parse(c.started_at)));
    while (r.data.next_cursor) {
      r = await h.call("list_call_logs", { missed: true, limit: 7, cursor: r.data.next_cursor });
      expect(r.isError, r.text).toBe(false);
      seen.push(...r.data.calls.map((c: { started_at: string }) => Date.parse(c.started_at)));
    }
    expect(seen).toEqual(missed.map((l) => ms(l.created_time)));
    const foreign = await h.call("list_call_logs", { page_ids: s.pages[1]!.id, cursor: (await h.call("list_call_logs", { page_ids: pageId, limit: 1 })).data.next_cursor });
    expect(foreign.text).toMatch(/cursor: belongs to page \d+, not to page_ids/);
  });
});
