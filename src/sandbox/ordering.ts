/**
 * Record lists kept in order between requests, so a list page costs what the page holds, not what
 * the shop holds. At scale (SandboxOptions.scale: half a million orders) sorting, or even checking
 * the order of, every record on each request set the pace of the whole rig.
 *
 * An Ordering is one order of a state's records, ascending by a rank (a time in ms, a sort key),
 * records of equal rank by `tie`. It is kept while the state is unchanged: the same array, as many
 * records, and the same count of changes made through the sandbox's write paths (`revision`, which
 * the API's writes and Simulation bump). Tests also change records in place (an order's status, a
 * conversation's updated_at); on lists of up to VERIFY_BELOW records each read checks every rank
 * against the record, as cheap there as it is sure, so those changes are followed too. Bigger lists
 * follow the write paths only.
 */

/** Lists this long or shorter check their records' ranks on every read (see above). */
export const VERIFY_BELOW = 20_000;

export type Rank = number | string;

export interface OrderingSpec<T> {
  /** The records, read at each use (a new array or a new length means new records). */
  source: () => readonly T[];
  /** The state's count of changes made through its write paths. */
  revision: () => number;
  /** Where a record sorts: a number or a text, one kind per ordering; undefined or NaN leaves it out. */
  rank: (item: T) => Rank | undefined;
  /**
   * What the rank is read from, when reading it is cheaper than the rank (a time's text, against
   * its parse): a small list checks this on every read, so it changes whenever the rank may.
   */
  witness?: (item: T) => unknown;
  /** The order of records of equal rank: total (ends on a unique id). */
  tie: (a: T, b: T) => number;
  /** A flag counted along the order (an order's is_removed), so a page skips flagged records without testing each. */
  flag?: (item: T) => boolean;
}

export class Ordering<T> {
  /** The records in order, and each one's rank. */
  items: T[] = [];
  ranks: Rank[] = [];
  /** Records left out for a rank that is NaN (a time that does not parse), rather than none. */
  dropped = 0;
  /** flaggedBefore[i]: flagged records among items[0..i). */
  private flaggedBefore: Int32Array = new Int32Array(1);
  private built: { source: readonly T[]; length: number; revision: number } | undefined;
  private agreement: { text: (item: T) => string; agrees: boolean } | undefined;
  /** On a small list, each record's witness and flag as sorted, by its place in the source. */
  private seen: { witness: unknown[]; flags: boolean[] } | undefined;

  constructor(private readonly spec: OrderingSpec<T>) {}

  get length(): number {
    return this.items.length;
  }

  /** This ordering, sorted again first when its records changed. */
  fresh(): this {
    const source = this.spec.source();
    const revision = this.spec.revision();
    const b = this.built;
    const same = b !== undefined && b.source === source && b.length === source.length && b.revision === revision;
    if (!same || (source.length <= VERIFY_BELOW && !this.holds(source))) this.build(source, revision);
    return this;
  }

  /**
   * Whether the order is also the order of `text` (a time field's text against its ms rank): then a
   * range of the rank is a stretch of the list sorted by that text. Records a test wrote in another
   * form (with a zone) may not be.
   */
  agrees(text: (item: T) => string): boolean {
    if (this.agreement?.text !== text) {
      let agrees = true;
      for (let i = 1; i < this.items.length && agrees; i++) agrees = text(this.items[i - 1]!) <= text(this.items[i]!);
      this.agreement = { text, agrees };
    }
    return this.agreement.agrees;
  }

  /** Positions [from, to) of the records ranked from `lo` to `hi`, both included (number ranks). */
  between(lo: number, hi: number): [number, number] {
    return [this.firstAtLeast(lo, false), this.firstAtLeast(hi, true)];
  }

  /** Flagged records among positions [from, to). */
  flagged(from: number, to: number): number {
    return this.flaggedBefore[to]! - this.flaggedBefore[from]!;
  }

