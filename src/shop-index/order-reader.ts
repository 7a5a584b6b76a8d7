import type { OrderListParams, Paged } from "../clients/pos.js";
import type { PosOrder } from "../clients/schemas/pos.js";
import { unix } from "./order-rows.js";
import type { Progress, ReadSink } from "./row-index.js";
import { OPEN } from "./store.js";

/**
 * Every order updated in a span, read as fast as the POS allows and never missing one.
 *
 * The span up to a few minutes ago is cut into windows of at most a few thousand orders by the
 * list's own totals, and each window's pages are read in parallel. A window in the past only loses
 * orders while it is read (an order updated now leaves it), which can shift a row from one page
 * into another already read: so each window is checked, the distinct orders read against its
 * total, and read again (then split) when they differ. The orders that left were updated during
 * the read and are in the last minutes, which are read last, oldest update first, from the last
 * update time read on (a keyset walk): an order updated meanwhile moves to the end of that walk
 * and is read there, so nothing is skipped however busy the shop.
 */

type List = (params: OrderListParams) => Promise<Paged<PosOrder>>;

const PAGE = 100;
/** The list repeats page 100's rows for every later page (reference README). */
const LAST_PAGE = 100;
/** Orders a window holds at most before it is split: a re-read after a shift stays cheap. */
const WINDOW_ROWS = 5_000;
/** Pages asked at once: the POS documents no rate limit (a configured one still spaces them). */
const PARALLEL = 8;
/** How soon a read held back (see ReadSink.parallel) looks again whether it may go on. */
const HELD_MS = 200;
/** The last minutes are walked by update time rather than read in windows (see above). */
const TAIL_S = 300;
/** A window read this many times without its count agreeing is split (or, one second long, given up). */
const ATTEMPTS = 2;
/** Up to this many orders to read, one walk is as quick as windows (a refresh is mostly one request). */
const WALK_ROWS = 1_000;

const ASC: OrderListParams["option_sort"] = "last_updated_order_asc";

/** At most `n()` of the given tasks at once; while it is 0 none starts (it is asked again now and then). */
function throttle(n: () => number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    while (n() === 0) await new Promise((resolve) => setTimeout(resolve, HELD_MS));
    if (active >= n()) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

class Reading {
  readonly rows = new Map<string, PosOrder>();
  private readonly run = throttle(() => this.sink?.parallel?.(PARALLEL) ?? PARALLEL);
  private expected = 0;

  constructor(
    private readonly list: List,
    private readonly progress: Progress,
    private readonly sink?: ReadSink<PosOrder>,
  ) {}

  page(params: OrderListParams, page: number): Promise<Paged<PosOrder>> {
    return this.run(() => this.list({ ...params, option_sort: ASC, page_number: page, page_size: PAGE }));
  }

  /** Orders read, and the span of update times they complete (every order of it read). */
  private keep(orders: readonly PosOrder[], span?: [number, number]): void {
    for (const order of orders) this.rows.set(String(order.id), order);
    this.sink?.rows(orders);
    if (span) this.sink?.covered(span);
  }

  private async report(): Promise<void> {
    await this.progress(this.rows.size, Math.max(this.expected, this.rows.size), `orders read: ${this.rows.size}`);
  }

  /** Every order updated from `since` (null: the oldest) to `until`, both inclusive seconds. */
  async span(since: number | null, until: number): Promise<void> {
    const head = await this.page({ startDateTime: since ?? undefined, endDateTime: until }, 1);
    if (!head.data.length) return this.keep([], [since ?? 0, until]);
    // Without a start the oldest order read first gives the span a start to split from.
    const start = since ?? unix(head.data[0]!.updated_at) ?? 0;
    if (start > 0) this.keep([], [since ?? 0, start - 1]);
    this.expected += head.total_entries ?? 0;
    await this.window(start, until, head);
  }

  private async window(a: number, b: number, head: Paged<PosOrder>, attempt = 1): Promise<void> {
    const total = head.total_entries;
    if (total === undefined) throw new Error("the order list gave no total to read it by");
    if (total <= head.data.length) {
      this.keep(head.data, [a, b]);
      return this.report();
    }
    const pages = Math.ceil(total / PAGE);
    if ((pages > LAST_PAGE || total > WINDOW_ROWS) && b > a) return this.split(a, b, Math.ceil(total / WINDOW_ROWS));
    if (pages > LAST_PAGE) throw new Error(`more than ${LAST_PAGE * PAGE} orders were updated within one second`);
    const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, i) => this.page({ startDateTime: a, endDateTime: b }, i + 2)));
    const read = new Map([head, ...rest].flatMap((p) => p.data).map((o) => [String(o.id), o]));
    if (read.size === total) {
      this.keep([...read.values()], [a, b]);
      return this.report();
    }
    // Orders left the window while it was read: read it again, then in halves.
    if (attempt < ATTEMPTS) return this.window(a, b, await this.page({ startDateTime: a, endDateTime: b }, 1), attempt + 1);
    if (b > a) return this.split(a, b, 2);
    throw new Error("orders kept moving while one second of updates was read");
  }

  private async split(a: number, b: number, parts: number): Promise<void> {
    const n = Math.max(2, Math.min(parts, b - a + 1));
    const step = (b - a + 1) / n;
    const bounds = Array.from({ length: n }, (_, i) => [a + Math.floor(i * step), i === n - 1 ? b : a + Math.floor((i + 1) * step) - 1] as const);
    await Promise.all(
      bounds.map(async ([from, to]) => {
        const head = await this.page({ startDateTime: from, endDateTime: to }, 1);
        if (head.data.length) await this.window(from, to, head);
        else this.keep([], [from, to]);
      }),
    );
  }

  /**
   * Every order updated from `since` (undefined: the oldest) on, oldest update first, each query
   * starting at the last update time read; `first` is the walk's first page when already read.
   */
  async tail(since: number | undefined, first?: Paged<PosOrder>): Promise<void> {
    let cursor = since;
    let page = 1;
    for (let got = first; ; got = undefined) {
      got ??= await this.page({ startDateTime: cursor }, page);
      if (got.data.length < PAGE) {
        this.keep(got.data, [since ?? 0, OPEN]);
        return this.report();
      }
      const last = unix(got.data[got.data.length - 1]!.updated_at);
      if (last === undefined) throw new Error("an order in the list has no update time");
      // Ascending by update: every order updated before the last one read is read.
      this.keep(got.data, [since ?? 0, last - 1]);
      await this.report();
      // A whole page of one second: the next page of that second.
      if (cursor === undefined || last > cursor) [cursor, page] = [last, 1];
      else if (++page > LAST_PAGE) throw new Error(`more than ${LAST_PAGE * PAGE} orders were updated within one second`);
    }
  }
}

