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

/** Orders one list request brings. */
export const PAGE = 100;
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

/**
 * One read: its rows go to the sink as each window or page of the walk is read whole, and are not
 * kept (a first read of a big shop is hundreds of thousands of orders); only how many, for progress.
 */
class Reading {
  private read = 0;
  private readonly run = throttle(() => this.sink.parallel?.(PARALLEL) ?? PARALLEL);
  private expected = 0;
  /** Why the read stopped: once one request fails, no other is sent (the read fails whatever they bring). */
  private halted: unknown;

  constructor(
    private readonly list: List,
    private readonly progress: Progress,
    private readonly sink: ReadSink<PosOrder>,
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
  private keep(orders: readonly PosOrder[], span?: [number, number], fresh = orders.length): void {
    this.read += fresh;
    this.sink.rows(orders);
    if (span) this.sink.covered(span);
  }

  private async report(): Promise<void> {
    await this.progress(this.read, Math.max(this.expected, this.read), `orders read: ${this.read}`);
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
    // The orders of the cursor's second read so far: a page asked from there serves them again.
    let atCursor = new Set<string>();
    for (let got = first; ; got = undefined) {
      got ??= await this.page({ startDateTime: cursor }, page);
      const fresh = got.data.filter((o) => !atCursor.has(String(o.id))).length;
      if (got.data.length < PAGE) {
        this.keep(got.data, [since ?? 0, OPEN], fresh);
        return this.report();
      }
      // Pages of one second (below): the next one serving the same orders would serve them for ever.
      const key = pageKey(got.data);
      if (page > 1 && key === previous) throw repeated(LIST, `page ${page} of updates from ${cursor === undefined ? "the oldest" : utc(cursor)}`, `page ${page - 1}'s orders`);
      previous = key;
      const last = unix(got.data[got.data.length - 1]!.updated_at);
      if (last === undefined) throw new Error("an order in the list has no update time");
      // Ascending by update: every order updated before the last one read is read.
      this.keep(got.data, [since ?? 0, last - 1], fresh);
      await this.report();
      const atLast = got.data.filter((o) => unix(o.updated_at) === last).map((o) => String(o.id));
      if (cursor === undefined || last > cursor) [cursor, page, atCursor] = [last, 1, new Set(atLast)];
      else {
        // A whole page of one second: the next page of that second.
        for (const id of atLast) atCursor.add(id);
        if (++page > LAST_PAGE) throw new Error(`more than ${LAST_PAGE * PAGE} orders were updated within one second`);
      }
    }
  }
}

/**
 * Reads every order the list serves updated from `since` (null: all time) to `until` (undefined:
 * now on) into `sink`. Up to now, a walk when the first page's total says it is short (a refresh),
 * else windows up to a few minutes ago and a walk through the rest.
 */
async function readAll(list: List, since: number | null, until: number | undefined, progress: Progress, sink: ReadSink<PosOrder>): Promise<void> {
  const reading = new Reading(list, progress, sink);
  if (until !== undefined) return reading.span(since, until);
  const first = await reading.page({ startDateTime: since ?? undefined }, 1);
  const cut = Math.floor(Date.now() / 1000) - TAIL_S;
  if ((first.total_entries ?? 0) <= WALK_ROWS || (since !== null && since > cut)) await reading.tail(since ?? undefined, first);
  else await Promise.all([reading.span(since, cut), reading.tail(cut + 1)]);
}

const removalKnown = (order: PosOrder) => typeof (order as { is_removed?: unknown }).is_removed === "boolean";

/** A page whose orders do not say whether they are removed: the read starts again as below. */
class Flagless extends Error {}

/**
 * Orders updated in a span, each with whether it is removed, into `sink` as they are read. The
 * list shows removed orders only with include_removed, and the sandbox's records say `is_removed`.
 * The vendor's OpenAPI does not list that field on orders: where a page's records lack it (the
 * first, but for a list that mixes them), the read starts again as two. First the orders the list
 * shows without include_removed, of which only the ids and update times are kept; then every
 * order, marked removed when that read did not show it. That holds for an order the first read
 * showed as it is now, and for one it did not show updated before the newest it served: that one
 * was there, unchanged, all through the first read (which misses none such). Any other changed
 * since (placed, or just removed): those few are held and asked about by a third read from the
 * oldest of their update times, and a span is covered only once they are written.
 */
export async function readOrders(list: List, since: number | null, until: number | undefined, progress: Progress, sink: ReadSink<PosOrder>): Promise<void> {
  const flagged = async (q: OrderListParams) => {
    const page = await list({ ...q, include_removed: 1 });
    if (!page.data.every(removalKnown)) throw new Flagless();
    return page;
  };
  try {
    return await readAll(flagged, since, until, progress, sink);
  } catch (error) {
    if (!(error instanceof Flagless)) throw error;
  }
  // At the same pace as the read itself: the index's own reads yield to the shop's questions.
  const parallel = (wanted: number) => sink.parallel?.(wanted) ?? wanted;
  /** The orders the list shows from `from` on: each one's update time by its id, and the newest. */
  const shown = async (from: number | null) => {
    const updated = new Map<PosOrder["id"], number | undefined>();
    let newest = -Infinity;
    const rows = (batch: readonly PosOrder[]) => {
      for (const o of batch) {
        const at = unix(o.updated_at);
        updated.set(o.id, at);
        newest = Math.max(newest, at ?? -Infinity);
      }
    };
    await readAll(list, from, until, progress, { rows, covered() {}, parallel });
    return { updated, newest };
  };
  const first = await shown(since);
  const held = new Map<PosOrder["id"], PosOrder>();
  let heldFrom = Infinity;
  const rows = (batch: readonly PosOrder[]) => {
    const marked: PosOrder[] = [];
    for (const o of batch) {
      const at = unix(o.updated_at);
      if (removalKnown(o)) marked.push(o);
      else if (first.updated.has(o.id) ? first.updated.get(o.id) === at : at !== undefined && at < first.newest) marked.push({ ...o, is_removed: !first.updated.has(o.id) });
      else {
        held.set(o.id, o);
        heldFrom = Math.min(heldFrom, at ?? -Infinity);
      }
    }
    if (marked.length) sink.rows(marked);
  };
  // A span is covered up to the first order held (each is found among its own span's rows).
  const covered = ([from, to]: [number, number]) => {
    const upTo = Math.min(to, first.newest - 1, heldFrom - 1);
    if (from <= upTo) sink.covered([from, upTo]);
  };
  await readAll((q) => list({ ...q, include_removed: 1 }), since, until, progress, { rows, covered, parallel });
  if (held.size) {
    const again = await shown(Number.isFinite(heldFrom) ? heldFrom : since);
    sink.rows([...held.values()].map((o) => ({ ...o, is_removed: !again.updated.has(o.id) })));
  }
  sink.covered([since ?? 0, until ?? OPEN]);
}
