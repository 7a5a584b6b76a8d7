import type { OrderListParams, Paged } from "../clients/pos.js";
import type { PosOrder } from "../clients/schemas/pos.js";
import { endedBefore, ListMisbehaved, pageKey, pageMemory, type RangeOf, rangeCheck, repeated, utc } from "../clients/list-checks.js";
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
 *
 * No read runs away on a list that misbehaves (issue 43): a short page ends a window or a walk
 * whatever the total says, and a total that stays wrong asked again stops the read; an order
 * outside the range asked (the list ignored it), a page served again, or parts of a window each
 * counting as many orders as the whole (the total is not the range's) stop it too, and the error
 * says what the list did. Once one request fails no other is sent.
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
/** Parts a window whose pages end before its total is split into at most (their heads are read at once). */
const MOST_PARTS = 16;
/** Up to this many orders to read, one walk is as quick as windows (a refresh is mostly one request). */
const WALK_ROWS = 1_000;

const ASC: OrderListParams["option_sort"] = "last_updated_order_asc";
/** What the read's messages call the list, and the range it reads by. */
const LIST = "order list";
const UPDATED: RangeOf<PosOrder> = { list: LIST, rows: "orders", time: "updated", params: ["startDateTime", "endDateTime"], timeOf: (o) => unix(o.updated_at) };

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
  /** Why the read stopped: once one request fails, no other is sent (the read fails whatever they bring). */
  private halted: unknown;

  constructor(
    private readonly list: List,
    private readonly progress: Progress,
    private readonly sink?: ReadSink<PosOrder>,
  ) {}

  page(params: OrderListParams, page: number): Promise<Paged<PosOrder>> {
    return this.run(() => this.fetch(params, page));
  }

  /**
   * One page, its orders checked against the range asked (one outside it means the list ignored
   * the range) and, with `seen`, against the pages of its walk read before.
   */
  private async fetch(params: OrderListParams, page: number, seen?: ReturnType<typeof pageMemory>): Promise<Paged<PosOrder>> {
    if (this.halted) throw this.halted;
    try {
      const got = await this.list({ ...params, option_sort: ASC, page_number: page, page_size: PAGE });
      const earlier = seen?.(page, got.data);
      if (earlier !== undefined) throw repeated(LIST, `page ${page} of updates from ${utc(params.startDateTime ?? 0)}`, `page ${earlier}'s orders`);
      const outside = rangeCheck(UPDATED, { from: params.startDateTime, to: params.endDateTime });
      for (const order of got.data) {
        const ignored = outside(order);
        if (ignored) throw ignored;
      }
      return got;
    } catch (error) {
      this.halted ??= error;
      throw error;
    }
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
    if ((pages > LAST_PAGE || total > WINDOW_ROWS) && b > a) return this.split(a, b, Math.ceil(total / WINDOW_ROWS), total);
    if (pages > LAST_PAGE) throw new Error(`more than ${LAST_PAGE * PAGE} orders were updated within one second`);
    // A short page ends the window whatever its total says. Orders leaving it between the list's
    // count and its page can make them differ for a moment; asked again, a total that still does is wrong.
    if (head.data.length < PAGE) {
      if (attempt < ATTEMPTS) return this.window(a, b, await this.page({ startDateTime: a, endDateTime: b }, 1), attempt + 1);
      const held = `${head.data.length} order${head.data.length === 1 ? "" : "s"}`;
      throw new ListMisbehaved(`${endedBefore(total, 1, LIST)}, with ${held} updated from ${utc(a)} to ${utc(b)}`);
    }
    const read = new Map((await this.rest(a, b, head, pages)).flatMap((p) => p.data).map((o) => [String(o.id), o]));
    if (read.size === total) {
      this.keep([...read.values()], [a, b]);
      return this.report();
    }
    // Fewer orders than counted: orders left the window while it was read (its total shrinks: read
    // it again, then in halves), or the total is not what the pages hold (the halves tell).
    const again = await this.page({ startDateTime: a, endDateTime: b }, 1);
    const now = again.total_entries ?? total;
    if (now < total && attempt < ATTEMPTS) return this.window(a, b, again, attempt + 1);
    if (b === a) throw new Error("orders kept moving while one second of updates was read");
    if (now < total) return this.split(a, b, 2, now);
    // The total stands and the pages end before it: parts of about what the pages served.
    return this.split(a, b, Math.min(MOST_PARTS, Math.ceil(now / read.size)), now);
  }

  /**
   * Pages 2 to `pages` of a window, several at once; none is asked past the first short one (the
   * window's orders end there, whatever its total said), and a page the window served before stops the read.
   */
  private async rest(a: number, b: number, head: Paged<PosOrder>, pages: number): Promise<Paged<PosOrder>[]> {
    let end = pages;
    const seen = pageMemory();
    seen(1, head.data);
    const rest = await Promise.all(
      Array.from({ length: pages - 1 }, (_, i) =>
        this.run(async () => {
          const n = i + 2;
          if (n > end) return undefined;
          const got = await this.fetch({ startDateTime: a, endDateTime: b }, n, seen);
          if (got.data.length < PAGE) end = Math.min(end, n);
          return got;
        }),
      ),
    );
    return [head, ...rest.filter((p) => p !== undefined)];
  }

  /**
   * The window in `parts`, each read on its own. Their totals add up to at most the window's
   * (orders only leave a span of the past): one part counting as many as the whole while another
   * counts some means the total is not the range's, and splitting further would never end.
   */
  private async split(a: number, b: number, parts: number, total: number): Promise<void> {
    const n = Math.max(2, Math.min(parts, b - a + 1));
    const step = (b - a + 1) / n;
    const bounds = Array.from({ length: n }, (_, i) => [a + Math.floor(i * step), i === n - 1 ? b : a + Math.floor((i + 1) * step) - 1] as const);
    const heads = await Promise.all(bounds.map(([from, to]) => this.page({ startDateTime: from, endDateTime: to }, 1)));
    const counts = heads.map((h) => h.total_entries ?? 0);
    if (Math.max(...counts) >= total && counts.reduce((sum, c) => sum + c, 0) > total) {
      throw new ListMisbehaved(
        `the ${LIST}'s total is not the range's: it counted ${total.toLocaleString("en-US")} orders updated from ${utc(a)} to ${utc(b)}, and ${Math.max(...counts).toLocaleString("en-US")} in a part of that`,
      );
    }
    await Promise.all(bounds.map(([from, to], i) => (heads[i]!.data.length ? this.window(from, to, heads[i]!) : this.keep([], [from, to]))));
  }

  /**
   * Every order updated from `since` (undefined: the oldest) on, oldest update first, each query
   * starting at the last update time read; `first` is the walk's first page when already read.
   */
  async tail(since: number | undefined, first?: Paged<PosOrder>): Promise<void> {
    let cursor = since;
    let page = 1;
    let previous = "";
    for (let got = first; ; got = undefined) {
      got ??= await this.page({ startDateTime: cursor }, page);
      if (got.data.length < PAGE) {
        this.keep(got.data, [since ?? 0, OPEN]);
        return this.report();
      }
      // Pages of one second (below): the next one serving the same orders would serve them for ever.
      const key = pageKey(got.data);
      if (page > 1 && key === previous) throw repeated(LIST, `page ${page} of updates from ${cursor === undefined ? "the oldest" : utc(cursor)}`, `page ${page - 1}'s orders`);
      previous = key;
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
  // At the same pace as the first read: the index's own reads yield to the shop's questions.
  const paced = { rows() {}, covered() {}, parallel: passing.parallel };
  const listed = new Set((await readAll(list, since, until, progress, paced)).map((o) => String(o.id)));
  const marked = all.map((o) => (removalKnown([o]) ? o : { ...o, is_removed: !listed.has(String(o.id)) }));
  sink?.rows(marked);
  sink?.covered([since ?? 0, until ?? OPEN]);
  return marked;
}
