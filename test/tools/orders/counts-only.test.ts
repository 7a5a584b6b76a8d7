import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// limit 0 in search_orders, as in list_transactions and list_call_logs: the counts without rows.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

describe("search_orders limit 0", () => {
  it("answers the plain list's total and per-status totals, with no rows", async () => {
    const args = { since: "this month" };
    const listed = await h.call("search_orders", { ...args, limit: 100 });
    const counted = await h.call("search_orders", { ...args, limit: 0 });
    expect(counted.isError, counted.text).toBe(false);
    expect(counted.data.orders).toBeUndefined();
    expect(counted.data.total).toBeGreaterThan(0);
    expect(counted.data.total).toBe(listed.data.total);
    expect(counted.data.totals).toEqual(listed.data.totals);
    // The same orders as a grouping by status counts them.
    const grouped = await h.call("search_orders", { ...args, group_by: ["status"], limit: 100 });
    const byStatus = Object.fromEntries(grouped.data.groups.map((g: { status: string; orders: number }) => [g.status, g.orders]));
    expect(Object.fromEntries(Object.entries(counted.data.totals).map(([s, f]) => [s, (f as { orders: number }).orders]))).toEqual(byStatus);
  });

  it("answers a grouping's group_count and total with no group listed", async () => {
    const args = { since: "this month", group_by: ["province"] };
    const listed = await h.call("search_orders", { ...args, limit: 100 });
    const counted = await h.call("search_orders", { ...args, limit: 0 });
    expect(counted.isError, counted.text).toBe(false);
    // No empty list that reads as "no groups": the answer says it left them out.
    expect(counted.data.groups).toBeUndefined();
    expect(counted.data.note).toMatch(/limit 0: the \d+ groups are left out \(group_count\); pass a limit to list them/);
    expect(counted.data.group_count).toBe(listed.data.groups.length);
    expect(counted.data.total).toBe(listed.data.total);
    expect(counted.data.excluding_canceled_deleted).toEqual(listed.data.excluding_canceled_deleted);
  });

  it("counts with a filter applied row by row too, and refuses a cursor", async () => {
    const live = h.sandbox.pos.orders.filter((o) => !o.is_removed && (o as { is_livestream?: boolean }).is_livestream === true);
    expect(live.length).toBeGreaterThan(0);
    const filtered = await h.call("search_orders", { livestream: true, limit: 0 });
    expect(filtered.isError, filtered.text).toBe(false);
    expect(filtered.data.total).toBe(live.length);
    const kept = live.filter((o) => o.status !== 6 && o.status !== 7);
    expect(filtered.data.excluding_canceled_deleted).toEqual({ orders: kept.length, amount: kept.reduce((n, o) => n + o.total_price_after_sub_discount, 0) });
    const first = await h.call("search_orders", { limit: 1 });
    const resumed = await h.call("search_orders", { limit: 0, cursor: first.data.next_cursor });
    expect(resumed.isError).toBe(true);
    expect(resumed.text).toMatch(/cursor/);
  });
});
