import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderRecord } from "../../src/sandbox/pos/index.js";
import { type Harness, startHarness } from "../helpers/harness.js";

// The order index against the paged list it stands for: two servers on one sandbox, one with the
// index and one reading the list page by page (exact at the demo's size), must give the same
// answer to any grouping, and keep giving it as the shop changes.

const NO_INDEX = { mode: "off", refreshSeconds: 0, maxRows: 1_000, preload: false } as const;
let indexed: Harness;
let paged: Harness;

beforeAll(async () => {
  // The POS's statistics would answer most groupings before the index: both read orders here.
  indexed = await startHarness({ sandbox: { ratePerSecond: 10_000 }, config: { posStatistics: false } });
  paged = await startHarness({ shared: indexed.sandbox, config: { index: NO_INDEX, posStatistics: false } });
});
afterAll(async () => {
  await paged.close();
  await indexed.close();
});

const orders = () => indexed.sandbox.pos.orders;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
/** A change as the POS makes it: the order's update time moves. */
const touch = (o: OrderRecord) => {
  o.updated_at = iso(Math.max(Date.now(), Date.parse(`${o.updated_at}Z`) + 1000));
};

async function both(args: Record<string, unknown>) {
  const [a, b] = await Promise.all([indexed.call("search_orders", args), paged.call("search_orders", args)]);
  expect(a.isError, a.text).toBe(false);
  expect(b.isError, b.text).toBe(false);
  return { index: a.data, list: b.data };
}

/** What both must agree on: the groups, the total, canceled and deleted apart. */
const figures = (d: Record<string, unknown>) => ({ groups: d.groups, total: d.total, canceled: d.canceled, deleted: d.deleted });

describe("the order index", () => {
  it("answers every grouping exactly as the paged list does, whatever the filters", async () => {
    const carriers = [...new Set(orders().flatMap((o) => (o.partner ? [o.partner.partner_id] : [])))];
    const statuses = ["new", "confirmed", "packing", "waiting_to_ship", "shipped", "received", "returning", "returned", "canceled"];
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            group_by: fc.subarray(["status", "carrier", "source", "province", "seller", "warehouse", "day", "month"], { minLength: 1, maxLength: 2 }),
            statuses: fc.subarray(statuses, { minLength: 1 }),
            carriers: fc.subarray(carriers, { minLength: 1 }),
            time_field: fc.constantFrom("inserted_at", "updated_at", "shipped", "last_status"),
            since: fc.constantFrom("last 7 days", "last 30 days", "this month", "2026-09-01"),
            until: fc.constantFrom("yesterday", "today"),
            include_removed: fc.boolean(),
          },
          { requiredKeys: ["group_by"] },
        ),
        async (args) => {
          const { index, list } = await both({ ...args, limit: 100 });
          expect(list.complete).toBe(true);
          expect(index.complete).toBe(true);
          expect(figures(index)).toEqual(figures(list));
          expect(index.as_of).toBeDefined();
        },
      ),
      { numRuns: 40 },
    );
  });

  it("keeps in step with new orders, status changes and deletions, in a request or two", async () => {
    const before = await both({ group_by: ["status"] });
    expect(figures(before.index)).toEqual(figures(before.list));
    // A new order through the tool, one shipped, one deleted, as the POS records each.
    const variation = indexed.sandbox.pos.variations[0]!;
    const created = await indexed.call("create_order", { items: [{ variation_id: variation.id, quantity: 1 }], phone: "0912345678" });
    expect(created.isError, created.text).toBe(false);
    const moving = orders().find((o) => o.status === 9 && !o.is_removed)!;
    moving.status = 2;
    moving.status_history.push({ status: 2, updated_at: iso(Date.now()), editor_id: null } as never);
    touch(moving);
    const gone = orders().find((o) => o.status === 3 && !o.is_removed)!;
    gone.is_removed = true;
    touch(gone);
    indexed.sandbox.server.resetRecords();
    const after = await both({ group_by: ["status"] });
    expect(figures(after.index)).toEqual(figures(after.list));
    expect(after.index.total).toBe((before.index.total as number) + 1 - 1);
    const requests = indexed.sandbox.server.requests.filter((q) => q.path.endsWith("/orders") && q.requestId !== undefined);
    expect(requests.length).toBeLessThanOrEqual(2 + 1);
  });

  it("finds an order the refresh cannot see (written with an old update time) by its count check, and reads afresh", async () => {
    const template = orders().find((o) => o.status === 3 && !o.is_removed)!;
    const old = iso(Date.now() - 40 * 86_400_000);
    // A record restored from a backup: nothing in it says it changed since the index read.
    orders().push({ ...structuredClone(template), id: 9_999_001, display_id: 99_001, inserted_at: old, updated_at: old });
    try {
      const { index, list } = await both({ group_by: ["status"] });
      expect(figures(index)).toEqual(figures(list));
    } finally {
      orders().pop();
    }
    const back = await both({ group_by: ["status"] });
    expect(figures(back.index)).toEqual(figures(back.list));
  });

  it("reads only the older stretch when a question reaches further back than the index holds", async () => {
    const fresh = await startHarness({ shared: indexed.sandbox, config: { posStatistics: false } });
    try {
      await fresh.call("search_orders", { group_by: ["day"], since: "last 7 days" });
      const reads = () => indexed.sandbox.server.requests.filter((q) => q.path.endsWith("/orders") && q.query.updateStatus?.[0] === "updated_at");
      indexed.sandbox.server.resetRecords();
      const all = await fresh.call("search_orders", { group_by: ["month"] });
      expect(all.isError, all.text).toBe(false);
      // Every read of the extension ends before the week already held (which began six days back at the latest).
      const held = Math.floor((Date.now() - 6 * 86_400_000) / 1000);
      const bounded = reads().filter((q) => q.query.endDateTime && q.query.page_size?.[0] !== "1");
      expect(bounded.length).toBeGreaterThan(0);
      for (const q of bounded) expect(Number(q.query.endDateTime![0])).toBeLessThan(held);
    } finally {
      await fresh.close();
    }
  });

  it("answers with an error, never a wrong count, when the upstream fails mid-refresh, then exactly again", async () => {
    await indexed.call("search_orders", { group_by: ["carrier"] });
    indexed.sandbox.server.injectFault({ path: "/orders", kind: "status", status: 502, times: 20 });
    const failed = await indexed.call("search_orders", { group_by: ["carrier"] });
    indexed.sandbox.server.clearFaults();
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(/502/);
    const { index, list } = await both({ group_by: ["carrier"] });
    expect(figures(index)).toEqual(figures(list));
  });
});