  isFlagged(i: number): boolean {
    return this.flaggedBefore[i + 1]! !== this.flaggedBefore[i]!;
  }

  /** The position of `item` (found by its rank and tie), or -1 when it is not in the order. */
  indexOf(item: T): number {
    const rank = this.rankOf(item);
    if (rank === undefined) return -1;
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const r = this.ranks[mid]!;
      if (r < rank || (r === rank && this.spec.tie(this.items[mid]!, item) < 0)) lo = mid + 1;
      else hi = mid;
    }
    return this.items[lo] === item ? lo : -1;
  }

  /** The first position whose rank is >= `rank` (> when `past`). */
  private firstAtLeast(rank: number, past: boolean): number {
    let lo = 0;
    let hi = this.ranks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const r = this.ranks[mid] as number;
      if (r < rank || (past && r === rank)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private rankOf(item: T): Rank | undefined {
    const rank = this.spec.rank(item);
    // biome-ignore lint/suspicious/noSelfCompare: NaN, the rank of a time that does not parse
    return rank !== rank ? undefined : rank;
  }

  /** Whether every record still has the witness (or rank) and flag it was sorted by. */
  private holds(source: readonly T[]): boolean {
    const seen = this.seen;
    if (!seen) return false;
    const witness = this.spec.witness ?? this.spec.rank;
    const flag = this.spec.flag;
    for (let i = 0; i < source.length; i++) {
      const item = source[i]!;
      const now = witness(item);
      // biome-ignore lint/suspicious/noSelfCompare: NaN ranks stay NaN
      if (now !== seen.witness[i] && !(now !== now && seen.witness[i] !== seen.witness[i])) return false;
      if (flag && flag(item) !== seen.flags[i]) return false;
    }
    return true;
  }

  private build(source: readonly T[], revision: number): void {
    const kept: T[] = [];
    const ranks: Rank[] = [];
    this.dropped = 0;
    for (const item of source) {
      const rank = this.spec.rank(item);
      if (rank === undefined) continue;
      // biome-ignore lint/suspicious/noSelfCompare: NaN, the rank of a time that does not parse
      if (rank !== rank) {
        this.dropped++;
        continue;
      }
      kept.push(item);
      ranks.push(rank);
    }
    const { tie, flag } = this.spec;
    const order = Array.from(kept.keys()).sort((i, j) => {
      const a = ranks[i]!;
      const b = ranks[j]!;
      return a < b ? -1 : a > b ? 1 : tie(kept[i]!, kept[j]!);
    });
    this.items = order.map((i) => kept[i]!);
    this.ranks = order.map((i) => ranks[i]!);
    this.flaggedBefore = new Int32Array(this.items.length + 1);
    if (flag) {
      for (let i = 0; i < this.items.length; i++) this.flaggedBefore[i + 1] = this.flaggedBefore[i]! + (flag(this.items[i]!) ? 1 : 0);
    }
    this.built = { source, length: source.length, revision };
    this.agreement = undefined;
    const witness = this.spec.witness ?? this.spec.rank;
    this.seen = source.length <= VERIFY_BELOW ? { witness: source.map(witness), flags: flag ? source.map(flag) : [] } : undefined;
  }
}

/** A list in the order it is served: what a page is cut from. */
export interface View<T> {
  readonly length: number;
  at(i: number): T;
  /** The position of `item`, or -1 when the view does not hold it. */
  indexOf(item: T): number;
  /** Flagged records among positions [0, i), when the list counts a flag. */
  flaggedBefore?(i: number): number;
}

/** Positions [from, to) of an ordering, read forward or backward (a descending list). */
export function stretch<T>(ordering: Ordering<T>, from: number, to: number, descending: boolean): View<T> {
  return {
    length: to - from,
    at: descending ? (i) => ordering.items[to - 1 - i]! : (i) => ordering.items[from + i]!,
    indexOf(item) {
      const i = ordering.indexOf(item);
      return i < from || i >= to ? -1 : descending ? to - 1 - i : i - from;
    },
    flaggedBefore: descending ? (i) => ordering.flagged(to - i, to) : (i) => ordering.flagged(from, from + i),
  };
}

export function listView<T>(items: readonly T[]): View<T> {
  return { length: items.length, at: (i) => items[i]!, indexOf: (item) => items.indexOf(item) };
}

/**
 * The records a page shows, rows [from, to) of those `keep` keeps (every one without it), skipping
 * flagged ones when `skipFlagged`, and how many there are in all. Without `keep` the count and the
 * page's first row come from the flag counts, so only the page is read; with it, every record of
 * the view is tested (the view is then what a range or a customer narrowed it to).
 */
export function cut<T>(view: View<T>, from: number, to: number, options: { keep?: (item: T) => boolean; skipFlagged?: boolean } = {}): { rows: T[]; total: number } {
  const { keep } = options;
  const counted = options.skipFlagged && view.flaggedBefore ? view.flaggedBefore.bind(view) : undefined;
  const flaggedAt = counted ? (i: number) => counted(i + 1) !== counted(i) : () => false;
  const rows: T[] = [];
  if (keep) {
    let total = 0;
    for (let i = 0; i < view.length; i++) {
      if (flaggedAt(i)) continue;
      const item = view.at(i);
      if (!keep(item)) continue;
      if (total >= from && total < to) rows.push(item);
      total++;
    }
    return { rows, total };
  }
  const shown = (i: number) => i - (counted ? counted(i) : 0);
  const total = shown(view.length);
  // The first position with `from` shown records before it and shown itself.
  let lo = 0;
  let hi = view.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (shown(mid + 1) <= from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo, n = from; i < view.length && n < to; i++) {
    if (flaggedAt(i)) continue;
    rows.push(view.at(i));
    n++;
  }
  return { rows, total };
}

/** Up to `limit` records `keep` keeps, from position `start` on. */
export function walk<T>(view: View<T>, start: number, limit: number, keep: (item: T) => boolean): T[] {
  const rows: T[] = [];
  for (let i = start; i < view.length && rows.length < limit; i++) {
    const item = view.at(i);
    if (keep(item)) rows.push(item);
  }
  return rows;
}

/**
 * One value per state, made on first use (the orderings of a state's lists, its records by id):
 * kept beside the state rather than in it, so the records the tests and the truth read stay plain.
 */
export function perState<S extends object, V>(make: (state: S) => V): (state: S) => V {
  const made = new WeakMap<S, V>();
  return (state) => {
    let value = made.get(state);
    if (value === undefined) {
      value = make(state);
      made.set(state, value);
    }
    return value;
  };
}

/**
 * Records by a key, rebuilt when the state's records or revision change (or, on small lists, when
 * a key read again differs): an order by its id, the orders of a customer, a post's threads.
 */
export class Grouping<T, K> {
  private groups = new Map<K, T[]>();
  private built: { source: readonly T[]; length: number; revision: number } | undefined;
  /** On a small list, each record's keys as filed, by its place in the source. */
  private seen: (readonly K[])[] | undefined;

  constructor(
    private readonly source: () => readonly T[],
    private readonly revision: () => number,
    private readonly keys: (item: T) => readonly K[],
  ) {}

  /** The records filed under `key`, in the source's order. */
  get(key: K): readonly T[] {
    const source = this.source();
    const revision = this.revision();
    const b = this.built;
    if (!b || b.source !== source || b.length !== source.length || b.revision !== revision || (source.length <= VERIFY_BELOW && !this.holds(source))) {
      this.groups = new Map();
      const filed = source.map((item) => this.keys(item));
      source.forEach((item, i) => {
        for (const k of filed[i]!) {
          const list = this.groups.get(k);
          if (list) list.push(item);
          else this.groups.set(k, [item]);
        }
      });
      this.built = { source, length: source.length, revision };
      this.seen = source.length <= VERIFY_BELOW ? filed : undefined;
    }
    return this.groups.get(key) ?? [];
  }

  private holds(source: readonly T[]): boolean {
    const seen = this.seen;
    if (!seen) return false;
    for (let i = 0; i < source.length; i++) {
      const now = this.keys(source[i]!);
      const then = seen[i]!;
      if (now.length !== then.length || now.some((k, j) => k !== then[j])) return false;
    }
    return true;
  }
}

/**
 * The records of a stretch of an ordering that come first in another order (the order list's sort
 * key within a range of another time), found without reading the stretch: a segment tree over
 * the ordering's positions, each node naming its first record by `compare`, records `skip` skips
 * left out. Kept for one build of the ordering (its items array); on lists small enough to check
 * by reading (VERIFY_BELOW) it is not used, since a record changed in place would not be seen.
 */
export class FirstIn<T> {
  private tree = new Int32Array(0);
  private leaves = 0;
  private builtFor: readonly T[] | undefined;

  constructor(
    private readonly ordering: Ordering<T>,
    private readonly compare: (a: T, b: T) => number,
    private readonly skip?: (item: T) => boolean,
  ) {}

  /** The first `count` records of positions [from, to) by `compare`, skipped ones left out. */
  first(from: number, to: number, count: number): T[] {
    const items = this.ordering.items;
    if (this.builtFor !== items) this.build(items);
    const better = (a: number, b: number) => (a < 0 ? b : b < 0 ? a : this.compare(items[a]!, items[b]!) <= 0 ? a : b);
    const best = (lo: number, hi: number) => {
      let found = -1;
      for (let l = lo + this.leaves, r = hi + this.leaves; l < r; l >>= 1, r >>= 1) {
        if (l & 1) found = better(found, this.tree[l++]!);
        if (r & 1) found = better(found, this.tree[--r]!);
      }
      return found;
    };
    // Stretches in a heap by their first record: take the first, split its stretch around it.
    const heap: [number, number, number][] = [];
    const push = (lo: number, hi: number) => {
      const at = lo < hi ? best(lo, hi) : -1;
      if (at < 0) return;
      heap.push([lo, hi, at]);
      for (let i = heap.length - 1; i > 0; ) {
        const up = (i - 1) >> 1;
        if (this.compare(items[heap[up]![2]]!, items[heap[i]![2]]!) <= 0) break;
        [heap[up], heap[i]] = [heap[i]!, heap[up]!];
        i = up;
      }
    };
    const pop = () => {
      const top = heap[0]!;
      const last = heap.pop()!;
      if (heap.length) {
        heap[0] = last;
        for (let i = 0; ; ) {
          const l = 2 * i + 1;
          let min = i;
          if (l < heap.length && this.compare(items[heap[l]![2]]!, items[heap[min]![2]]!) < 0) min = l;
          if (l + 1 < heap.length && this.compare(items[heap[l + 1]![2]]!, items[heap[min]![2]]!) < 0) min = l + 1;
          if (min === i) break;
          [heap[min], heap[i]] = [heap[i]!, heap[min]!];
          i = min;
        }
      }
      return top;
    };
    const rows: T[] = [];
    push(from, to);
    while (rows.length < count && heap.length) {
      const [lo, hi, at] = pop();
      rows.push(items[at]!);
      push(lo, at);
      push(at + 1, hi);
    }
    return rows;
  }

  private build(items: readonly T[]): void {
    this.leaves = items.length;
    this.tree = new Int32Array(2 * items.length).fill(-1);
    for (let i = 0; i < items.length; i++) if (!this.skip?.(items[i]!)) this.tree[this.leaves + i] = i;
    for (let i = this.leaves - 1; i > 0; i--) {
      const [a, b] = [this.tree[2 * i]!, this.tree[2 * i + 1]!];
      this.tree[i] = a < 0 ? b : b < 0 ? a : this.compare(items[a]!, items[b]!) <= 0 ? a : b;
    }
    this.builtFor = items;
  }
}
