import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";
import { adDays, days, localDay } from "./expected.js";

// "The last 7 days" in any tool: today and the 6 days before it, in the shop's zone, each answer
// saying which days it covered. The days are computed from the clock, the figures from the records.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const DAY = 86_400_000;
const today = () => localDay(Date.now());
const daysBack = (n: number) => localDay(Date.now() - n * DAY);
const startOf = (day: string) => `${day}T00:00:00+07:00`;
const dayOf = (iso: string) => iso.slice(0, 10);

describe('"last 7 days" in every tool', () => {
  it("starts at midnight six days ago and ends today in the statistics, sales and order tools alike", async () => {
    const from = startOf(daysBack(6));
    const asked = { since: "last 7 days" };
    const answers = {
      get_ad_stats: (await h.call("get_ad_stats", { ...asked, view: "days" })).data.range,
      get_page_stats: (await h.call("get_page_stats", asked)).data.range,
      get_staff_stats: (await h.call("get_staff_stats", asked)).data.range,
      get_sales_analytics: (({ since, until }) => ({ since, until }))((await h.call("get_sales_analytics", asked)).data),
      search_orders: (await h.call("search_orders", { ...asked, limit: 1 })).data.range,
    };
    for (const [tool, range] of Object.entries(answers)) {
      expect(range.since, tool).toBe(from);
      // search_orders leaves the end open (up to now); the others say it.
      if (tool !== "search_orders") expect(dayOf(range.until), tool).toBe(today());
    }
  });

  it("takes the same days from no dates and from an until alone, in each statistics tool", async () => {
    const from = startOf(daysBack(6));
    for (const tool of ["get_ad_stats", "get_page_stats", "get_staff_stats"]) {
      for (const args of [{}, { until: "now" }, { until: "today" }]) {
        const r = await h.call(tool, args);
        expect(r.isError, r.text).toBe(false);
        expect([tool, args, r.data.range.since, dayOf(r.data.range.until)]).toEqual([tool, args, from, today()]);
      }
    }
  });

  it("says the whole days the ad figures count, and counts each of them", async () => {
    const r = await h.call("get_ad_stats", { view: "days", since: "last 7 days" });
    // The platform counts whole days: the answer says so, to today's end.
    expect(r.data.range).toEqual({ since: startOf(daysBack(6)), until: `${today()}T23:59:59+07:00` });
    const span = days(daysBack(6), today());
    const pages = h.sandbox.messaging.pages.map((p) => p.id).filter((p) => p !== h.sandbox.messaging.adsDeniedPageId);
    const delivered = pages.flatMap((p) => adDays(h.sandbox.messaging, p, span));
    expect(r.data.rows.map((row: { date: string }) => row.date)).toEqual([...new Set(delivered.map((d) => d.date))].sort());
    expect(r.data.totals.spend).toBe(delivered.reduce((t, d) => t + d.spend, 0));
  });
});
