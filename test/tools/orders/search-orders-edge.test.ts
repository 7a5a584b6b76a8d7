import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/index.js";
import { startOfDay, toDateInZone } from "../../../src/format/time.js";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

/** Newest first, ties by the higher id first: the default order of the list. */
const newest = (orders: OrderRecord[]) =>
  [...orders].sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : b.id - a.id));

describe("search_orders past page 100", () => {
  it("does not repeat rows sharing the edge second with rows of earlier calls", async () => {
    const visible = h.sandbox.pos.orders.filter((o) => !o.is_removed);
    const before = newest(visible);
    // Pages of 5: page 99 holds rows 490-494, page 100 rows 495-499. Rows 490-501 share one second,
    // so the edge group starts in an earlier call and runs past the narrowed window's start.
    const second = before[495]!.inserted_at;
    for (const o of before.slice(490, 502)) o.inserted_at = second;
    const expected = newest(visible).map((o) => String(o.id));

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let calls = 0; calls < 200 && (calls === 0 || cursor); calls++) {
      const r = await h.call("search_orders", { limit: 5, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      seen.push(...r.data.orders.map((o: { id: string }) => String(o.id)));
      cursor = r.data.next_cursor;
    }
    expect(seen).toEqual(expected);
  });
});

describe("search_orders with relative days", () => {
  it("reads since/until yesterday as the shop's calendar day before today", async () => {
    const tz = h.config.timezone;
    const yesterday = toDateInZone(startOfDay(new Date(), tz, -1), tz);
    const spelled = await h.call("search_orders", { time_field: "inserted_at", since: "yesterday", until: "yesterday", limit: 100 });
    const dated = await h.call("search_orders", { time_field: "inserted_at", since: yesterday, until: yesterday, limit: 100 });
    expect(spelled.isError, spelled.text).toBe(false);
    expect(spelled.data.total).toBeGreaterThan(0);
    expect(spelled.data).toEqual(dated.data);
  });
});

describe("a finished period given as since alone", () => {
  it("is refused naming both readings, where it used to count today's orders into yesterday's", async () => {
    for (const word of ["yesterday", "last week", "last month"]) {
      const r = await h.call("search_orders", { time_field: "shipped", since: word });
      expect(r.isError, r.text).toBe(true);
      expect(r.text).toContain(`until "${word}" for ${word} alone`);
      expect(r.text).toContain('until "now"');
    }
    const analytics = await h.call("get_sales_analytics", { since: "last month" });
    expect(analytics.isError, analytics.text).toBe(true);
    expect(analytics.text).toContain('until "last month"');
  });

  it("keeps since alone running to now for a date, today and this week", async () => {
    for (const since of ["today", "this week", toDateInZone(startOfDay(new Date(), h.config.timezone, -3), h.config.timezone)]) {
      const r = await h.call("search_orders", { since, limit: 1 });
      expect(r.isError, r.text).toBe(false);
    }
  });
});

describe("search_orders sorted by a figure, past page 100 of its largest pages", () => {
  const big = useHarness({ sandbox: { ratePerSecond: 100_000 } });

  it("stops with a note saying what reaches further", async () => {
    // 10,100 orders: pages of 100, the largest the list serves, reach row 10,000 at page 100.
    const orders = big.sandbox.pos.orders;
    const live = orders.filter((o) => !o.is_removed);
    for (let i = 0; live.length + i < 10_100; i++) orders.push({ ...live[i % live.length]!, id: 1_000_000 + i });
    const seen: string[] = [];
    let cursor: string | undefined;
    let note: string | undefined;
    for (let calls = 0; calls < 150 && (calls === 0 || cursor); calls++) {
      const r = await big.call("search_orders", { sort: "order_valuation", fields: ["status"], limit: 100, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      seen.push(...r.data.orders.map((o: { id: string }) => String(o.id)));
      cursor = r.data.next_cursor;
      note = r.data.note;
    }
    expect(seen).toHaveLength(10_000);
    expect(new Set(seen).size).toBe(10_000);
    expect(cursor).toBeUndefined();
    expect(note).toContain("repeats rows past page 100");
  });
});
