import { isDeepStrictEqual } from "node:util";
import { joinedLoad } from "../clients/call-signal.js";
import { type IndexMeta, type IndexStore, mergeMeta, SCHEMA } from "./store.js";

/**
 * An index of one upstream list (a shop's orders, a page's conversations): the rows already read,
 * kept in step by reading only what changed since (every list filters on the update time), so a
 * question over tens of thousands of rows costs a request or two once they have been read.
 *
 * What it holds is stated by one number, `from`: every row updated at or after it (all time when
 * null). A question about rows created, or moved to a status, since S needs from <= S, since a row
 * is updated whenever that happens; one about all time needs from null. Each answer refreshes first
 * (unless one just did), and the rows are checked against the upstream's own count now and then:
 * a disagreement (a lost change, a copy of another account, an edited store) is a full re-read,
 * never an answer.
 */

export type Progress = (done: number, total?: number, message?: string) => Promise<void>;

export interface IndexKind<R, C> {
  readonly name: string;
  id(row: R): string;
  /** Unix seconds of the row's last update, the upstream's clock. */
  updated(row: R): number | undefined;
  /** Every row updated at or after `since` (null: all time), and at or before `until` when given: complete, or it throws. */
  read(client: C, since: number | null, until: number | undefined, progress: Progress): Promise<R[]>;
  /**
   * The upstream's own count of the rows its default list shows updated from `since` to `until`,
   * over the span it can count (it may count a shorter one, which it returns); undefined when it
   * cannot count at all.
   */
  count(client: C, since: number | null, until: number): Promise<{ since: number | null; count: number } | undefined>;
  /** Whether the upstream's default list shows the row (a removed order it hides). */
  listed(row: R): boolean;
  /** How long an agreeing count check is trusted. */
  checkEveryMs: number;
}

export interface IndexPolicy {
  /** An answer within this long of the last refresh uses the rows as they are. */
  refreshMs: number;
  /** Most rows the index holds; a question that needs more is answered without it. */
  maxRows: number;
}

/** Refreshes start this long before the newest update read: updates committed out of order, clocks that differ. */
export const MARGIN_S = 120;

/** The index cannot hold what a question needs within its row bound: the caller reads the upstream instead. */
export class IndexFull extends Error {}

/** What an answer read from: the rows and how fresh they are. */
export interface IndexView<R> {
  rows: Iterable<R>;
  /** This process's clock (ms) when the refresh the rows come from began. */
  asOf: number;
}

const older = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.min(a, b));
/** Whether rows held from `held` on answer a question that needs every row from `need` on. */
export const covers = (held: number | null, need: number | null) => held === null || (need !== null && held <= need);

export class RowIndex<R, C extends object> {
  private rows = new Map<string, R>();
  private meta: IndexMeta | undefined;
  private loaded: Promise<void> | undefined;
  private inflight: Promise<void> | undefined;
  private readonly listeners = new Set<Progress>();

  constructor(
    private readonly kind: IndexKind<R, C>,
    private readonly store: IndexStore<R>,
    private readonly policy: IndexPolicy,
    /** Rows held across every index of the process changed by `delta` (budget.ts). */
    private readonly counted: (delta: number) => void = () => {},
  ) {}

  get size(): number {
    return this.rows.size;
  }

  /** The rows, extended back to `need` and refreshed, or IndexFull. */
  async view(client: C, need: number | null, progress: Progress): Promise<IndexView<R>> {
    this.loaded ??= this.load();
    await this.loaded;
    await this.pullShared();
    const arrived = Date.now();
    this.listeners.add(progress);
    try {
      // A sync already under way may have been asked for less, or have begun before this call: go again until it serves.
      for (let round = 0; !this.serves(need, arrived); round++) {
        if (round === 3) throw new Error(`the ${this.kind.name} index could not be brought up to date`);
        await joinedLoad<C, void>(this, "sync", client, (start) => this.single(start), (c) => this.sync(c, need));
      }
    } finally {
      this.listeners.delete(progress);
    }
    return { rows: this.rows.values(), asOf: this.meta!.asOf };
  }

