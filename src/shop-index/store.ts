import { addSpan, OPEN, type Span } from "./spans.js";

/**
 * Where an index's rows live (a RowTable: an embedded database) and, hosted, how replicas share
 * them (an IndexStore: Redis). The index itself (row-index.ts) decides what to read; a table or a
 * shared store only keeps what the index hands it and gives it back, or says it has nothing usable
 * (absent, corrupt, of another schema), in which case the index reads the upstream again: what is
 * kept is never trusted over a re-read.
 */

/** Raise it whenever a row's stored shape or the meaning of the meta changes: older stores are read as empty. */
export const SCHEMA = 6;

export interface IndexMeta {
  schema: number;
  /** Unix seconds: every row updated at or after this is held; null: every row of all time. */
  from: number | null;
  /** Unix seconds, the upstream's clock: the newest update time read; refreshes start a margin before it. */
  watermark: number;
  /** This process's clock (ms) when the last completed refresh began: every change before it is in. */
  asOf: number;
  /** This process's clock (ms) of the last count check that agreed with the upstream. */
  checkedAt: number;
  /** When a pushed change could not be applied (a row not held): a refresh older than this is stale. */
  dirtyAt?: number;
  /**
   * Spans of creation time (Unix seconds, inclusive, merged) whose every row is held: read by
   * creation (a question about the chats begun in a span), kept up to date since by the refreshes.
   */
  created?: Span[];
  /** A read under way, kept so that a later call, another replica or a restart goes on from where it got. */
  reading?: Reading;
}

/**
 * A read that extends what an index holds, saved as it goes. Its spans are of update times (of
 * creation times when `by` says so), Unix seconds, both ends inclusive: 0 stands for all time
 * before, OPEN for now on.
 */
export interface Reading {
  /** "inserted": the rows created within the span, read by the list ordered by creation. */
  by?: "inserted";
  /** The span the read fills. */
  span: Span;
  /** This process's clock (ms) when it began: what changed after is the next refresh's to read. */
  started: number;
  /** Parts of the span read whole so far, merged, newest last. */
  done: Span[];
  /** Roughly how many rows the span holds (the upstream's counts), once known. */
  expected?: number;
  /** Why it stopped, when it did: the next call that needs it goes on. */
  failed?: string;
}

export { OPEN, type Span };
/** What `from` is while an index holds no whole span yet (a first read under way): newer than any row. */
export const NOTHING = OPEN;

/** Two replicas' views of one index: the widest span, the newest refresh, check and push. */
export function mergeMeta(a: IndexMeta, b: IndexMeta): IndexMeta {
  return {
    schema: a.schema,
    from: a.from === null || b.from === null ? null : Math.min(a.from, b.from),
    watermark: Math.max(a.watermark, b.watermark),
    asOf: Math.max(a.asOf, b.asOf),
    checkedAt: Math.max(a.checkedAt, b.checkedAt),
    dirtyAt: Math.max(a.dirtyAt ?? 0, b.dirtyAt ?? 0) || undefined,
    created: [...(a.created ?? []), ...(b.created ?? [])].reduce<Span[] | undefined>((all, span) => addSpan(all ?? [], span), undefined),
    // The newer account of a read, unless what is held whole already covers it.
    reading: pick(b.reading ?? a.reading, a, b),
  };
}

function pick(reading: Reading | undefined, a: IndexMeta, b: IndexMeta): Reading | undefined {
  if (!reading) return undefined;
  const whole = a.from === null || b.from === null ? null : Math.min(a.from, b.from);
  return whole === null || whole <= reading.span[0] ? undefined : reading;
}

/** What a table needs to know of its rows: how each is named, how new it is, what it is ranged by. */
export interface TableShape<R> {
  /** One table per kind of row; every index of that kind (a shop's orders, a page's conversations) is a part of it. */
  table: "orders" | "conversations";
  id(row: R): string;
  /** How new the row is: a row is kept over one at least as new only when it differs. */
  version(row: R): number;
  /** Unix seconds of the row's last update and of its creation. */
  updated(row: R): number | undefined;
  inserted(row: R): number | undefined;
  /** Whether the upstream's default list shows the row. */
  listed(row: R): boolean;
  /** Fields read back only when a scan asks for whole rows (`Select.full`). */
  heavy: readonly string[];
  /** Values kept beside the row for queries to filter and count by (an order's status, amount, customer). */
  columns: Readonly<Record<string, (row: R) => string | number | undefined>>;
  /**
   * What the row is joined to another kind's by, several per row, each `<how>:<value>` (how: a
   * letter of JOIN_HOW): an order's chat, its customer's id on the platform, its bill phone; a
   * chat's own id, its customer's platform ids, the phones it captured.
   */
  keys(row: R): string[];
}

/** The ways a chat and an order are joined, strongest first, by the letter their keys begin with. */
export const JOIN_HOW = { c: "order link", f: "social id", p: "phone" } as const;
export type JoinHow = (typeof JOIN_HOW)[keyof typeof JOIN_HOW];

