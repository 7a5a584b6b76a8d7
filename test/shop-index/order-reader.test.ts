import { describe, expect, it } from "vitest";
import type { OrderListParams, Paged } from "../../src/clients/pos.js";
import type { PosOrder } from "../../src/clients/schemas/pos.js";
import { readOrders as read } from "../../src/shop-index/order-reader.js";
import type { Progress } from "../../src/shop-index/row-index.js";
import { OPEN } from "../../src/shop-index/store.js";

// The reader against a list that behaves as the POS's does (filter by update time, inclusive
// seconds; oldest update first; pages of 100 with the total; removed orders only when asked),
// while the shop goes on changing between its requests.

interface Row {
  id: number;
  updated: number;
  removed?: boolean;
}

const iso = (s: number) => new Date(s * 1000).toISOString().slice(0, 19);
const NOW = Math.floor(Date.now() / 1000);

class FakeList {
  requests: OrderListParams[] = [];
  /** Runs before each request is answered: the shop changing while it is read. */
  meanwhile: (request: number) => void = () => {};
  /** Records as the vendor's OpenAPI shows them, without `is_removed`. */
  flagless = false;

  constructor(public rows: Row[]) {}

  list = async (q: OrderListParams): Promise<Paged<PosOrder>> => {
    this.requests.push(q);
    this.meanwhile(this.requests.length);
    const matched = this.rows
      .filter((r) => (!r.removed || q.include_removed === 1) && (q.startDateTime === undefined || r.updated >= q.startDateTime) && (q.endDateTime === undefined || r.updated <= q.endDateTime))
      .sort((a, b) => a.updated - b.updated || a.id - b.id);
    const size = q.page_size ?? 30;
    const page = q.page_number ?? 1;
    const data = matched.slice((Math.min(page, 100) - 1) * size, Math.min(page, 100) * size).map((r) => ({
      id: r.id,
      updated_at: iso(r.updated),
      ...(this.flagless ? {} : { is_removed: r.removed === true }),
    }));
    return { data: data as PosOrder[], page_number: page, page_size: size, total_entries: matched.length, total_pages: Math.ceil(matched.length / size) };
  };

  /** An order updated now: it moves to the end of the list. */
  touch(id: number): void {
    this.rows.find((r) => r.id === id)!.updated = NOW + 5;
  }
}

const ids = (orders: PosOrder[]) => orders.map((o) => Number(o.id)).sort((a, b) => a - b);
const quiet = async () => {};

/** What a read writes to its sink, the last of each order: the reader itself keeps none. */
async function readOrders(list: FakeList["list"], since: number | null, until: number | undefined, progress: Progress): Promise<PosOrder[]> {
  const rows = new Map<string, PosOrder>();
  const keep = (batch: readonly PosOrder[]) => {
    for (const o of batch) rows.set(String(o.id), o);
  };
  await read(list, since, until, progress, { rows: keep, covered() {} });
  return [...rows.values()];
}
/** `n` orders updated over the last `days`, oldest first. */
const shop = (n: number, days: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, updated: NOW - days * 86_400 + Math.floor((i * days * 86_400) / n) }));

