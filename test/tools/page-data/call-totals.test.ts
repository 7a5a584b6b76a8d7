import { describe, expect, it } from "vitest";
import type { MessagingState } from "../../../src/sandbox/messaging/index.js";
import { useHarness } from "../../helpers/harness.js";

// "How many calls did we miss": totals from the sandbox's call records (answered or not, which
// way), counted here, never from the tool's rows.

const ms = (t: string) => Date.parse(`${t}Z`);
type Log = MessagingState["callLogs"][number];
const outcome = (l: Log) => (l.answered_time !== null ? "answered" : l.direction === "outbound" ? "unanswered_outgoing" : "missed");

function totalsOf(logs: Log[]) {
  const totals = { calls: logs.length, answered: 0, missed: 0, unanswered_outgoing: 0 };
  for (const l of logs) totals[outcome(l)]++;
  return totals;
}

/** Monday of the test clock's week (2026-11-16), 00:00 in Vietnam. */
const WEEK = Date.parse("2026-11-16T00:00:00+07:00");

describe("list_call_logs totals", () => {
  // The rate out of the way: a read refused for it (429) is tried again, which is not what this counts.
  const h = useHarness({ callCenters: true, sandbox: { ratePerSecond: 10_000 } });

  it("says how many calls this week had, missed among them, on every page, in one call of one row", async () => {
    const s = h.sandbox.messaging;
    const before = h.sandbox.server.requests.length;
    const r = await h.call("list_call_logs", { since: "this week", limit: 1 });
    expect(r.isError, r.text).toBe(false);
    const week = s.callLogs.filter((l) => ms(l.created_time) >= WEEK);
    const pages = s.pages.filter((p) => s.sipPackages[p.id]);
    expect(r.data.totals).toEqual(totalsOf(week));
    expect(r.data.totals.missed).toBeGreaterThan(0);
    expect(r.data.total).toBe(week.length);
    expect(r.data.complete).toBe(true);
    expect(r.data.calls).toHaveLength(1);
    expect(r.data.pages).toEqual(
      pages.map((p) => ({ page_id: p.id, page_name: p.name, totals: totalsOf(week.filter((l) => l.page_id === p.id)), complete: true })),
    );
    // The rows and the count read the same upstream pages: none asked twice.
    const asked = h.sandbox.server.requests.slice(before).filter((q) => q.path.endsWith("/sip_call_logs"));
    const keys = asked.map((q) => `${q.path} ${q.query.page_number}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("gives the missed calls' count as the total of a missed list, for one page", async () => {
    const s = h.sandbox.messaging;
    const page = s.pages[1]!;
    const week = s.callLogs.filter((l) => l.page_id === page.id && ms(l.created_time) >= WEEK);
    const r = await h.call("list_call_logs", { page_ids: page.name, since: "this week", missed: true, limit: 2 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.total).toBe(week.filter((l) => outcome(l) === "missed").length);
    expect(r.data.totals).toEqual(totalsOf(week));
    expect(r.data.calls.every((c: { answered: boolean; direction: string }) => !c.answered && c.direction === "inbound")).toBe(true);
  });

  it("answers the totals alone with limit 0, the same whatever the limit, and says so in its listing", async () => {
    const s = h.sandbox.messaging;
    const week = s.callLogs.filter((l) => ms(l.created_time) >= WEEK);
    const alone = await h.call("list_call_logs", { since: "this week", limit: 0 });
    expect(alone.isError, alone.text).toBe(false);
    expect(alone.data).toMatchObject({ calls: [], total: week.length, totals: totalsOf(week), complete: true });
    expect(alone.data.truncated).toBeUndefined();
    expect(alone.data.next_cursor).toBeUndefined();
    for (const p of alone.data.pages) expect(p.totals).toEqual(totalsOf(week.filter((l) => l.page_id === p.page_id)));
    const withRows = await h.call("list_call_logs", { since: "this week", limit: 30 });
    expect(withRows.data.totals).toEqual(alone.data.totals);
    const tool = (await h.client.listTools()).tools.find((t) => t.name === "list_call_logs")!;
    expect(tool.description).toMatch(/totals of the whole range, whatever limit/);
    expect((tool.inputSchema.properties as Record<string, { description?: string }>).limit!.description).toMatch(/0: totals only/);
  });

  it("refuses limit 0 where there are no totals to give, before calling", async () => {
    const before = h.sandbox.server.requests.length;
    const r = await h.call("list_call_logs", { limit: 0 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/limit: 0 asks for the totals of a range alone: they need since\/until/);
    expect(h.sandbox.server.requests.length).toBe(before);
  });

  it("without since/until lists without totals, and says what gives them", async () => {
    const r = await h.call("list_call_logs", { page_ids: h.sandbox.messaging.pages[0]!.id, limit: 5 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.totals).toBeUndefined();
    expect(r.data.note).toMatch(/totals \(missed among them\) need since\/until/);
  });
});

describe("list_call_logs totals cut short", () => {
  const h = useHarness({ callCenters: true, config: { pageRatePerSecond: 100_000 }, sandbox: { ratePerSecond: 100_000 } });

  it("counts at most 1,200 calls of a page, then says complete: false and how far back it counted", async () => {
    const s = h.sandbox.messaging;
    const page = s.pages[0]!;
    const template = s.callLogs.find((l) => l.page_id === page.id)!;
    // 1,300 more calls this week, a minute apart before the newest.
    const newest = Date.parse("2026-11-22T07:00:00Z");
    for (let i = 0; i < 1_300; i++) {
      const at = new Date(newest - i * 60_000).toISOString().slice(0, 19);
      s.callLogs.push({ ...template, id: `extra${i}`, call_id: `extra${i}`, created_time: at, start_time: at });
    }
    s.callLogs.sort((a, b) => b.created_time.localeCompare(a.created_time));
    const counted = s.callLogs.filter((l) => l.page_id === page.id && ms(l.created_time) >= WEEK).slice(0, 1_200);
    const r = await h.call("list_call_logs", { page_ids: page.id, since: "this week", limit: 1 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.complete).toBe(false);
    expect(r.data.totals).toEqual(totalsOf(counted));
    expect(r.data.total).toBeUndefined();
    expect(Date.parse(r.data.counted_back_to)).toBe(ms(counted.at(-1)!.created_time));
    expect(r.data.note).toMatch(/counted back to counted_back_to only: narrow since\/until/);
  });
});
