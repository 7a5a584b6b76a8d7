import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// statuses ["all"] and exclude_statuses: every status counted in, or every status but some,
// checked against the sandbox's own orders (all time, deleted ones aside as the list does).
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const RETURNED = 5;
const CANCELED = 6;
const listed = () => h.sandbox.pos.orders.filter((o) => !o.is_removed);
const counted = (keep: (status: number) => boolean) => listed().filter((o) => keep(o.status)).length;
const groupOrders = (groups: { orders?: number }[]) => groups.reduce((sum, g) => sum + (g.orders ?? 0), 0);

describe("search_orders status sets", () => {
  it('takes "all" as every status, canceled counted in the groups', async () => {
    const every = await h.call("search_orders", { statuses: ["all"], limit: 0 });
    expect(every.isError, every.text).toBe(false);
    expect(every.data.total).toBe(listed().length);
    expect(every.data.total).toBe((await h.call("search_orders", { limit: 0 })).data.total);

    const canceled = counted((s) => s === CANCELED);
    expect(canceled).toBeGreaterThan(0);
    const byDefault = await h.call("search_orders", { group_by: ["province"], limit: 100 });
    expect(byDefault.data.canceled.orders).toBe(canceled);
    expect(byDefault.data.note).toMatch(/\["all"\]/);
    const all = await h.call("search_orders", { statuses: ["all"], group_by: ["province"], limit: 100 });
    expect(all.isError, all.text).toBe(false);
    expect(all.data.canceled).toBeUndefined();
    expect(groupOrders(all.data.groups)).toBe(listed().length);
    expect(groupOrders(byDefault.data.groups)).toBe(listed().length - canceled - counted((s) => s === 7));
  });

  it("leaves the named statuses out with exclude_statuses, in counts, rows and groups", async () => {
    const left = (s: number) => s !== RETURNED && s !== CANCELED;
    const args = { statuses: ["returned", "cancelled"], exclude_statuses: true };
    const counts = await h.call("search_orders", { ...args, limit: 0 });
    expect(counts.isError, counts.text).toBe(false);
    expect(counts.data.total).toBe(counted(left));
    // Per-status totals come with up to 300 matches: this month's.
    const month = await h.call("search_orders", { ...args, since: "this month", limit: 0 });
    expect(Object.keys(month.data.totals).length).toBeGreaterThan(1);
    expect(Object.keys(month.data.totals)).not.toContain("returned");
    expect(Object.keys(month.data.totals)).not.toContain("canceled");

    const rows = await h.call("search_orders", { ...args, limit: 100, fields: ["id", "status"] });
    expect(rows.data.orders.length).toBeGreaterThan(0);
    expect(rows.data.orders.map((o: { status: string }) => o.status)).not.toContain("returned");

    // Canceled left out by name is gone; deleted, not named, is still counted apart.
    const grouped = await h.call("search_orders", { statuses: ["returned"], exclude_statuses: true, group_by: ["source"], limit: 100 });
    expect(grouped.data.total).toBe(counted((s) => s !== RETURNED));
    expect(grouped.data.canceled.orders).toBe(counted((s) => s === CANCELED));
  });

  it("refuses an exclusion with nothing named, or one that leaves no status", async () => {
    const alone = await h.call("search_orders", { exclude_statuses: true, limit: 0 });
    expect(alone.isError).toBe(true);
    expect(alone.text).toMatch(/exclude_statuses/);
    expect(alone.text).toMatch(/statuses/);
    const nothing = await h.call("search_orders", { statuses: ["all"], exclude_statuses: true, limit: 0 });
    expect(nothing.isError).toBe(true);
    expect(nothing.text).toMatch(/leaves no status/);
    // The server still answers after both.
    expect((await h.call("search_orders", { limit: 0 })).isError).toBe(false);
  });
});
