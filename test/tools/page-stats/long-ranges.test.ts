import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";
import { days, engagementByDay, localDay, pageActivity, tagNet, total } from "./expected.js";

// A range longer than one statistics call takes is read in windows and added up, or refused
// before any call: never cut short without a word. The clock: 22 November 2026, 14:30 in Vietnam.

describe("statistics over more than one call can take", () => {
  const h = useHarness();
  const page = () => h.sandbox.messaging.pages[0]!.id;
  const countCalls = (suffix: string) => h.sandbox.server.requests.filter((r) => r.path.endsWith(suffix)).length;

  it("reads since..now in windows of 31 days and adds them up, today included", async () => {
    const before = countCalls(`/pages/${page()}/statistics/pages`);
    // 1 October to now: 53 days, two windows of the hourly endpoint (it used to stop on 1 November).
    const r = await h.call("get_page_stats", { page_ids: [page()], since: "2026-10-01", by: "page" });
    expect(r.isError, r.text).toBe(false);
    expect(countCalls(`/pages/${page()}/statistics/pages`) - before).toBe(2);
    expect(r.data.range.since).toBe("2026-10-01T00:00:00+07:00");
    // The server's clock runs on from the sandbox's "now" while the tests run.
    const until = Date.parse(r.data.range.until);
    expect(until - h.sandbox.now.getTime()).toBeGreaterThanOrEqual(-1000);
    expect(until - h.sandbox.now.getTime()).toBeLessThan(120_000);
    const want = pageActivity(h.sandbox.messaging, page(), { from: Date.parse("2026-10-01T00:00:00+07:00"), to: until + 999 }, localDay);
    expect(want.has("2026-11-22")).toBe(true);
    for (const field of ["customer_inbox_count", "page_inbox_count", "new_inbox_count", "uniq_phone_number_count"]) {
      expect(r.data.rows[0][field], field).toBe(total(want, field));
    }
    expect(r.data.note).toMatch(/read in 2 windows of at most 31 days/);
  });

  it("gives day rows without a gap or a repeat across windows", async () => {
    const r = await h.call("get_page_stats", { metric: "engagement", page_ids: [page()], since: "2026-07-01", until: "2026-11-21", limit: 500 });
    expect(r.isError, r.text).toBe(false);
    const want = engagementByDay(h.sandbox.messaging, page(), days("2026-07-01", "2026-11-21"));
    const dates = r.data.rows.map((row: { date: string }) => row.date);
    expect(dates).toHaveLength(144);
    expect(new Set(dates).size).toBe(144);
    expect([dates[0], dates.at(-1)]).toEqual(["2026-07-01", "2026-11-21"]);
    expect(r.data.totals.inbox).toBe([...want.values()].reduce((t, v) => t + v.inbox, 0));
    for (const row of r.data.rows) expect(row.inbox, row.date).toBe(want.get(row.date)?.inbox ?? 0);
  });

  it("adds the tag changes of every window, each tag once", async () => {
    const r = await h.call("get_page_stats", { metric: "tags", page_ids: [page()], since: "2026-07-01", until: "2026-11-21" });
    expect(r.isError, r.text).toBe(false);
    const net = tagNet(h.sandbox.messaging, page(), days("2026-07-01", "2026-11-21"));
    expect(r.data.rows).toHaveLength(h.sandbox.messaging.tags[page()]!.length);
    for (const row of r.data.rows) expect(row.net, row.name).toBe([...(net.get(row.tag_id)?.values() ?? [])].reduce((a, b) => a + b, 0));
  });

  it("refuses, before any call, staff and ad ranges longer than their endpoint takes, also with only since", async () => {
    const before = h.sandbox.server.requests.length;
    const staff = await h.call("get_staff_stats", { since: "2026-10-01" });
    expect(staff.isError).toBe(true);
    expect(staff.text).toMatch(/since: the range is longer than the 31 days .*2026-10-01 to now is 53 days/);
    const ads = await h.call("get_ad_stats", { since: "2026-08-01" });
    expect(ads.text).toMatch(/longer than the 92 days .* to now is 114 days/);
    const year = await h.call("get_page_stats", { since: "2025-10-01" });
    expect(year.text).toMatch(/longer than the 366 days/);
    expect(h.sandbox.server.requests.length).toBe(before);
  });
});
