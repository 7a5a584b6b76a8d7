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

describe("search_orders says what relative dates resolved to", () => {
  // The shop's zone (Asia/Ho_Chi_Minh) is UTC+7 all year.
  const shopDate = (ms: number) => new Date(ms + 7 * 3_600_000).toISOString().slice(0, 10);
  const yesterday = () => shopDate(Date.now() - 86_400_000);

  it("in rows and groups, in the shop's zone, an open end left open", async () => {
    const day = { since: `${yesterday()}T00:00:00+07:00`, until: `${yesterday()}T23:59:59+07:00`, by: "created" };
    const rows = await h.call("search_orders", { since: "yesterday", until: "yesterday", limit: 1 });
    expect(rows.isError, rows.text).toBe(false);
    expect(rows.data.range).toEqual(day);
    const grouped = await h.call("search_orders", { since: "yesterday", until: "yesterday", group_by: ["status"] });
    expect(grouped.data.range).toEqual(day);
    const month = await h.call("search_orders", { since: "this month", limit: 1 });
    expect(month.data.range).toEqual({ since: `${shopDate(Date.now()).slice(0, 8)}01T00:00:00+07:00`, by: "created" });
    // The date a range is over is said: a status's time reads as reaching it.
    const shipped = await h.call("search_orders", { since: "yesterday", until: "yesterday", time_field: "shipped", limit: 1 });
    expect(shipped.data.range).toEqual({ ...day, by: "reached shipped" });
    // No range asked, none said; a page read on with the cursor repeats none.
    expect((await h.call("search_orders", { limit: 1 })).data.range).toBeUndefined();
    expect((await h.call("search_orders", { cursor: rows.data.next_cursor ?? month.data.next_cursor, limit: 1 })).data.range).toBeUndefined();
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

describe("search_orders filtered here past its page budget", () => {
  const big = useHarness({ sandbox: { ratePerSecond: 10_000 } });
  it("names the filter it read for", async () => {
    const orders = big.sandbox.pos.orders;
    const template = orders.find((o) => !o.is_removed)!;
    const stamp = new Date(Date.now() - 60_000).toISOString().slice(0, 19);
    // More new orders than one call reads (20 pages of 100), the newest, none in its status for a day yet.
    for (let i = 0; i < 2_100; i++) {
      orders.push({ ...structuredClone(template), id: 900_000 + i, display_id: 900_000 + i, inserted_at: stamp, last_update_status_at: stamp });
    }
    const r = await big.call("search_orders", { status_older_than: "1 day", since: "2000-01-01", limit: 5 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.next_cursor).toBeDefined();
    expect(r.data.note).toBe("Read 2000 orders for status_older_than (with since/until): pass next_cursor to read on.");
  });
});

describe("search_orders found by time in status, past page 100 of its largest pages", () => {
  const big = useHarness({ sandbox: { ratePerSecond: 100_000 } });

  /** Every row a search lists through its cursors, and the last call's note. */
  async function walk(args: Record<string, unknown>) {
    const seen: string[] = [];
    let cursor: string | undefined;
    let note: string | undefined;
    for (let calls = 0; calls < 150 && (calls === 0 || cursor); calls++) {
      const r = await big.call("search_orders", { ...args, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      seen.push(...r.data.orders.map((o: { id: string }) => String(o.id)));
      cursor = r.data.next_cursor;
      note = r.data.note;
    }
    return { seen, note };
  }

  it("suggests the sort that follows that time, which then reaches further", async () => {
    // 10,100 orders, each in its status for a day: pages of 100 reach row 10,000 at page 100.
    const orders = big.sandbox.pos.orders;
    const live = orders.filter((o) => !o.is_removed);
    const day = Date.now() - 86_400_000;
    for (let i = 0; live.length + i < 10_100; i++) {
      const stamp = new Date(day - i * 1000).toISOString().slice(0, 19);
      orders.push({ ...live[i % live.length]!, id: 1_000_000 + i, last_update_status_at: stamp });
    }
    const stale = orders.filter((o) => !o.is_removed && Date.parse(`${o.last_update_status_at}Z`) <= Date.now() - 3_600_000);
    expect(stale.length).toBeGreaterThan(10_000);
    const byCreation = await walk({ status_older_than: "1 hour", fields: ["status"], limit: 100 });
    expect(byCreation.seen).toHaveLength(10_000);
    expect(byCreation.note).toContain("sort by last_update_status_at");
    expect(byCreation.note).not.toContain("inserted_at");
    const byStatusTime = await walk({ status_older_than: "1 hour", sort: "last_update_status_at", fields: ["status"], limit: 100 });
    expect(new Set(byStatusTime.seen).size).toBe(stale.length);
    // Two walks of 100 calls each over 10,100 orders.
  }, 60_000);
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
    // A walk of 100 calls over 10,100 orders.
  }, 60_000);
});
