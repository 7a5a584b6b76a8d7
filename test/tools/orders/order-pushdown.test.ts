import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/index.js";
import { applyTotals } from "../../../src/sandbox/pos/order-model.js";
import { SWEEP_BOUNDS } from "../../../src/tools/orders/every-order.js";
import { type Harness, startHarness } from "../../helpers/harness.js";

// search_orders group_by counted by the POS's statistics (GET /analytics/sale) against the same
// question read order by order from the list: two servers on one sandbox, one that may push the
// grouping down and one that never does (posStatistics off), both without the shop index.

const NO_INDEX = { mode: "off", refreshSeconds: 0, maxRows: 1_000, preload: false } as const;
let pushed: Harness;
let paged: Harness;

beforeAll(async () => {
  pushed = await startHarness({ sandbox: { ratePerSecond: 10_000 }, config: { index: NO_INDEX } });
  paged = await startHarness({ shared: pushed.sandbox, config: { index: NO_INDEX, posStatistics: false } });
  // Money the seed's orders lack: a discount on a product besides the order's, and free shipping
  // over a recorded fee, so each figure's meaning is put to the test.
  for (const o of pushed.sandbox.pos.orders) {
    if (o.id % 5 === 0) o.items[0]!.discount_each_product = 15_000;
    if (o.id % 7 === 0 && o.shipping_fee > 0) o.is_free_shipping = true;
    applyTotals(o);
  }
});
afterAll(async () => {
  await paged.close();
  await pushed.close();
});
afterEach(() => pushed.sandbox.server.clearFaults());

const pos = () => pushed.sandbox.pos;
const statisticsReads = (h: Harness) => h.sandbox.server.requests.filter((q) => q.path.endsWith("/analytics/sale")).length;

type Answer = Record<string, unknown> & { note?: string };