  /** Whether the index already holds what `need` asks (loading its stored copy first): a question may then use it cheaply. */
  async holds(need: number | null): Promise<boolean> {
    this.loaded ??= this.load();
    await this.loaded;
    return !!this.meta && covers(this.meta.from, need);
  }

  /** Whether the index holds anything yet (loading its stored copy first): pushed changes apply only then. */
  async active(): Promise<boolean> {
    this.loaded ??= this.load();
    await this.loaded;
    return this.meta !== undefined;
  }

  /** The row held under an id. */
  get(id: string): R | undefined {
    return this.rows.get(id);
  }

  /** Applies rows pushed by the upstream (webhooks): each only if at least as new as the row held; how many changed. */
  async apply(rows: readonly R[]): Promise<number> {
    if (!this.meta) return 0;
    const changed = rows.filter((row) => this.upsert(row));
    if (changed.length) await this.shared(this.meta, changed);
    return changed.length;
  }

  /** A pushed change this index could not apply: the next question (on any replica) refreshes whatever the interval. */
  async markDirty(): Promise<void> {
    if (!this.meta) return;
    this.meta = { ...this.meta, dirtyAt: Date.now() };
    await this.shared(this.meta, []);
  }

  /**
   * Saves a pushed change. A shared store has it before the delivery is answered, so another
   * replica asked next counts it (answered first, one replica once read the order's old status);
   * a file store keeps its debounce: it serves this process alone, which already holds the change.
   */
  private async shared(meta: IndexMeta, changed: R[]): Promise<void> {
    this.store.save(meta, changed, () => [...this.rows.values()], false);
    if (this.store.pull) await this.store.flush();
  }

  /** Forgets everything: the next question reads the upstream again. */
  async clear(): Promise<void> {
    this.counted(-this.rows.size);
    this.rows = new Map();
    this.meta = undefined;
    await this.store.clear();
  }

  flush(): Promise<void> {
    return this.store.flush();
  }

  /** Lets go of the rows in memory (the store keeps them): the next question loads them again. */
  async evict(): Promise<void> {
    if (this.inflight || !this.meta) return;
    await this.store.flush();
    if (this.inflight) return;
    this.counted(-this.rows.size);
    this.rows = new Map();
    this.meta = undefined;
    this.loaded = undefined;
  }

