import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";
import { days, localDay, pageActivity, staffTotals, total } from "../page-stats/expected.js";

// get_daily_report resolves pages like every tool (names, comma lists) and covers every page of
// the account when none are named, however many: it used to drop those past the 20th unsaid.

describe("get_daily_report over an account of 23 pages", () => {
  const h = useHarness({ sandbox: { extraPages: 20, ratePerSecond: 10_000 }, config: { pageRatePerSecond: 10_000 } });
  const DAY = "2026-11-21";

  it("reports every page and the staff of all of them", async () => {
    const r = await h.call("get_daily_report", { date: DAY });
    expect(r.isError, r.text).toBe(false);
    const s = h.sandbox.messaging;
    expect(s.pages).toHaveLength(23);
    expect(r.data.inbox.map((p: { page_id: string }) => p.page_id)).toEqual(s.pages.map((p) => p.id));
    const span = days(DAY, DAY);
    for (const page of r.data.inbox) {
      expect(page.messages.customer_inbox_count, page.page_id).toBe(total(pageActivity(s, page.page_id, span, localDay), "customer_inbox_count"));
    }
    const staff = staffTotals(s, s.pages.map((p) => p.id), span);
    expect(r.data.staff.totals.inbox_count).toBe([...staff.values()].reduce((t, v) => t + v.inbox_count, 0));
  });

  it("takes pages by name in a comma list, and a shop id that cannot steer a path", async () => {
    const r = await h.call("get_daily_report", { date: DAY, page_ids: "May Kids, maystore.vn" });
    expect(r.isError, r.text).toBe(false);
    const s = h.sandbox.messaging;
    expect(r.data.inbox.map((p: { page_id: string }) => p.page_id)).toEqual([s.pages[1]!.id, s.pages[2]!.id]);
    const unknown = await h.call("get_daily_report", { date: DAY, page_ids: ["Nowhere Shop"] });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/page_ids\[0\]/);
    const bad = await h.call("get_daily_report", { date: DAY, shop_id: "../orders" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/shop_id/);
  });
});
