import { FirstIn, Grouping, Ordering, perState, type Rank, stretch, VERIFY_BELOW, type View } from "../ordering.js";
import type { SandboxRequest } from "../server.js";
import type { Selection } from "./api.js";
import { orderQuery, orderSort, orderSorter, orderTimeOf } from "./order-query.js";
import type { PosState } from "./state.js";
import { ms } from "./time.js";
import type { CustomerRecord, OrderRecord, PointLogRecord } from "./types.js";

/*
 * The POS lists that grow with the shop (orders, customers, point logs), each kept in the orders
 * its routes serve (src/sandbox/ordering.ts), so a page reads the page and a range what it holds.
 */

const byId = (a: OrderRecord, b: OrderRecord) => a.id - b.id;

/** Rows a page may end at for FirstIn to find them (deeper pages sort the stretch's matches). */
const FIRST_IN_ROWS = 2_000;

/** The sort keys that order by a time field's text: a range on that field is a stretch of the sort. */
const SORTED_AS_TIME: Record<string, { field: string; text: (o: OrderRecord) => string }> = {
  inserted_at: { field: "inserted_at", text: (o) => o.inserted_at },
  last_updated_order: { field: "updated_at", text: (o) => o.updated_at },
  last_update_status_at: { field: "-1", text: (o) => o.last_update_status_at },
  estimate_delivery_date: { field: "estimate_delivery_date", text: (o) => o.estimate_delivery_date ?? "" },
};

class PosLists {
  private readonly sorted = new Map<string, Ordering<OrderRecord>>();
  private readonly timed = new Map<string, Ordering<OrderRecord>>();
  private readonly customerTimes = new Map<string, Ordering<CustomerRecord>>();
  private readonly firsts = new Map<string, FirstIn<OrderRecord>>();
  private texts: { orders: readonly OrderRecord[]; length: number; revision: number; of: string[][] } | undefined;
  private readonly revision = () => this.state.revision ?? 0;
  /** Orders by id (text), and by either of the ids their customer goes by. */
  readonly orderById: Grouping<OrderRecord, string>;
  readonly ordersOfCustomer: Grouping<OrderRecord, string>;
  readonly customerById: Grouping<CustomerRecord, string>;
  readonly pointLogsOf: Grouping<PointLogRecord, string>;

  constructor(private readonly state: PosState) {
    const orders = () => state.orders;
    this.orderById = new Grouping(orders, this.revision, (o) => [String(o.id)]);
    this.ordersOfCustomer = new Grouping(orders, this.revision, (o) => [o.shop_customer_id, o.customer?.customer_id].filter((id): id is string => !!id));
    this.customerById = new Grouping(() => state.customers, this.revision, (c) => [c.id]);
    this.pointLogsOf = new Grouping(() => state.pointLogs, this.revision, (l) => [l.shop_customer_id]);
  }

  /** The orders by an option_sort key, ascending (ties by id; read backward for _desc), removed ones flagged. */
  bySort(key: string, value: (o: OrderRecord) => Rank): Ordering<OrderRecord> {
    return this.kept(this.sorted, key, () => new Ordering({ source: () => this.state.orders, revision: this.revision, rank: value, tie: byId, flag: (o) => o.is_removed })).fresh();
  }

  /** The orders that have the time `updateStatus` names, by it (ms, ties by id), removed ones flagged. */
  byTime(field: string): Ordering<OrderRecord> {
    const time = orderTimeOf(field);
    const rank = (o: OrderRecord) => {
      const text = time(o);
      return text ? ms(text) : undefined;
    };
    return this.kept(this.timed, field, () => new Ordering({ source: () => this.state.orders, revision: this.revision, rank, witness: time, tie: byId, flag: (o) => o.is_removed })).fresh();
  }

  /** The first orders by `optionSort` within a stretch of byTime(field) (see FirstIn), removed ones left out unless `removed`. */
  firstBy(field: string, optionSort: string, removed: boolean): FirstIn<OrderRecord> {
    const skip = removed ? undefined : (o: OrderRecord) => o.is_removed;
    return this.kept(this.firsts, `${field} ${optionSort} ${removed}`, () => new FirstIn(this.byTime(field), orderSorter(optionSort), skip));
  }

  /**
   * The orders whose phone, name or note holds `search` (lowercase), or whose number it is: the
   * texts lowercased once per version of the orders, not on every search.
   */
  searched(search: string): OrderRecord[] {
    const orders = this.state.orders;
    const revision = this.revision();
    if (this.texts?.orders !== orders || this.texts.length !== orders.length || this.texts.revision !== revision || orders.length <= VERIFY_BELOW) {
      this.texts = { orders, length: orders.length, revision, of: orders.map((o) => [o.bill_phone_number, o.bill_full_name.toLowerCase(), o.note?.toLowerCase() ?? ""]) };
    }
    const { of } = this.texts;
    return orders.filter((o, i) => search === String(o.display_id) || search === String(o.id) || of[i]!.some((text) => text.includes(search)));
  }