  /** One sync at a time: a caller arriving while one runs waits for it. */
  private single(start: () => Promise<void>): Promise<void> {
    this.inflight ??= start().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /** Holds what `need` asks, refreshed since the call arrived or within the refresh interval. */
  private serves(need: number | null, arrived: number): boolean {
    const meta = this.meta;
    return !!meta && covers(meta.from, need) && (meta.asOf >= arrived || ((meta.dirtyAt ?? 0) <= meta.asOf && Date.now() - meta.asOf < this.policy.refreshMs));
  }

  /** A stored copy counts as neither refreshed nor checked: the first question does both. */
  private async load(): Promise<void> {
    const stored = await this.store.load();
    if (!stored || stored.meta.schema !== SCHEMA) return;
    this.replace(stored.rows);
    this.meta = { ...stored.meta, asOf: 0, checkedAt: 0 };
  }

  /** What other replicas wrote to a shared store since this one last looked (a Redis round trip). */
  private async pullShared(): Promise<void> {
    const pulled = await this.store.pull?.();
    if (pulled === "gone") {
      this.replace([]);
      this.meta = undefined;
    } else if (pulled) {
      if (pulled.replaced) this.replace(pulled.rows);
      else for (const row of pulled.rows) this.upsert(row);
      this.meta = this.meta && !pulled.replaced ? mergeMeta(this.meta, pulled.meta) : pulled.meta;
    }
  }

  private async sync(client: C, need: number | null): Promise<void> {
    const started = Date.now();
    const progress: Progress = async (done, total, message) => {
      await Promise.all([...this.listeners].map((p) => p(done, total, message)));
    };
    const meta = this.meta;
    // What changed while a span was read was changed after the read began: the refresh reads from then on.
    let refreshFrom: number | undefined;
    if (!meta || !covers(meta.from, need)) {
      refreshFrom = Math.floor(started / 1000);
      // Read what is missing: all of it, or the older stretch before what is held.
      const from = meta ? older(meta.from, need) : need;
      const read = await this.read(client, from, meta && meta.from !== null ? meta.from - 1 : undefined, progress);
      if (!meta) this.replace(read);
      else for (const row of read) this.upsert(row);
      this.meta = { schema: SCHEMA, from, watermark: this.newest(read, meta?.watermark), asOf: meta?.asOf ?? started, checkedAt: meta?.checkedAt ?? 0 };
      this.store.save(this.meta, read, () => [...this.rows.values()], !meta);
    }
    await this.refresh(client, started, progress, refreshFrom);
    if (Date.now() - this.meta!.checkedAt >= this.kind.checkEveryMs) await this.check(client, started, progress);
  }

  private async refresh(client: C, started: number, progress: Progress, from?: number): Promise<void> {
    const meta = this.meta!;
    const changed = await this.read(client, Math.min(meta.watermark, from ?? meta.watermark) - MARGIN_S, undefined, progress);
    const moved = changed.filter((row) => this.upsert(row));
    this.meta = { ...meta, watermark: this.newest(changed, meta.watermark), asOf: started };
    this.store.save(this.meta, moved, () => [...this.rows.values()], false);
  }

  /**
   * The upstream's count of what it lists against the rows held for the same span. A change made
   * between the refresh and the count shows as a difference, so a difference refreshes once more
   * before it is believed; a second one re-reads everything.
   */
  private async check(client: C, started: number, progress: Progress): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const meta = this.meta!;
      const until = meta.watermark - MARGIN_S;
      const counted = await this.kind.count(client, meta.from, until);
      const held = counted && this.countHeld(counted.since, until);
      if (!counted || held === counted.count) {
        this.meta = { ...meta, checkedAt: Date.now() };
        this.store.save(this.meta, [], () => [...this.rows.values()], false);
        return;
      }
      if (attempt === 0) {
        await this.refresh(client, started, progress);
        continue;
      }
      if (attempt === 1) {
        const rows = await this.read(client, meta.from, undefined, progress);
        this.replace(rows);
        this.meta = { ...meta, watermark: this.newest(rows), asOf: started };
        this.store.save(this.meta, rows, () => [...this.rows.values()], true);
        continue;
      }
      throw new Error(`the ${this.kind.name} index does not agree with the upstream's count (${held} held, ${counted.count} listed) even read afresh`);
    }
  }

  private countHeld(since: number | null, until: number): number {
    let n = 0;
    for (const row of this.rows.values()) {
      const at = this.kind.updated(row);
      if (at !== undefined && (since === null || at >= since) && at <= until && this.kind.listed(row)) n++;
    }
    return n;
  }

  private async read(client: C, since: number | null, until: number | undefined, progress: Progress): Promise<R[]> {
    const rows = await this.kind.read(client, since, until, progress);
    if (this.rows.size + rows.length > this.policy.maxRows && rows.filter((r) => !this.rows.has(this.kind.id(r))).length + this.rows.size > this.policy.maxRows) {
      throw new IndexFull(`the ${this.kind.name} index holds at most ${this.policy.maxRows} rows`);
    }
    return rows;
  }

  /** Keeps a row unless the one held is newer; true when the row held changed (the same row again changes nothing). */
  private upsert(row: R): boolean {
    const key = this.kind.id(row);
    const held = this.rows.get(key);
    if (held !== undefined && ((this.kind.updated(held) ?? 0) > (this.kind.updated(row) ?? 0) || isDeepStrictEqual(held, row))) return false;
    if (held === undefined) this.counted(1);
    this.rows.set(key, row);
    return true;
  }

  private replace(rows: readonly R[]): void {
    this.counted(-this.rows.size);
    this.rows = new Map(rows.map((row) => [this.kind.id(row), row]));
    this.counted(this.rows.size);
  }

  private newest(rows: readonly R[], floor = 0): number {
    let max = floor;
    for (const row of rows) max = Math.max(max, this.kind.updated(row) ?? 0);
    return max;
  }
}
