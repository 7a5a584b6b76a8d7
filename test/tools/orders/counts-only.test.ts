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
    expect(counted.data.groups).toEqual([]);
    expect(counted.data.group_count).toBe(listed.data.groups.length);
    expect(counted.data.total).toBe(listed.data.total);
    expect(counted.data.note ?? "").not.toMatch(/"other" row/);
  });

  it("refuses where it cannot count: a filter applied row by row, or a cursor", async () => {
    const filtered = await h.call("search_orders", { livestream: true, limit: 0 });
    expect(filtered.isError).toBe(true);
    expect(filtered.text).toMatch(/limit/);
    expect(filtered.text).toMatch(/livestream/);
    expect(filtered.text).toMatch(/group_by \["status"\]/);
    const first = await h.call("search_orders", { limit: 1 });
    const resumed = await h.call("search_orders", { limit: 0, cursor: first.data.next_cursor });
    expect(resumed.isError).toBe(true);
    expect(resumed.text).toMatch(/cursor/);
  });
});
