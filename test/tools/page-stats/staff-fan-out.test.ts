import { afterAll, beforeAll, expect, it } from "vitest";
import { Sandbox } from "../../../src/sandbox/index.js";
import { type Harness, startHarness } from "../../helpers/harness.js";
import { days, staffTotals } from "./expected.js";

// Page tokens only (no user token): several pages are read one page at a time and summed.
const NOW = new Date("2026-01-02T03:00:00Z");
const SINCE = "2025-12-20";
const UNTIL = "2026-01-01";
const COUNTS = ["inbox_count", "comment_count", "unique_inbox_count", "unique_comment_count", "private_reply_count", "phone_number_count"];

let h: Harness;
let pages: string[];

beforeAll(async () => {
  const pageAccessTokens = new Sandbox({ now: NOW }).credentials.pageTokens;
  h = await startHarness({ sandbox: { now: NOW }, credentials: false, config: { pageAccessTokens } });
  pages = h.sandbox.messaging.pages.map((p) => p.id);
});
afterAll(() => h.close());

it("fans out per page and returns the sum of the single-page results", async () => {
  const single = [];
  for (const p of pages) single.push(await h.call("get_staff_stats", { page_ids: [p], since: SINCE, until: UNTIL }));
  const perPageCalls = () => pages.reduce((t, p) => t + h.sandbox.server.count("GET", `/api/public_api/v1/pages/${p}/statistics/users`), 0);
  const before = perPageCalls();
  const multi = await h.call("get_staff_stats", { page_ids: pages, since: SINCE, until: UNTIL });
  expect(multi.isError, multi.text).toBe(false);
  expect(perPageCalls()).toBe(before + pages.length);
  expect(h.sandbox.server.count("GET", "/api/v1/statistics/user")).toBe(0);

  const rows = single.flatMap((r) => r.data.staff as Record<string, number | string>[]);
  const ids = new Set(rows.map((s) => s.user_id));
  expect(multi.data.staff.length).toBe(ids.size);
  for (const s of multi.data.staff) {
    const mine = rows.filter((r) => r.user_id === s.user_id);
    for (const f of COUNTS) expect(s[f], `${s.user_id} ${f}`).toBe(mine.reduce((t, r) => t + Number(r[f]), 0));
    const means = mine.map((r) => Number(r.avg_response_seconds));
    expect(s.avg_response_seconds).toBeGreaterThanOrEqual(Math.min(...means));
    expect(s.avg_response_seconds).toBeLessThanOrEqual(Math.max(...means));
    expect(s.order_count).toBeUndefined();
  }
  // The sums are also what the seeded records imply.
  const want = staffTotals(h.sandbox.messaging, pages, days(SINCE, UNTIL));
  for (const s of multi.data.staff) expect(s.inbox_count).toBe(want.get(s.user_id)!.inbox_count);
  expect(multi.data.note).toMatch(/weighted/);
  expect(single[0]!.data.note).toBe("order_count needs PANCAKE_ACCESS_TOKEN");
  // Each page was read with the page-token endpoint, in the shop's date_range format.
  const req = h.sandbox.server.requests.find((q) => q.path.endsWith("/statistics/users"));
  expect(req?.query.date_range?.[0]).toBe("20/12/2025 00:00:00 - 01/01/2026 23:59:59");
});

it("asks a repeated page once, and parallel fan-outs stay within the per-page limit", async () => {
  const r = await h.call("get_staff_stats", { page_ids: `${pages[0]},${pages[0]},${pages[1]}`, since: SINCE, until: UNTIL });
  expect(r.isError, r.text).toBe(false);
  expect(r.data.page_ids).toEqual([pages[0], pages[1]]);
  // 7 calls per page at once: over the 5-per-second limit unless the client queues them.
  const burst = await Promise.all(Array.from({ length: 7 }, () => h.call("get_staff_stats", { page_ids: pages, since: SINCE, until: UNTIL })));
  expect(burst.filter((b) => b.isError).map((b) => b.text)).toEqual([]);
  expect(burst.every((b) => JSON.stringify(b.data.totals) === JSON.stringify(burst[0]!.data.totals))).toBe(true);
});
