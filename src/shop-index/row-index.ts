import { callSignal, original, signalled } from "../clients/call-signal.js";
import { cancelledByClient } from "../clients/errors.js";
import { onAbort } from "../clients/on-abort.js";
import { isTransient } from "../clients/http.js";
import { ListMisbehaved, utc } from "../clients/list-checks.js";
import { whileReading } from "../heap-mode.js";
import type { Logger } from "../log.js";
import { metered, ReadPace } from "./read-pace.js";
import { addSpan, gaps, heldBack } from "./spans.js";
import { type IndexMeta, type IndexStore, type Into, type Joined, type Linked, mergeMeta, NOTHING, OPEN, type Reading, type RowTable, SCHEMA, type Select, type Span, type Tallied, type TableShape } from "./store.js";

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
 *
 * Reading what is not held yet can take minutes (a page's conversations come 60 a call, at the
 * platform's 5 calls a second), longer than a client waits for one call. So a read runs on its own,
 * past the call that began it and past that call's cancel, once per index however many calls want
 * it; it is saved as it goes (its rows and the spans of update time it has read whole), so another
 * call, another replica or the next process goes on from where it got. A call waits for it until its
 * deadline, then answers from what was read so far, saying how far the read got.
 */

export type Progress = (done: number, total?: number, message?: string) => Promise<void>;

/** Where a read hands its rows as they come, and the spans of update time it has read whole. */
export interface ReadSink<R> {
  rows(batch: readonly R[]): void;
  covered(span: Span): void;
  /**
   * Requests the read may have in flight, of the `wanted`: all while a call waits for it; while
   * none does, a few, and none while a call answers from elsewhere (the POS's statistics) what
   * this read is for: the shop's questions go first.
   */
  parallel?(wanted: number): number;
}

/**
 * A kind of index: its rows' shape in the table (the row's id, how new it is: finer than its
 * update time where the rows tell more, an order's status history, a pushed message's
 * microseconds), and how the upstream lists and counts them.
 */
export interface IndexKind<R, C> extends TableShape<R> {
  readonly name: string;
  /**
   * Every row updated at or after `since` (null: all time), and at or before `until` when given,
   * into `sink` as read; resolves once all of it was, or throws.
   */
  read(client: C, since: number | null, until: number | undefined, progress: Progress, sink: ReadSink<R>): Promise<void>;
  /**
   * The upstream's own count of the rows its default list shows updated from `since` to `until`,
   * over the span it can count (it may count a shorter one, which it returns); undefined when it
   * cannot count at all.
   */
  count(client: C, since: number | null, until: number): Promise<{ since: number | null; count: number } | undefined>;
  /** How long an agreeing count check is trusted. */
  checkEveryMs: number;
  /**
   * The list ordered by creation, where the upstream has one: `read` and `count` as above, of the
   * rows created within the span. A question about the rows begun in a span then reads those
   * alone, not every row active since (a month's new chats are a fraction of those touched since).
   */
  created?: Pick<IndexKind<R, C>, "read" | "count">;
}

/** What a question needs held: every row updated from a time on (null: all time), or every row created within a span. */
export type Need = number | null | { inserted: Span };
const byCreation = (need: Need): need is { inserted: Span } => typeof need === "object" && need !== null;

export interface IndexPolicy {
  /** An answer within this long of the last refresh uses the rows as they are. */
  refreshMs: number;
  /** Most rows the index holds; a question that needs more is answered without it. */
  maxRows: number;
  /**
   * What the platform allows a read, for when to ask again (read-pace.ts): rows a list request
   * brings at most, and the requests a second it allows (undefined: none documented).
   */
  pace: { perRequest: number; ratePerSecond?: number };
}

/** Refreshes start this long before the newest update read: updates committed out of order, clocks that differ. */
export const MARGIN_S = 120;
/**
 * A read under way is saved this often: what a restart goes on from (a file is written whole), and
 * what other replicas answer from (Redis takes only what changed, so it is written each second).
 */
const CHECKPOINT_MS = 10_000;
const SHARED_CHECKPOINT_MS = 1_000;
/** A shared index's read is leased this long, and the lease kept every third of it while it reads. */
const LEASE_MS = 15_000;
/** A replica that follows another's read looks at what that one wrote this often. */
const FOLLOW_MS = 1_000;
/** Tries of a read's remaining parts after passing faults, each going on from where the last got. */
const READ_TRIES = 3;
/** Requests in flight at once of a read no call or told client waits for (a warm read). */
const UNWAITED_PARALLEL = 2;
/** A told client is waited for this much longer than its advice, or this long while the pace is not known yet. */
const PROMISE_SLACK = 1.5;
const UNKNOWN_ETA_S = 60;
/** Counts of a span's parts at most, for that estimate (a page's conversations are counted a month a request). */
const MAX_COUNTS = 36;

/** The index cannot hold what a question needs within its row bound: the caller reads the upstream instead. */
export class IndexFull extends Error {}

/** How far a read not yet done has got: an answer from it counts what was read so far. */
export interface ReadState {
  /** Rows held. */
  read: number;
  /** Roughly how many it will hold, once the read has counted what is left. */
  expected?: number;
  /** Unix seconds: every row updated since then is held (the read goes back in time from now). */
  backTo?: number;
  /** Seconds until it is likely done, at the pace measured. */
  etaSeconds?: number;
  /** Why the read stopped; the next call that needs it goes on from where it got. */
  failed?: string;
}

/** What an answer read from: the rows and how fresh they are. */
export interface IndexView<R> {
  /** Every row held, whole, read from the index's table as it is iterated (consume it without awaiting). */
  rows: Iterable<R>;
  /** The rows `select` picks (a range of a time, the heavy parts only when asked), read likewise. */
  select(select: Select): Iterable<R>;
  /** This process's clock (ms) when the refresh the rows come from began. */
  asOf: number;
  /** Set when the index does not hold all that was asked yet: the rows are those read so far. */
  partial?: ReadState;
}

const newestFirst = (need: number | null) => need ?? 0;
/** Whether rows held from `held` on answer a question that needs every row from `need` on. */
export const covers = (held: number | null, need: number | null) => held === null || (need !== null && held <= need);

/** The spans of creation time whose every row `meta` holds: those read by creation, and all since `from` (a row is updated when created). */
function createdHeld(meta: IndexMeta): Span[] {
  return meta.from === NOTHING ? (meta.created ?? []) : addSpan(meta.created ?? [], [meta.from ?? 0, OPEN]);
}

/** Whether what `meta` holds whole answers `need` (a read under way aside). */
function holdsWhole(meta: IndexMeta, need: Need): boolean {
  return byCreation(need) ? gaps(need.inserted, createdHeld(meta)).length === 0 : covers(meta.from, need);
}

type Outcome = "done" | "late" | { error: unknown };

/** A read under way: it settles once done, and says whether it failed. */
interface Run {
  promise: Promise<void>;
  failed?: { error: unknown };
}

/**
 * How `work` ends, or "late" at `deadline` (ms), whichever comes first; a wait its caller gave up
 * (`signal`: the client cancelled) ends at once with the cancel. The work goes on either way.
 */
export function byDeadline(work: Promise<unknown>, deadline: number, signal?: AbortSignal): Promise<Outcome> {
  if (signal?.aborted) return Promise.resolve({ error: cancelledByClient() });
  let timer: NodeJS.Timeout | undefined;
  let forget: (() => void) | undefined;
  const late = new Promise<Outcome>((resolve) => {
    if (deadline !== Number.POSITIVE_INFINITY) timer = setTimeout(() => resolve("late"), Math.max(0, deadline - Date.now()));
    if (signal) forget = onAbort(signal, () => resolve({ error: cancelledByClient() }));
  });
  return Promise.race([work.then(() => "done" as const, (error: unknown) => ({ error })), late]).finally(() => {
    clearTimeout(timer);
    forget?.();
  });
}

export class RowIndex<R, C extends object> {
  private meta: IndexMeta | undefined;
  private loaded: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private extending: Run | undefined;
  private readonly listeners = new Set<Progress>();
  /** Ends the reads of this index (it is cleared). */
  private life = new AbortController();
  /** Resolves when a read under way has read more: a call waiting on it looks again. */
  private moved: { promise: Promise<void>; resolve: () => void } = defer();
  /**
   * Shared index only: rows changed since the read under way was last sent to the other replicas;
   * `replacing`: the shared copy is to be replaced by this read's.
   */
  private unsaved: R[] = [];
  private replacing = false;
  private savedAt = 0;
  /** The pace of the read under way in this process. */
  private readonly pace: ReadPace;
  /** Until when (ms) a client told to ask again waits for the read under way. */
  private promised = 0;
  /** Set while a count of what the read has left is due. */
  private estimating: NodeJS.Timeout | undefined;
  /** Calls answering from elsewhere what this index's read is for: the read waits for them. */
  private yielding = 0;
  /** What the table is told of the shared store's rows. */
  private readonly into: Into<R>;
  /** The list by creation misbehaved (its rows or count were not the span's): questions by creation read by update. */
  private creationRefused = false;

  constructor(
    private readonly kind: IndexKind<R, C>,
    /** Where the rows live and are queried. */
    private readonly table: RowTable<R>,
    private readonly policy: IndexPolicy,
    /** Hosted: how replicas share the index (the table is this replica's copy); undefined for an index of one process. */
    private readonly shared?: IndexStore<R>,
    private readonly logger?: Logger,
  ) {
    this.into = { clear: () => table.clear(), put: (rows) => void table.put(rows) };
    this.pace = new ReadPace(policy.pace.perRequest, policy.pace.ratePerSecond);
  }

  get size(): number {
    return this.table.size;
  }

  /**
   * The rows, extended back to `need` and refreshed; IndexFull when they would not fit. Past
   * `deadline` (ms) it answers at once with what is held: the rows read so far (`partial`) while a
   * read goes on, or the rows as last refreshed while a refresh does.
   */
  async view(client: C, need: Need, progress: Progress, deadline = Number.POSITIVE_INFINITY): Promise<IndexView<R>> {
    await this.ready();
    const arrived = Date.now();
    this.listeners.add(progress);
    try {
      // A refresh under way may have begun before this call: go again until one serves it.
      for (let refreshes = 0; !this.fresh(need, arrived); ) {
        if (this.holdsNow(need)) {
          if (refreshes++ === 3) throw new Error(`the ${this.kind.name} index could not be brought up to date`);
          const outcome = await byDeadline(this.refreshOnce(client), deadline, callSignal(client));
          if (outcome === "late") return this.whole();
          if (outcome !== "done") throw outcome.error;
          continue;
        }
        const extending = this.extendOnce(client, need);
        // A call that may have to answer before the read is done will say how far it got: the read counts what it has left.
        if (deadline !== Number.POSITIVE_INFINITY && deadline > Date.now()) this.estimateBy(client, Date.now() + (deadline - Date.now()) / 3);
        const outcome = await byDeadline(Promise.race([extending.promise, this.moved.promise]), deadline, callSignal(client));
        // A warm read (deadline 0) tells no client when to come back.
        const told = deadline > arrived;
        if (outcome === "late") return this.partial(told, need);
        if (outcome !== "done" && callSignal(client)?.aborted) throw outcome.error;
        // A read that stopped on an error is not begun again by the call that waited on it: it answers with what was read.
        const failed = outcome === "done" ? extending.failed : outcome;
        if (failed) {
          if (failed.error instanceof IndexFull || !this.meta?.reading) throw failed.error;
          return this.partial(told, need);
        }
      }
    } finally {
      this.listeners.delete(progress);
    }
    return this.whole();
  }

  /**
   * Starts bringing the index up to date and extending it back to `need` (undefined: as far as it
   * holds or was reading), without waiting for either: a server's start, or an answer that did
   * without the index. Resolves, once the stored copy is loaded, with whether it started anything.
   */
  async warm(client: C, need?: Need): Promise<boolean> {
    try {
      await this.ready();
      const from = need === undefined ? this.heldFrom() : need;
      if (from === undefined) return false;
      await this.view(client, from, async () => {}, 0);
      return true;
    } catch (error) {
      this.logger?.info(`${this.kind.name}: not brought up to date (${message(error)})`);
      return false;
    }
  }

  /** Runs `work` (a call answering from elsewhere what the index would: the POS's statistics) with the index's own read held back meanwhile. */
  async yieldWhile<T>(work: () => Promise<T>): Promise<T> {
    this.yielding++;
    try {
      return await work();
    } finally {
      this.yielding--;
    }
  }

  /** Whether the index already holds what `need` asks (loading its stored copy first): a question may then use it cheaply. */
  async holds(need: Need): Promise<boolean> {
    await this.ready();
    return this.holdsNow(need);
  }

  /** Whether the index holds anything yet (loading its stored copy first): pushed changes apply only then. */
  async active(): Promise<boolean> {
    this.loaded ??= this.load();
    await this.loaded;
    return this.meta !== undefined;
  }

  /** The row held under an id. */
  get(id: string): R | undefined {
    return this.table.get(id);
  }

  /**
   * Every pair of this index's rows (a page's chats) and `other`'s (a shop's orders) that share a
   * join key, as the two tables hold them now (view both first to bring them up to date).
   */
  join<O, D extends object>(other: RowIndex<O, D>, mine?: Select, theirs?: Select): Iterable<Joined> {
    return { [Symbol.iterator]: () => this.table.join(other.table as RowTable<unknown>, mine, theirs) };
  }

  /** Queries of the rows as the table holds them now (view first): RowTable.linked and RowTable.tally. */
  linked(keys: readonly string[], select?: Select): Linked[] {
    return this.table.linked(keys, select);
  }

  tally(by: readonly string[], sum: string, select?: Select, not?: [string, readonly number[]]): Tallied[] {
    return this.table.tally(by, sum, select, not);
  }

  /** Applies rows pushed by the upstream (webhooks): each only if at least as new as the row held; how many changed. */
  async apply(rows: readonly R[]): Promise<number> {
    if (!this.meta) return 0;
    const changed = this.table.put(rows);
    if (changed.length) await this.shareNow(this.meta, changed);
    return changed.length;
  }

  /**
   * A change this server made upstream to a row held (a tag, an assignment, the read state: they do
   * not move a row's update time, so no refresh would read them), kept at once. False when the row
   * is not held (the next read of it brings the change).
   */
  async patch(id: string, change: (row: R) => R): Promise<boolean> {
    this.loaded ??= this.load();
    await this.loaded;
    const held = this.table.get(id);
    if (held === undefined || !this.meta) return false;
    const changed = this.table.overwrite([change(held)]);
    await this.shareNow(this.meta, changed);
    return true;
  }

  /** A pushed change this index could not apply: the next question (on any replica) refreshes whatever the interval. */
  async markDirty(): Promise<void> {
    if (!this.meta) return;
    this.meta = { ...this.meta, dirtyAt: Date.now() };
    this.table.keep(this.meta);
    await this.shareNow(this.meta, []);
  }

  /**
   * Sends a pushed change to the other replicas before the delivery is answered, so that another
   * replica asked next counts it (answered first, one replica once read the order's old status).
   * While a first read has not yet replaced the shared copy, the change goes with its next save.
   */
  private async shareNow(meta: IndexMeta, changed: R[]): Promise<void> {
    if (!this.shared) return;
    if (this.replacing) {
      this.unsaved.push(...changed);
      return;
    }
    this.shared.save(meta, changed, false);
    await this.shared.flush();
  }

  /** Forgets everything, a read under way included: the next question reads the upstream again. */
  async clear(): Promise<void> {
    this.life.abort();
    this.life = new AbortController();
    this.table.clear();
    this.meta = undefined;
    this.unsaved = [];
    this.replacing = false;
    await this.shared?.clear();
  }

  /** Writes what is pending, a read under way as far as it got (the process is about to end). */
  async flush(): Promise<void> {
    if (this.meta?.reading) this.checkpoint();
    await this.shared?.flush();
  }

  private async ready(): Promise<void> {
    this.loaded ??= this.load();
    await this.loaded;
    await this.pullShared();
  }

  /** Holds what `need` asks, refreshed since the call arrived or within the refresh interval. */
  private fresh(need: Need, arrived: number): boolean {
    const meta = this.meta;
    return (
      !!meta && this.holdsNow(need) && (meta.asOf >= arrived || ((meta.dirtyAt ?? 0) <= meta.asOf && Date.now() - meta.asOf < this.policy.refreshMs))
    );
  }

  /** Every row `need` asks is held, or read by the read under way (a refresh brings in what changed since). */
  private holdsNow(need: Need): boolean {
    const meta = this.meta;
    if (!meta) return false;
    if (holdsWhole(meta, need)) return true;
    const reading = meta.reading;
    if (!reading) return false;
    if (byCreation(need)) return reading.by === "inserted" && gaps(need.inserted, reading.done).length === 0;
    if (reading.by || need === null) return false;
    const back = heldBack(reading.done, reading.span[1]);
    return back !== undefined && back <= need;
  }

  /** Where the index holds every row from, or what it was reading; undefined when it holds nothing. */
  private heldFrom(): Need | undefined {
    const meta = this.meta;
    if (!meta) return undefined;
    if (meta.reading?.by) return { inserted: meta.reading.span };
    if (meta.reading) return meta.reading.span[0] === 0 ? null : meta.reading.span[0];
    if (meta.from !== NOTHING) return meta.from;
    return meta.created?.length ? { inserted: meta.created[0]! } : undefined;
  }

  private whole(asOf = this.meta!.asOf, partial?: ReadState): IndexView<R> {
    const { table } = this;
    return {
      rows: { [Symbol.iterator]: () => table.scan({ full: true }) },
      select: (select) => ({ [Symbol.iterator]: () => table.scan(select) }),
      asOf,
      partial,
    };
  }

  /**
   * The rows read so far, and how far the read got; `told`: a client is told when to ask again. A
   * read by creation, for a question by update, says neither how far back nor how long: another
   * read follows it. (A read by update answers one by creation: a row is updated when created.)
   */
  private partial(told: boolean, need: Need): IndexView<R> {
    const reading = this.meta?.reading;
    // Nothing read yet (another replica's read has written nothing so far).
    if (!this.meta) return { rows: [], select: () => [], asOf: Date.now(), partial: { read: 0 } };
    if (!reading) return this.whole();
    const read = this.table.size;
    if (reading.by && !byCreation(need)) return this.whole(reading.started, { read, failed: reading.failed });
    const pace = this.pace.rowsPerSecond(read);
    const left = reading.expected === undefined ? undefined : Math.max(0, reading.expected - read);
    const eta = left !== undefined && pace ? Math.ceil(left / pace) : undefined;
    // The client told when to come back is waiting for the read as much as one in a call: the read
    // keeps its pace until then, the one the advice went by, where one nobody waits for slows.
    if (told) this.promised = Math.max(this.promised, Date.now() + PROMISE_SLACK * (eta ?? UNKNOWN_ETA_S) * 1000);
    return this.whole(reading.started, {
      read,
      expected: reading.expected === undefined ? undefined : Math.max(reading.expected, read),
      backTo: heldBack(reading.done, reading.span[1]),
      etaSeconds: eta,
      failed: reading.failed,
    });
  }

  /** The background client of this index's reads: the caller's request id and logger, ended only by clear(). */
  private detached(client: C): C {
    const core = Reflect.get(client, "core") as { requestId?: string; logger?: Logger } | undefined;
    return signalled(original(client), { signal: this.life.signal, requestId: core?.requestId, logger: core?.logger });
  }

  // A read's failure reaches the calls waiting on it; one that no call waits on any more is only logged.
  private refreshOnce(client: C): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = this.refresh(this.detached(client)).finally(() => {
        this.refreshing = undefined;
      });
      this.refreshing.catch((error: unknown) => this.logger?.info(`${this.kind.name}: refresh failed: ${message(error)}`));
    }
    return this.refreshing;
  }

  private extendOnce(client: C, need: Need): Run {
    if (!this.extending) {
      const run: Run = {
        promise: this.extend(this.detached(client), need).then(
          () => {
            this.extending = undefined;
            this.wake();
          },
          (error: unknown) => {
            this.logger?.info(`${this.kind.name}: read stopped: ${message(error)}`);
            run.failed = { error };
            this.extending = undefined;
            this.wake();
          },
        ),
      };
      this.extending = run;
    }
    return this.extending;
  }

  private wake(): void {
    const moved = this.moved;
    this.moved = defer();
    moved.resolve();
  }

  private progress: Progress = async (done, total, message) => {
    await Promise.all([...this.listeners].map((p) => p(done, total ?? this.meta?.reading?.expected, message)));
  };

  /**
   * What was kept: this process's table, or hosted the shared copy (streamed into the replica's
   * table). A copy of another schema is no copy. What is kept counts as neither refreshed nor
   * checked: the first question does both.
   */
  private async load(): Promise<void> {
    const meta = this.shared ? await this.shared.load(this.into) : this.table.meta();
    if (!meta || meta.schema !== SCHEMA) {
      this.table.clear();
      return;
    }
    this.meta = { ...meta, asOf: 0, checkedAt: 0 };
  }

  /** What other replicas wrote to the shared store since this one last looked (a Redis round trip). */
  private async pullShared(): Promise<void> {
    const pulled = await this.shared?.pull(this.into);
    if (pulled === "gone") {
      this.table.clear();
      this.meta = undefined;
    } else if (pulled) {
      this.meta = this.meta && !pulled.replaced ? mergeMeta(this.meta, pulled.meta) : pulled.meta;
    }
  }

  /**
   * Extends the index back to `need` (below). Replicas that share it take turns: the one holding
   * the lease reads and writes as it goes, the others follow what it writes (their calls answer
   * from it), and one of them goes on from there if the reader stops or dies (its lease lapses).
   */
  private async extend(client: C, need: Need): Promise<void> {
    const { shared } = this;
    if (!shared) return whileReading(() => this.extendHeld(client, need));
    this.pace.restart(this.table.size);
    for (;;) {
      const lease = await shared.lease(LEASE_MS);
      if (lease) {
        const keeping = setInterval(() => void lease.renew(), LEASE_MS / 3);
        try {
          return await whileReading(() => this.extendHeld(client, need));
        } finally {
          clearInterval(keeping);
          await lease.release();
        }
      }
      this.pace.note(this.table.size);
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
      await this.pullShared();
      this.wake();
      if (this.meta && holdsWhole(this.meta, need)) return;
    }
  }

  /**
   * Reads what the index lacks of every row updated from `need` on: the part of the span before
   * what it holds, or all of it the first time, going on from a read saved earlier. Rows are kept
   * as they come and the read's state saved every few seconds; once all is read the span is held,
   * and the next refresh reads what changed since the read began.
   */
  private async extendHeld(client: C, asked: Need): Promise<void> {
    let meta = this.meta;
    if (!meta) {
      this.table.clear();
      this.replacing = this.shared !== undefined;
      // A read by creation keeps no watermark of its own (its rows' updates are in no order): the refresh after it reads from its start.
      meta = { schema: SCHEMA, from: NOTHING, watermark: byCreation(asked) ? Math.floor(Date.now() / 1000) : 0, asOf: 0, checkedAt: 0 };
    }
    if (holdsWhole(meta, asked)) return;
    if (this.table.size > this.policy.maxRows) throw this.full();
    const before = meta.reading;
    // Only a list by creation reads by creation; a read by update under way goes on (what it reads answers the question too).
    const need = byCreation(asked) && (!this.kind.created || this.creationRefused || (before && !before.by)) ? asked.inserted[0] : asked;
    const reading = byCreation(need) ? this.creationReading(meta, need.inserted) : this.updateReading(meta, newestFirst(need));
    this.meta = { ...meta, reading };
    this.pace.restart(this.table.size);
    const sink: ReadSink<R> = {
      rows: (batch) => {
        const changed = this.table.put(batch);
        if (this.shared) this.unsaved.push(...changed);
        this.pace.note(this.table.size);
        if (this.table.size > this.policy.maxRows) throw this.full();
        if (this.meta && !reading.by) this.meta = { ...this.meta, watermark: this.newest(batch, this.meta.watermark) };
      },
      covered: (span) => {
        const current = this.meta?.reading;
        if (!current) return;
        current.done = addSpan(current.done, span);
        if (Date.now() - this.savedAt >= (this.shared ? SHARED_CHECKPOINT_MS : CHECKPOINT_MS)) this.checkpoint();
        this.wake();
      },
      parallel: (wanted) => (this.listeners.size > 0 ? wanted : this.yielding > 0 ? 0 : Date.now() < this.promised ? wanted : UNWAITED_PARALLEL),
    };
    try {
      // A long read outlives passing faults (a burst of 429s, a moment of 502s): it goes on from
      // where it got a few times before it stops and says why.
      for (let tries = 1; ; tries++) {
        try {
          for (const [a, b] of gaps(reading.span, reading.done)) {
            await this.listOf(reading).read(metered(client, this.pace), a === 0 ? null : a, b === OPEN ? undefined : b, this.progress, sink);
          }
          if (reading.by) await this.confirmCreated(client, reading);
          break;
        } catch (error) {
          if (tries >= READ_TRIES || !isTransient(error) || this.life.signal.aborted) throw error;
          await new Promise((resolve) => setTimeout(resolve, tries * 1_000));
        }
      }
    } catch (error) {
      if (reading.by && error instanceof ListMisbehaved && this.meta?.reading === reading && !this.life.signal.aborted) {
        // The documents pair since/until with order_by without saying which time they range over:
        // a list by creation that ranges by anything else is not used again; the question reads by update.
        this.creationRefused = true;
        this.logger?.info(`${this.kind.name}: read by update from now on: ${error.message}`);
        this.meta = { ...this.meta, reading: undefined };
        return this.extendHeld(client, asked);
      }
      if (this.meta?.reading === reading) {
        reading.failed = message(error);
        this.checkpoint();
      }
      throw error;
    } finally {
      clearTimeout(this.estimating);
      this.estimating = undefined;
    }
    if (this.meta?.reading !== reading) return;
    // Every row of the span is held as of when the read began: the refresh reads from then on.
    const whole = reading.by ? { created: addSpan(this.meta.created ?? [], reading.span) } : { from: reading.span[0] === 0 ? null : reading.span[0] };
    this.meta = {
      ...this.meta,
      ...whole,
      reading: undefined,
      watermark: Math.min(this.meta.watermark, Math.floor(reading.started / 1000)),
      asOf: Math.min(this.meta.asOf, reading.started),
    };
    this.checkpoint();
  }

  /**
   * The read of every row updated from `from` on, where the index holds less: the part before what
   * it holds (all of it the first time), going on with a read of that kind saved earlier.
   */
  private updateReading(meta: IndexMeta, from: number): Reading {
    const held = meta.from;
    const top = held === NOTHING || held === null ? OPEN : held - 1;
    const before = meta.reading?.by ? undefined : meta.reading;
    // A read saved earlier goes on: what it read whole stays read (changes since are the refresh's).
    if (before && before.span[0] <= from) return { ...before, failed: undefined };
    return { span: [Math.min(from, before?.span[0] ?? from), top], started: before?.started ?? Date.now(), done: before?.done ?? [] };
  }

  /**
   * The read of every row created within `span`: what the index holds of it counts as read, and so
   * does what a read by creation saved earlier read (as of when it began: the refresh reads from then).
   */
  private creationReading(meta: IndexMeta, span: Span): Reading {
    const before = meta.reading?.by ? meta.reading : undefined;
    if (before && before.span[0] <= span[0] && before.span[1] >= span[1]) return { ...before, failed: undefined };
    const done = [...createdHeld(meta), ...(before?.done ?? [])].reduce<Span[]>(addSpan, []);
    return { by: "inserted", span, started: before?.started ?? Date.now(), done };
  }

  /**
   * The upstream's counts of the rows created within a span read by creation, against those held:
   * a list by creation that ranged by the last update served fewer (the chats begun in the span and
   * active after it), and only a chat begun before it and active in it would have shown that.
   */
  private async confirmCreated(client: C, reading: Reading): Promise<void> {
    const { count } = this.listOf(reading);
    // What was created after the read began is the refresh's.
    const top = Math.min(reading.span[1], Math.floor(reading.started / 1000) - 1);
    for (let until = top, n = 0; until >= reading.span[0] && n < MAX_COUNTS; n++) {
      const counted = await count(client, reading.span[0], until);
      if (!counted) return;
      const since = Math.max(counted.since ?? 0, reading.span[0]);
      const held = this.table.countListed(since, until, "inserted");
      if (held !== counted.count) throw new ListMisbehaved(`the ${this.kind.name} by creation served ${held} created from ${utc(since)} to ${utc(until)}; its count is ${counted.count}`);
      until = since - 1;
    }
  }

  /** The list a read walks and counts: by creation, or by update. */
  private listOf(reading: Reading): Pick<IndexKind<R, C>, "read" | "count"> {
    return (reading.by && this.kind.created) || this.kind;
  }

  private full(): IndexFull {
    return new IndexFull(`the ${this.kind.name} index holds at most ${this.policy.maxRows} rows`);
  }

  /**
   * Keeps where the read under way stands with its rows (they are in the table as they come), and
   * hosted sends the rows changed since the last save with it.
   */
  private checkpoint(): void {
    const meta = this.meta;
    if (!meta) return;
    this.savedAt = Date.now();
    this.table.keep(meta);
    if (!this.shared) return;
    const changed = this.unsaved;
    this.unsaved = [];
    const replaced = this.replacing;
    this.replacing = false;
    this.shared.save(meta, changed, replaced);
    void this.shared.flush();
  }

  /** Keeps the meta after a refresh or a check, hosted with the rows it changed. */
  private settle(changed: readonly R[]): void {
    const meta = this.meta!;
    this.table.keep(meta);
    if (!this.shared) return;
    if (this.replacing) this.unsaved.push(...changed);
    else this.shared.save(meta, changed, false);
  }

  /** Counts what the read under way has left at `at` (ms), unless it is done, counted, or about to be. */
  private estimateBy(client: C, at: number): void {
    if (this.estimating || this.meta?.reading?.expected !== undefined) return;
    const detached = this.detached(client);
    this.estimating = setTimeout(() => void this.estimate(detached).catch(() => {}), Math.max(0, at - Date.now()));
  }

  /**
   * Counts what the read under way has left (the upstream's counts of its unread parts), for an
   * answer to say how many rows there are roughly: the rows held now and those left.
   */
  private async estimate(client: C): Promise<void> {
    const reading = this.meta?.reading;
    if (!reading || reading.expected !== undefined) return;
    const held = this.table.size;
    let left = 0;
    const list = this.listOf(reading);
    for (const [a, b] of gaps(reading.span, reading.done)) {
      let until = b === OPEN ? Math.floor(Date.now() / 1000) : b;
      // All time has no start to stop at: two empty stretches in a row end it.
      for (let n = 0, empty = 0; n < MAX_COUNTS && until >= a; n++) {
        const counted = await list.count(client, a === 0 ? null : a, until);
        if (!counted) return;
        left += counted.count;
        const since = counted.since ?? 0;
        empty = counted.count === 0 ? empty + 1 : 0;
        if (since <= a || (a === 0 && empty >= 2)) break;
        until = since - 1;
      }
    }
    if (this.meta?.reading === reading) reading.expected = held + left;
  }

  private async refresh(client: C): Promise<void> {
    const started = Date.now();
    const meta = this.meta!;
    const changed = await this.read(client, meta.watermark - MARGIN_S, undefined);
    const moved = this.table.put(changed);
    this.meta = { ...this.meta!, watermark: this.newest(changed, this.meta!.watermark), asOf: started };
    this.settle(moved);
    if (this.meta.from !== NOTHING && !this.meta.reading && Date.now() - this.meta.checkedAt >= this.kind.checkEveryMs) await this.check(client, started);
  }

  /**
   * The upstream's count of what it lists against the rows held for the same span. A change made
   * between the refresh and the count shows as a difference, so a difference refreshes once more
   * before it is believed; a second one re-reads everything.
   */
  private async check(client: C, started: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const meta = this.meta!;
      const until = meta.watermark - MARGIN_S;
      const counted = await this.kind.count(client, meta.from, until);
      const held = counted && this.table.countListed(counted.since, until);
      if (!counted || held === counted.count) {
        this.meta = { ...this.meta!, checkedAt: Date.now() };
        this.settle([]);
        return;
      }
      if (attempt === 0) {
        const changed = await this.read(client, meta.watermark - MARGIN_S, undefined);
        const moved = this.table.put(changed);
        this.meta = { ...this.meta!, watermark: this.newest(changed, this.meta!.watermark), asOf: started };
        this.settle(moved);
        continue;
      }
      if (attempt === 1) {
        // Read afresh into the table as it comes (a big shop's rows never all in memory): every
        // row as the upstream gives it, and what it no longer lists dropped.
        // Hosted, the shared copy is replaced likewise: its first batch starts a new copy.
        const seen = new Set<string>();
        let watermark = 0;
        let replaced = true;
        await this.kind.read(client, meta.from, undefined, this.progress, {
          rows: (batch) => {
            for (const row of batch) seen.add(this.kind.id(row));
            this.table.overwrite(batch);
            watermark = this.newest(batch, watermark);
            if (this.table.size > this.policy.maxRows) throw this.full();
            this.shared?.save(this.meta!, batch, replaced);
            replaced = false;
          },
          covered: () => {},
        });
        this.table.retain(seen);
        // What was read by creation alone may have been dropped: it is read again when asked.
        this.meta = { ...this.meta!, watermark, asOf: started, created: undefined };
        this.settle([]);
        continue;
      }
      throw new Error(`the ${this.kind.name} index does not agree with the upstream's count (${held} held, ${counted.count} listed) even read afresh`);
    }
  }

  /** Every row of a span, collected: a refresh's few. */
  private async read(client: C, since: number | null, until: number | undefined): Promise<R[]> {
    const rows: R[] = [];
    await this.kind.read(client, since, until, this.progress, { rows: (batch) => rows.push(...batch), covered: () => {} });
    if (rows.length > this.policy.maxRows && rows.filter((r) => this.table.get(this.kind.id(r)) === undefined).length + this.table.size > this.policy.maxRows) {
      throw new IndexFull(`the ${this.kind.name} index holds at most ${this.policy.maxRows} rows`);
    }
    return rows;
  }

  private newest(rows: readonly R[], floor = 0): number {
    let max = floor;
    for (const row of rows) max = Math.max(max, this.kind.updated(row) ?? 0);
    return max;
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function defer(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