/**
 * Reads every order the list serves updated from `since` (null: all time) to `until` (undefined:
 * now on). Up to now, a walk when the first page's total says it is short (a refresh), else
 * windows up to a few minutes ago and a walk through the rest.
 */
async function readAll(list: List, since: number | null, until: number | undefined, progress: Progress, sink?: ReadSink<PosOrder>): Promise<PosOrder[]> {
  const reading = new Reading(list, progress, sink);
  if (until !== undefined) {
    await reading.span(since, until);
    return [...reading.rows.values()];
  }
  const first = await reading.page({ startDateTime: since ?? undefined }, 1);
  const cut = Math.floor(Date.now() / 1000) - TAIL_S;
  if ((first.total_entries ?? 0) <= WALK_ROWS || (since !== null && since > cut)) await reading.tail(since ?? undefined, first);
  else await Promise.all([reading.span(since, cut), reading.tail(cut + 1)]);
  return [...reading.rows.values()];
}

const removalKnown = (orders: readonly PosOrder[]) => orders.every((o) => typeof (o as { is_removed?: unknown }).is_removed === "boolean");

/**
 * Orders updated in a span with whether each is removed. The list shows removed orders only with
 * include_removed, and the sandbox's records say `is_removed`; the vendor's OpenAPI does not list
 * that field on orders, so where records lack it the span is read again without include_removed
 * and the orders missing from that read are the removed ones. Orders that say it go to `sink` as
 * they are read; once one does not, the rest go at the end, with the span, after the second read.
 */
export async function readOrders(
  list: List,
  since: number | null,
  until: number | undefined,
  progress: Progress,
  sink?: ReadSink<PosOrder>,
): Promise<PosOrder[]> {
  let streaming = true;
  const passing: ReadSink<PosOrder> = {
    rows(batch) {
      streaming &&= removalKnown(batch);
      if (streaming) sink?.rows(batch);
    },
    covered(span) {
      if (streaming) sink?.covered(span);
    },
    parallel: (wanted) => sink?.parallel?.(wanted) ?? wanted,
  };
  const all = await readAll((q) => list({ ...q, include_removed: 1 }), since, until, progress, passing);
  if (streaming) return all;
  const listed = new Set((await readAll(list, since, until, progress)).map((o) => String(o.id)));
  const marked = all.map((o) => (removalKnown([o]) ? o : { ...o, is_removed: !listed.has(String(o.id)) }));
  sink?.rows(marked);
  sink?.covered([since ?? 0, until ?? OPEN]);
  return marked;
}