  /** The customers by inserted_at or updated_at (ms), ties by id descending: read backward, newest first and ids ascending. */
  customersBy(field: "inserted_at" | "updated_at"): Ordering<CustomerRecord> {
    const idDescending = (a: CustomerRecord, b: CustomerRecord) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
    return this.kept(this.customerTimes, field, () => new Ordering({ source: () => this.state.customers, revision: this.revision, rank: (c) => ms(c[field]), witness: (c) => c[field], tie: idDescending })).fresh();
  }

  /**
   * Sorts now what the first reads of a big shop would sort (seconds at 1000x): the orders by
   * update (the shop index's windows and counts) and by creation, the customers, orders by id.
   */
  warm(): void {
    this.byTime("updated_at");
    this.byTime("inserted_at");
    this.bySort("inserted_at", (o) => o.inserted_at);
    this.firstBy("updated_at", "inserted_at_desc", false).first(0, 0, 0);
    this.customersBy("inserted_at");
    this.orderById.get("");
    this.customerById.get("");
  }

  private kept<V>(map: Map<string, V>, key: string, make: () => V): V {
    let value = map.get(key);
    if (value === undefined) {
      value = make();
      map.set(key, value);
    }
    return value;
  }
}

/** The lists of a POS state, made on first use. */
export const posLists = perState((state: PosState) => new PosLists(state));

/**
 * GET /orders as a selection, for a page that ends at row `end`: a range of `updateStatus` is a
 * stretch of the orders by that time (in the order asked when the sort key orders by that time,
 * else the stretch's matches sorted only as far as the page needs); a customer's orders are theirs;
 * otherwise the orders by the sort key. Every answer is the one filtering and sorting all orders gives.
 */
export function selectOrders(state: PosState, req: SandboxRequest, end: number): Selection<OrderRecord> {
  const lists = posLists(state);
  const q = orderQuery(req);
  const optionSort = req.query.get("option_sort") ?? "inserted_at_desc";
  const sort = orderSort(optionSort);
  const narrowed = (orders: readonly OrderRecord[]): Selection<OrderRecord> => {
    const { others } = q;
    const kept = orders.filter((o) => (q.includeRemoved || !o.is_removed) && (!others || others(o)));
    return { view: firstSorted(kept, end, orderSorter(optionSort)), skipFlagged: false };
  };
  if (q.start !== undefined || q.end !== undefined) {
    const timed = lists.byTime(q.timeField);
    const [from, to] = timed.between(q.start ?? Number.NEGATIVE_INFINITY, q.end ?? Number.POSITIVE_INFINITY);
    const same = SORTED_AS_TIME[sort.key];
    if (same?.field === q.timeField && timed.agrees(same.text)) {
      return { view: stretch(timed, from, to, !sort.ascending), keep: q.others, skipFlagged: !q.includeRemoved };
    }
    // A big stretch and nothing else to test (how the shop index counts a span): the page's rows
    // found in the stretch, its count from the flags.
    if (!q.others && timed.length > VERIFY_BELOW && end <= FIRST_IN_ROWS) {
      const rows = lists.firstBy(q.timeField, optionSort, q.includeRemoved).first(from, to, end);
      const total = to - from - (q.includeRemoved ? 0 : timed.flagged(from, to));
      return { view: { length: total, at: (i) => rows[i]!, indexOf: (o) => rows.indexOf(o) } };
    }
    return narrowed(timed.items.slice(from, to));
  }
  if (q.customerId) return narrowed(lists.ordersOfCustomer.get(q.customerId));
  if (q.search) return narrowed(lists.searched(q.search));
  const sorted = lists.bySort(sort.key, sort.value);
  return { view: stretch(sorted, 0, sorted.length, !sort.ascending), keep: q.others, skipFlagged: !q.includeRemoved };
}

/**
 * `items` as a list in the order of `compare` of which only the first `count` can be read (all of
 * them count): a page near the top of a big stretch sorts what it shows, not the stretch.
 */
function firstSorted<T>(items: T[], count: number, compare: (a: T, b: T) => number): View<T> {
  const first = count >= items.length / 4 ? items.sort(compare) : smallest(items, count, compare);
  return { length: items.length, at: (i) => first[i]!, indexOf: (item) => first.indexOf(item) };
}

/** The `count` smallest of `items` by `compare`, sorted (a bounded max-heap: items.length * log(count)). */
function smallest<T>(items: readonly T[], count: number, compare: (a: T, b: T) => number): T[] {
  const heap: T[] = [];
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && compare(heap[l]!, heap[top]!) > 0) top = l;
      if (r < heap.length && compare(heap[r]!, heap[top]!) > 0) top = r;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  };
  for (const item of items) {
    if (heap.length < count) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0 && compare(heap[i]!, heap[(i - 1) >> 1]!) > 0; i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (count > 0 && compare(item, heap[0]!) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
}