/** What both must agree on: the groups and their figures, the totals, canceled and deleted apart, and the notes but the pushdown's own. */
const figures = (d: Answer) => ({
  groups: d.groups,
  total: d.total,
  canceled: d.canceled,
  deleted: d.deleted,
  complete: d.complete,
  currency: d.currency,
  range: d.range,
  note: d.note?.replace(/^Counted by the POS's sales statistics[^.]*\.\s*/, "") || undefined,
});

async function both(args: Record<string, unknown>) {
  const [a, b] = await Promise.all([pushed.call("search_orders", args), paged.call("search_orders", args)]);
  expect(a.isError, a.text).toBe(false);
  expect(b.isError, b.text).toBe(false);
  return { pushed: a.data as Answer, paged: b.data as Answer };
}

describe("search_orders group_by pushed down to the POS's statistics", () => {
  it("answers every eligible grouping exactly as the paged list does, whatever the filters", async () => {
    const carriers = [...new Set(pos().orders.flatMap((o) => (o.partner ? [o.partner.partner_id] : [])))];
    const sources = pos().orderSources.filter((s) => s.parent_id === undefined).map((s) => s.name);
    const buyers = [...new Set(pos().orders.flatMap((o) => (o.shop_customer_id ? [o.shop_customer_id] : [])))].slice(0, 5);
    const statuses = ["new", "confirmed", "packing", "waiting_to_ship", "shipped", "received", "returning", "returned", "canceled", "deleted"];
    const keys = ["status", "carrier", "source", "province", "creator", "seller", "warehouse", "day", "week", "month"];
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            group_by: fc.subarray(keys, { minLength: 1, maxLength: 2 }).filter((k) => !(k.includes("creator") && k.includes("seller"))),
            statuses: fc.subarray(statuses, { minLength: 1 }),
            carriers: fc.subarray(carriers, { minLength: 1 }),
            sources: fc.subarray(sources, { minLength: 1, maxLength: 3 }),
            exclude_sources: fc.boolean(),
            customer_id: fc.constantFrom(...buyers),
            time_field: fc.constant("inserted_at"),
            since: fc.constantFrom("last 7 days", "last 30 days", "this month", "2026-09-01"),
            until: fc.constantFrom("yesterday", "today", "2026-11-20"),
            group_sort: fc.constantFrom("orders", "total", "cod", "shipping_fee"),
          },
          { requiredKeys: ["group_by"] },
        ),
        async (args) => {
          const r = await both({ ...args, limit: 100 });
          expect(r.pushed.counted_by).toBe("pos_analytics");
          expect(r.paged.counted_by).toBeUndefined();
          expect(r.pushed.note).toMatch(/^Counted by the POS's sales statistics/);
          expect(figures(r.pushed)).toEqual(figures(r.paged));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("costs the same few requests however many orders the shop holds", async () => {
    const grouping = { group_by: ["carrier", "week"], since: "2026-09-01", limit: 100 };
    const server = pushed.sandbox.server;
    await pushed.call("search_orders", grouping);
    const cost = async () => {
      server.resetRecords();
      const r = await pushed.call("search_orders", grouping);
      expect(r.isError, r.text).toBe(false);
      expect(r.data.counted_by).toBe("pos_analytics");
      return { requests: server.requests.length, total: r.data.total as number, statuses: (r.data.note as string).replace(/of the \d+ orders/, "of the N orders") };
    };
    const small = await cost();
    // Ten times the delivered orders (every one of them confirmed once): a shop ten times the size.
    const delivered = pos().orders.filter((o) => [3, 16].includes(o.status) && !o.is_removed && o.inserted_at >= "2026-08-31T17:00:00");
    expect(delivered.length).toBeGreaterThan(100);
    const clones = delivered.flatMap((o, i) =>
      Array.from({ length: 9 }, (_, k) => ({ ...structuredClone(o), id: 9_000_000 + i * 10 + k, display_id: 900_000 + i * 10 + k })),
    );
    pos().orders.push(...clones);
    try {
      const large = await cost();
      expect(large.total).toBe(small.total + clones.length);
      expect(large.requests).toBe(small.requests);
      expect(large.statuses).toBe(small.statuses);
      // The statistics, the list's count in all and of each status an order sits in unconfirmed
      // (6), and the pages of those that differ: the new, waiting and canceled orders.
      expect(small.requests).toBeLessThanOrEqual(1 + 1 + 6 + 4);
      const { paged: list } = await both(grouping);
      expect(list.total).toBe(large.total);
    } finally {
      pos().orders.splice(pos().orders.length - clones.length, clones.length);
    }
  });

  it("reads from the list the orders of a status some of which never reached confirmed, and says which", async () => {
    const skipped = pos().orders.find((o) => o.status === 3 && !o.is_removed && o.status_history.some((h) => h.status === 1))!;
    const history = skipped.status_history;
    // Delivered without ever being confirmed (a counter sale, a status set past it): the statistics never count it.
    skipped.status_history = history.filter((h) => h.status !== 1);
    try {
      const r = await both({ group_by: ["status"], limit: 100 });
      expect(figures(r.pushed)).toEqual(figures(r.paged));
      expect(r.pushed.note).toMatch(/^Counted by the POS's sales statistics.*the [a-z_, ]*received[a-z_, ]* orders, not all ever confirmed, were read from the list\./);
    } finally {
      skipped.status_history = history;
    }
    const again = await pushed.call("search_orders", { group_by: ["status"], limit: 100 });
    expect(again.data.note).not.toMatch(/\breceived\b.*were read from the list/);
  });

  it("reads the orders when the statistics cannot answer the question, the same answer either way", async () => {
    const account = pos().orderSources.find((s) => s.parent_id !== undefined)!;
    const top = pos().orderSources.find((s) => s.id === account.parent_id)!;
    const ineligible: Record<string, unknown>[] = [
      { group_by: ["page"] },
      { group_by: ["creator", "seller"] },
      { group_by: ["status"], time_field: "shipped", since: "2026-10-01" },
      { group_by: ["carrier"], search: "09" },
      { group_by: ["carrier"], include_removed: true },
      { group_by: ["carrier"], post_ids: ["123"] },
      { group_by: ["carrier"], livestream: false },
      { group_by: ["carrier"], ad_ids: ["120210000000000101"] },
      { group_by: ["carrier"], sources: [`${top.name}/${account.name}`] },
      { group_by: ["status"], status_older_than: "2 days" },
    ];
    for (const args of ineligible) {
      pushed.sandbox.server.resetRecords();
      const r = await both({ ...args, limit: 100 });
      expect(statisticsReads(pushed), JSON.stringify(args)).toBe(0);
      expect(r.pushed.counted_by, JSON.stringify(args)).toBeUndefined();
      expect(r.pushed, JSON.stringify(args)).toEqual(r.paged);
    }
  });

  it("reads the orders when the statistics fail, or when more orders differ than a grouping reads", async () => {
    pushed.sandbox.server.injectFault({ path: /\/analytics\/sale$/, kind: "status", status: 502, times: Number.POSITIVE_INFINITY });
    const failed = await both({ group_by: ["carrier"], since: "last 30 days" });
    expect(failed.pushed.counted_by).toBeUndefined();
    expect(failed.pushed).toEqual(failed.paged);
    pushed.sandbox.server.clearFaults();

    const saved = { ...SWEEP_BOUNDS };
    // Fewer than the new and canceled orders of all time.
    SWEEP_BOUNDS.orders = 20;
    try {
      pushed.sandbox.server.resetRecords();
      const r = await both({ group_by: ["carrier"] });
      expect(statisticsReads(pushed)).toBe(1);
      expect(r.pushed.counted_by).toBeUndefined();
      expect(r.pushed).toEqual(r.paged);
    } finally {
      Object.assign(SWEEP_BOUNDS, saved);
    }
  });

  it("counts by the statistics when the partly returned orders' lines are too many to read, saying what the value returned leaves out", async () => {
    const args = { statuses: ["partly_returned", "received"], group_by: ["status"] };
    const partly = pos().orders.filter((o) => !o.is_removed && o.status === 15).length;
    expect(partly).toBeGreaterThan(1);
    const whole = await both(args);
    expect(whole.pushed.counted_by).toBe("pos_analytics");
    expect(whole.pushed.returned_amount).toBe(whole.paged.returned_amount);
    const saved = { ...SWEEP_BOUNDS };
    SWEEP_BOUNDS.orders = partly - 1;
    try {
      const r = (await pushed.call("search_orders", args)).data as Answer;
      expect(r.counted_by).toBe("pos_analytics");
      // The counts and amounts are whole; only the goods back of the partly returned ones are missing, and said so.
      const counts = (d: Answer) => (d.groups as { status: string; orders: number; amount: number }[]).map(({ status, orders, amount }) => ({ status, orders, amount }));
      expect(counts(r)).toEqual(counts(whole.paged));
      expect(r.returned_amount).toBeUndefined();
      expect(r.returned_amount_leaves_out).toEqual({ statuses: ["partly_returned"], orders: partly });
      expect(r.note).toMatch(new RegExp(`returned_amount leaves out the goods back of ${partly} partly_returned orders`));
      expect(whole.pushed.returned_amount_leaves_out).toBeUndefined();
    } finally {
      Object.assign(SWEEP_BOUNDS, saved);
    }
  });

  it("reads the orders when a list does not name what the statistics give by id: the orders' own names stand", async () => {
    // Servers of their own: the lists are read afresh.
    const [cold, coldPaged] = await Promise.all([
      startHarness({ shared: pushed.sandbox, config: { index: NO_INDEX } }),
      startHarness({ shared: pushed.sandbox, config: { index: NO_INDEX, posStatistics: false } }),
    ]);
    const users = pos().users;
    const creator = pos().orders.find((o) => !o.is_removed && o.status === 3)!.creator;
    try {
      // A staff member no longer on the shop's list: the orders still carry their name.
      pos().users = users.filter((u) => u.id !== creator.id);
      const [a, b] = await Promise.all([cold.call("search_orders", { group_by: ["creator"] }), coldPaged.call("search_orders", { group_by: ["creator"] })]);
      expect(a.data.counted_by).toBeUndefined();
      expect(a.data).toEqual(b.data);
      expect(a.data.groups.map((g: { creator: string }) => g.creator)).toContain(creator.name);
      pos().users = users;
      // Province lists that cannot be read: each province as the orders name it.
      pushed.sandbox.server.injectFault({ path: "/geo/provinces", kind: "status", status: 502, times: Number.POSITIVE_INFINITY });
      const r = await cold.call("search_orders", { group_by: ["province"], limit: 100 });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.counted_by).toBeUndefined();
      const live = pos().orders.filter((o: OrderRecord) => !o.is_removed && o.status !== 6 && o.status !== 7);
      expect(new Set(r.data.groups.map((g: { province: string }) => g.province))).toEqual(new Set(live.map((o) => o.shipping_address.province_name)));
      expect(r.data.note).toContain("The province lists could not be read");
    } finally {
      pos().users = users;
      await Promise.all([cold.close(), coldPaged.close()]);
    }
  });
});

describe("search_orders group_by with the shop index", () => {
  it("asks the statistics until the index holds the span, then the index", async () => {
    const h = await startHarness({ shared: pushed.sandbox });
    try {
      const week = { group_by: ["carrier"], since: "last 7 days" };
      const first = await h.call("search_orders", week);
      expect(first.data.counted_by).toBe("pos_analytics");
      expect(first.data.as_of).toBeUndefined();
      // A question the statistics cannot answer reads the month into the index.
      await h.call("search_orders", { group_by: ["page"], since: "last 30 days" });
      pushed.sandbox.server.resetRecords();
      const second = await h.call("search_orders", week);
      expect(statisticsReads(h)).toBe(0);
      expect(second.data.counted_by).toBeUndefined();
      expect(second.data.as_of).toBeDefined();
      expect(figures(second.data)).toEqual(figures(first.data));
    } finally {
      await h.close();
    }
  });
});

describe("after a pushed-down answer", () => {
  it("reads the orders into the shop index meanwhile, so the same question next costs a request or two", async () => {
    const warm = await startHarness({ shared: pushed.sandbox });
    try {
      const grouping = { group_by: ["carrier"], since: "last 30 days" };
      const first = await warm.call("search_orders", grouping);
      expect(first.isError, first.text).toBe(false);
      expect(first.data.counted_by).toBe("pos_analytics");
      // The index is read in the background: wait until a question finds it holding the span.
      let again = first;
      for (let i = 0; i < 50 && again.data.as_of === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        again = await warm.call("search_orders", grouping);
      }
      expect(again.data.as_of).toBeDefined();
      expect(again.data.groups).toEqual(first.data.groups);
      pushed.sandbox.server.resetRecords();
      const third = await warm.call("search_orders", grouping);
      expect(third.data.counted_by).toBeUndefined();
      expect(pushed.sandbox.server.requests.filter((q) => q.path.includes("/orders") || q.path.endsWith("/analytics/sale")).length).toBeLessThanOrEqual(2);
    } finally {
      await warm.close();
    }
  });
});