/** A chat joined to an order: how (the strongest of their shared keys), and the order's columns. */
export interface Joined {
  chat: string;
  order: string;
  how: JoinHow;
  /** The order's creation (Unix seconds) and the columns its kind keeps (orders: status, amount, customer). */
  inserted: number | null;
  columns: Record<string, string | number | null>;
}

/** A row of another kind's (an order) joined to join keys (a chat's): how, its creation and its columns (as Joined). */
export type Linked = Omit<Joined, "chat">;

/** Rows counted per values of some columns: how many, and what another column of theirs sums to. */
export interface Tallied {
  values: (string | number | null)[];
  count: number;
  sum: number;
}

/**
 * Which rows a scan reads: those whose `by` time (Unix seconds; updated unless said) lies within
 * [from, to], either end open when unset; `full` adds the parts only some questions read (an
 * order's status history and lines), which cost most of a row to read back.
 */
export interface Select {
  by?: "updated" | "inserted";
  from?: number;
  to?: number;
  full?: boolean;
}

/**
 * The rows of one index where they live: an embedded database on disk (or a private temporary one
 * for a process alone), never the process's heap, so that a shop of half a million orders costs
 * the server a page cache, not its rows. Calls are synchronous: a scan is consumed without awaiting
 * in between, so no write of the index's own read interleaves with it.
 */
export interface RowTable<R> {
  /** Rows held. */
  readonly size: number;
  get(id: string): R | undefined;
  /**
   * Keeps each row unless the one held is newer (the kind's version) or the same; answers the rows
   * that changed, in one transaction.
   */
  put(rows: readonly R[]): R[];
  /** Keeps every row as given, whatever is held (a re-read that replaces a copy found wrong); the rows that changed. */
  overwrite(rows: readonly R[]): R[];
  /** Drops every row whose id `seen` lacks; how many were dropped. */
  retain(seen: ReadonlySet<string>): number;
  /** Every row held that `select` picks, read as it is iterated. */
  scan(select?: Select): IterableIterator<R>;
  /** Rows the upstream's list shows (not removed) updated (`by` inserted: created) within [since, until] (since null: all before). */
  countListed(since: number | null, until: number, by?: "updated" | "inserted"): number;
  /** The meta kept with the rows, if any (of any schema: the index checks it). */
  meta(): IndexMeta | undefined;
  /** Keeps `meta` with the rows; undefined forgets it. */
  keep(meta: IndexMeta | undefined): void;
  /** Drops every row and the meta. */
  clear(): void;
  /**
   * Every pair of this table's rows (chats) and `other`'s (orders) that share a key, the rows of
   * each picked by a select (its time range), read as iterated: the join happens where the rows live.
   */
  join(other: RowTable<unknown>, mine?: Select, theirs?: Select): IterableIterator<Joined>;
  /**
   * The rows listed that share any of `keys` (another kind's join keys: one chat's) and that `select`
   * picks, each by the strongest key shared: a lookup by the keys' own index, whatever the table holds.
   */
  linked(keys: readonly string[], select?: Select): Linked[];
  /**
   * Per values of the columns `by`, the rows listed that `select` picks, less those whose column
   * `not[0]` holds one of `not[1]` (an order's void statuses), counted and their column `sum` summed.
   */
  tally(by: readonly string[], sum: string, select?: Select, not?: [string, readonly number[]]): Tallied[];
}

/**
 * An index shared by replicas (hosted: Redis). Each replica answers from its own table and keeps
 * it in step through this store: what it read or was pushed goes in, what others wrote comes out.
 */
export interface IndexStore<R> {
  /** The shared copy's meta, its rows handed to `into` in batches; undefined when nothing usable is kept. */
  load(into: Into<R>): Promise<IndexMeta | undefined>;
  /** Takes the index's state after a change: the rows that changed, or (replaced) the start of a new copy. */
  save(meta: IndexMeta, changed: readonly R[], replaced: boolean): void;
  /**
   * Changes other processes made since this one last loaded or pulled; "gone" when the shared copy
   * this process had loaded no longer exists (a restarted Redis): the index then reads the upstream
   * afresh rather than trust what it holds alone. A copy replaced meanwhile comes whole, in batches.
   */
  pull(into: Into<R>): Promise<{ meta: IndexMeta; replaced: boolean } | "gone" | undefined>;
  flush(): Promise<void>;
  clear(): Promise<void>;
  /**
   * The right to read the upstream for this index for `ttlMs`, or undefined while another process
   * holds it (the index then follows what that one writes).
   */
  lease(ttlMs: number): Promise<Lease | undefined>;
}

/** Where a shared store hands the rows it brings: a copy replaced is cleared first. */
export interface Into<R> {
  clear(): void;
  put(rows: readonly R[]): void;
}

/** A read's hold on an index shared by replicas: kept while it reads, let go when done. */
export interface Lease {
  /** Keeps it another term; false when it was lost (lapsed and taken by another). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}
