/**
 * Where an index's rows outlive the process. The index itself (row-index.ts) keeps its rows in
 * memory and decides what to read; a store only keeps what the index hands it and gives it back,
 * or says it has nothing usable (absent, corrupt, of another schema), in which case the index
 * reads the upstream again: a store is never trusted over a re-read.
 */

/** Raise it whenever a row's stored shape or the meaning of the meta changes: older stores are read as empty. */
export const SCHEMA = 3;

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
  /** A read under way, kept so that a later call, another replica or a restart goes on from where it got. */
  reading?: Reading;
}

/**
 * A read that extends what an index holds, saved as it goes. Its spans are of update times, Unix
 * seconds, both ends inclusive: 0 stands for all time before, OPEN for now on.
 */
export interface Reading {
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

export type Span = [number, number];

/** The open end of a span: updates from its start on, whenever they come. */
export const OPEN = Number.MAX_SAFE_INTEGER;
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
    // The newer account of a read, unless what is held whole already covers it.
    reading: pick(b.reading ?? a.reading, a, b),
  };
}

function pick(reading: Reading | undefined, a: IndexMeta, b: IndexMeta): Reading | undefined {
  if (!reading) return undefined;
  const whole = a.from === null || b.from === null ? null : Math.min(a.from, b.from);
  return whole === null || whole <= reading.span[0] ? undefined : reading;
}

export interface Stored<R> {
  meta: IndexMeta;
  rows: R[];
}

export interface IndexStore<R> {
  /** What was kept, or undefined when nothing usable is (never throws for a bad copy). */
  load(): Promise<Stored<R> | undefined>;
  /**
   * Takes the index's state after a change: `changed` rows (upserted) and, for stores that keep
   * whole copies, `all()` to write them all. May write later (debounced); flush() writes now.
   */
  save(meta: IndexMeta, changed: readonly R[], all: () => readonly R[], replaced: boolean): void;
  /**
   * Changes other processes made since this one last loaded or pulled (shared stores only);
   * "gone" when the shared copy this process had loaded no longer exists (a restarted Redis): the
   * index then reads the upstream afresh rather than trust what it holds alone.
   */
  pull?(): Promise<{ meta: IndexMeta; rows: R[]; replaced: boolean } | "gone" | undefined>;
  flush(): Promise<void>;
  clear(): Promise<void>;
  /**
   * Shared stores only: the right to read the upstream for this index for `ttlMs`, or undefined
   * while another process holds it (the index then follows what that one writes).
   */
  lease?(ttlMs: number): Promise<Lease | undefined>;
}

/** A read's hold on an index shared by replicas: kept while it reads, let go when done. */
export interface Lease {
  /** Keeps it another term; false when it was lost (lapsed and taken by another). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

/** No persistence: the index lives as long as the process. */
export class MemoryStore<R> implements IndexStore<R> {
  async load(): Promise<undefined> {
    return undefined;
  }
  save(): void {}
  async flush(): Promise<void> {}
  async clear(): Promise<void> {}
}