describe("reading every order updated in a span", () => {
  it("reads a big span in windows of parallel pages, each order once", async () => {
    const list = new FakeList(shop(12_345, 90));
    const orders = await readOrders(list.list, null, undefined, quiet);
    expect(ids(orders)).toEqual(list.rows.map((r) => r.id));
    // Windows of at most 5,000 orders, never past page 100, and pages asked in parallel, not one per order.
    expect(list.requests.every((q) => (q.page_number ?? 1) <= 50)).toBe(true);
    expect(list.requests.length).toBeLessThan(12_345 / 100 + 30);
  });

  it("reads a short refresh in one request", async () => {
    const list = new FakeList(shop(5_000, 30));
    const orders = await readOrders(list.list, NOW - 3_600, undefined, quiet);
    expect(ids(orders)).toEqual(list.rows.filter((r) => r.updated >= NOW - 3_600).map((r) => r.id));
    expect(list.requests).toHaveLength(1);
  });

  it("misses no order when orders are updated while the span is read (rows shift between pages)", async () => {
    const list = new FakeList(shop(9_000, 60));
    // Every few requests an order early in the list is updated: it leaves the windows read so far.
    list.meanwhile = (n) => {
      if (n % 3 === 0) list.touch(1 + ((n * 37) % 8_000));
    };
    const read = await readOrders(list.list, null, undefined, quiet);
    list.meanwhile = () => {};
    // An order updated during the read was updated after it began: the read from then on (the
    // index's refresh after a first read) has it.
    const since = await readOrders(list.list, NOW - 60, undefined, quiet);
    const orders = [...new Map([...read, ...since].map((o) => [String(o.id), o])).values()];
    expect(ids(orders)).toEqual(list.rows.map((r) => r.id));
    // Each order is read with its latest update when it moved during the read.
    for (const order of orders) expect(order.updated_at).toBe(iso(list.rows.find((r) => r.id === Number(order.id))!.updated));
  });

  it("walks a second shared by more than a page of orders (a bulk update)", async () => {
    const bulk = Array.from({ length: 350 }, (_, i) => ({ id: i + 1, updated: NOW - 60 }));
    const list = new FakeList([...bulk, { id: 1000, updated: NOW - 30 }]);
    const orders = await readOrders(list.list, NOW - 600, undefined, quiet);
    expect(ids(orders)).toEqual([...bulk.map((r) => r.id), 1000]);
  });

  it("reads a span of the past bounded at both ends", async () => {
    const list = new FakeList(shop(3_000, 30));
    const [from, to] = [NOW - 20 * 86_400, NOW - 10 * 86_400];
    const orders = await readOrders(list.list, from, to, quiet);
    expect(ids(orders)).toEqual(list.rows.filter((r) => r.updated >= from && r.updated <= to).map((r) => r.id));
  });

  it("says which orders are removed, from the records or, where they do not say, from a second read", async () => {
    const requests: number[] = [];
    for (const flagless of [false, true]) {
      const rows = shop(500, 10).map((r) => ({ ...r, removed: r.id % 7 === 0 }));
      const list = new FakeList(rows);
      list.flagless = flagless;
      const orders = await readOrders(list.list, null, undefined, quiet);
      expect(ids(orders)).toEqual(rows.map((r) => r.id));
      const removed = orders.filter((o) => (o as { is_removed?: boolean }).is_removed).map((o) => Number(o.id));
      expect(removed, `flagless ${flagless}`).toEqual(rows.filter((r) => r.removed).map((r) => r.id));
      requests.push(list.requests.length);
    }
    // One page tells the records do not say; then the shown orders (a little fewer), then all of them.
    expect(requests[1]).toBeGreaterThan(requests[0]!);
    expect(requests[1]).toBeLessThanOrEqual(2 * requests[0]!);
  });

  it("where the records do not say, writes each order as it reads it, and asks again about those changed between its reads", async () => {
    const rows: Row[] = shop(12_000, 60).map((r) => ({ ...r, removed: r.id % 7 === 0 }));
    const list = new FakeList(rows);
    list.flagless = true;
    let written = 0;
    const writtenAt: number[] = [];
    list.meanwhile = (n) => {
      writtenAt.push(written);
      // As the read of every order (include_removed, after the first page that showed the records
      // lack the flag) begins: an order is placed, a shown one removed and a removed one changed.
      if (n > 1 && list.requests[n - 1]!.include_removed === 1 && rows.length === 12_000) {
        rows.push({ id: 12_001, updated: NOW + 5 });
        Object.assign(rows[9]!, { removed: true, updated: NOW + 5 });
        rows[13]!.updated = NOW + 5;
      }
    };
    const seen = new Map<string, PosOrder>();
    const covered: [number, number][] = [];
    await read(list.list, null, undefined, quiet, {
      rows: (batch) => {
        written += batch.length;
        for (const o of batch) seen.set(String(o.id), o);
      },
      covered: (span) => covered.push(span),
    });
    expect(ids([...seen.values()])).toEqual(rows.map((r) => r.id));
    const removed = ids([...seen.values()].filter((o) => o.is_removed === true));
    expect(removed).toEqual(ids(rows.filter((r) => r.removed) as unknown as PosOrder[]));
    expect(seen.get("10")?.is_removed).toBe(true);
    expect(seen.get("12001")?.is_removed).toBe(false);
    // Orders went to the sink while the list was still being read, not all at the end.
    expect(writtenAt.filter((w) => w > 0).length).toBeGreaterThan(40);
    // The whole span is covered only once the orders changed meanwhile are written, at the end.
    expect(covered.at(-1)).toEqual([0, OPEN]);
    expect(covered.slice(0, -1).every(([, to]) => to < NOW)).toBe(true);
  });

  it("reports its progress", async () => {
    const list = new FakeList(shop(2_500, 10));
    const seen: number[] = [];
    await readOrders(list.list, null, undefined, async (done) => {
      seen.push(done);
    });
    expect(seen.at(-1)).toBe(2_500);
  });
});
