import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { type IndexMeta, type IndexStore, type Into, type Lease, OPEN } from "../shop-index/store.js";
import type { RedisLink } from "./redis-link.js";

// The shop index shared by every replica through Redis (hosted mode): each index is a hash of rows
// by id, the version of each (how new it is: the kind's `version`, its update time in seconds with
// a finer fraction), a sorted log of which ids changed at which write, and its meta. A replica
// keeps its own copy in a temporary database (its memory does not grow with its tenants' shops)
// and pulls only the rows changed since it last looked; a write keeps
// a row only if it is newer than the one stored, or as new and different (the same row again
// writes nothing), so a slow replica or a webhook delivered twice never puts an older copy back.
// Metas merge as mergeMeta does (src/shop-index/store.ts), in the script.
//
// A write Redis did not take (away, failing) is kept and sent again with the next write of the
// index (or its next flush), so a change applied in memory reaches the other replicas once Redis is
// back; a call that must know whether its writes were stored (a webhook delivery, answered 503
// when not) runs within `withIndexWrites`.

/** Rows per script call: Lua's argument stack, and Redis busy for a moment at most. */
const CHUNK = 400;
/** Rows per HSCAN step when a replica loads an index whole. */
const SCAN_COUNT = 2_000;
/** An index nobody writes to for this long is dropped by Redis. */
const IDLE_MS = 30 * 86_400_000;
/** Rows kept to send again while Redis does not take them; past it the oldest wait for a refresh elsewhere. */
const MAX_UNSENT = 20_000;

/** What the shared index did for one call (a webhook delivery): the rows it stored, and why it could not. */
export interface IndexWrites {
  /** Ids of rows a write begun within the call stored (or found stored as new). */
  stored: Set<string>;
  /** Why a read or write of the shared index within the call failed (Redis away, a write refused). */
  failed?: unknown;
}

const calls = new AsyncLocalStorage<IndexWrites>();

/** Runs `work`, noting what the shared index stores for it and whether it failed (reads and writes it begins). */
export async function withIndexWrites<T>(work: () => Promise<T>): Promise<{ value: T; writes: IndexWrites }> {
  const writes: IndexWrites = { stored: new Set() };
  const value = await calls.run(writes, work);
  return { value, writes };
}

/** The writes of the call under way, if one asked (withIndexWrites). */
export const indexWrites = (): IndexWrites | undefined => calls.getStore();

const away = () => new Error("Redis is unavailable");

/**
 * The meta as the write script stored it: Redis's cjson re-encodes what it merges with 14
 * significant digits and writes an empty array as {}, so the open end of a span (OPEN, 2^53 - 1)
 * comes back as 9.007199254741e15 and a read with no part done yet as `done: {}`. No time the index
 * keeps (seconds or milliseconds) comes near 9e15.
 */
function metaOf(text: string): IndexMeta {
  return JSON.parse(text, (key, value: unknown) => {
    if (typeof value === "number" && value >= 9e15) return OPEN;
    if ((key === "done" || key === "created") && !Array.isArray(value)) return [];
    return value;
  }) as IndexMeta;
}

export const INDEX_SCRIPTS = {
  // KEYS meta, rows, versions, log. ARGV: replace (0/1; 2: rows sent again, only into an index
  // Redis still holds), epoch, last (0/1), ttl, meta JSON, then id, version, json triples. A row
  // is kept when newer than the one held, or as new and different.
  pmcpIndexWrite: {
    keys: 4,
    lua: `
if ARGV[1] == '2' and not redis.call('HGET', KEYS[1], 'epoch') then return {'', 0, 0} end
if ARGV[1] == '1' then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
  redis.call('HSET', KEYS[1], 'epoch', ARGV[2], 'seq', 0)
end
if not redis.call('HGET', KEYS[1], 'epoch') then redis.call('HSET', KEYS[1], 'epoch', ARGV[2], 'seq', 0) end
local written = 0
for i = 6, #ARGV, 3 do
  local id, version = ARGV[i], tonumber(ARGV[i + 1])
  local held = tonumber(redis.call('HGET', KEYS[3], id) or '-1')
  if version > held or (version == held and redis.call('HGET', KEYS[2], id) ~= ARGV[i + 2]) then
    local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
    redis.call('HSET', KEYS[2], id, ARGV[i + 2])
    redis.call('HSET', KEYS[3], id, ARGV[i + 1])
    redis.call('ZADD', KEYS[4], seq, id)
    written = written + 1
  end
end
if ARGV[3] == '1' then
  local m = cjson.decode(ARGV[5])
  local old = redis.call('HGET', KEYS[1], 'meta')
  if old and ARGV[1] ~= '1' then
    local o = cjson.decode(old)
    if o.from == cjson.null or m.from == cjson.null then m.from = cjson.null else m.from = math.min(o.from, m.from) end
    m.watermark = math.max(o.watermark, m.watermark)
    m.asOf = math.max(o.asOf, m.asOf)
    m.checkedAt = math.max(o.checkedAt, m.checkedAt)
    m.dirtyAt = math.max(o.dirtyAt or 0, m.dirtyAt or 0)
  end
  redis.call('HSET', KEYS[1], 'meta', cjson.encode(m))
end
for k = 1, 4 do redis.call('PEXPIRE', KEYS[k], tonumber(ARGV[4])) end
return {redis.call('HGET', KEYS[1], 'epoch'), tonumber(redis.call('HGET', KEYS[1], 'seq')), written}
`,
  },
  // KEYS lease. ARGV: holder, ttl (0: let go). Keeps (or lets go of) a lease its holder has.
  pmcpIndexLease: {
    keys: 1,
    lua: `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[2]) == 0 then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2])) end
return 1
`,
  },
};

interface Position {
  epoch: string;
  seq: number;
}

export class RedisIndexStore<R> implements IndexStore<R> {
  private readonly keys: [string, string, string, string];
  private readonly leaseKey: string;
  private position: Position | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Rows written while Redis did not take them, by id: sent again with the next write. */
  private unsent = new Map<string, R>();

  constructor(
    private readonly link: RedisLink,
    namespace: string,
    key: string,
    /** The row's id and version (its update time), as the index reads them. */
    private readonly identify: (row: R) => { id: string; version: number },
  ) {
    const base = `pmcp:{${namespace}}:ix:${key}`;
    this.keys = [`${base}:meta`, `${base}:rows`, `${base}:ver`, `${base}:log`];
    this.leaseKey = `${base}:lease`;
  }

  /**
   * The right to read this index's upstream list for a while: one replica reads, the others use
   * what it writes. Undefined when another replica holds it; a holder that dies lets it lapse.
   * Redis away, every replica reads for itself (as every other state falls back to memory).
   */
  async lease(ttlMs: number): Promise<Lease | undefined> {
    const holder = randomBytes(9).toString("base64url");
    const open: Lease = { renew: async () => true, release: async () => {} };
    if (!this.link.up) return open;
    try {
      if ((await this.link.client.set(this.leaseKey, holder, "PX", ttlMs, "NX")) !== "OK") return undefined;
    } catch (error) {
      this.link.failed(error);
      return open;
    }
    const keep = (ms: number) => (this.link.run("pmcpIndexLease", this.leaseKey, holder, ms) as Promise<number>).then((kept) => kept === 1);
    return {
      renew: () => keep(ttlMs).catch(() => true),
      release: () => keep(0).then(() => {}, () => {}),
    };
  }

  async load(into: Into<R>): Promise<IndexMeta | undefined> {
    return (await this.attempt(() => this.loadWhole(into))) ?? undefined;
  }

  async pull(into: Into<R>): Promise<{ meta: IndexMeta; replaced: boolean } | "gone" | undefined> {
    return (
      (await this.attempt(async () => {
        const [epoch, seq, meta] = (await this.link.client.hmget(this.keys[0], "epoch", "seq", "meta")) as [string | null, string | null, string | null];
        if (!epoch || !meta) {
          // Gone from Redis (restarted, expired, cleared) while this replica held a copy: read anew.
          if (!this.position) return undefined;
          this.position = undefined;
          this.unsent.clear();
          return "gone" as const;
        }
        if (!this.position || epoch !== this.position.epoch) {
          const whole = await this.loadWhole(into);
          return whole && { meta: whole, replaced: true };
        }
        // No row written since: the meta alone may have moved (a refresh elsewhere, a push marked stale).
        if (Number(seq) <= this.position.seq) return { meta: metaOf(meta), replaced: false };
        const changed = await this.link.client.zrangebyscore(this.keys[3], `(${this.position.seq}`, "+inf", "WITHSCORES");
        const ids = changed.filter((_, i) => i % 2 === 0);
        const top = Math.max(this.position.seq, ...changed.filter((_, i) => i % 2 === 1).map(Number));
        for (let i = 0; i < ids.length; i += SCAN_COUNT) {
          const rows: R[] = [];
          for (const json of await this.link.client.hmget(this.keys[1], ...ids.slice(i, i + SCAN_COUNT))) if (json) rows.push(JSON.parse(json) as R);
          into.put(rows);
        }
        this.position = { epoch, seq: top };
        return { meta: metaOf(meta), replaced: false };
      })) ?? undefined
    );
  }

  save(meta: IndexMeta, changed: readonly R[], replaced: boolean): void {
    const rows = [...changed];
    // A copy replaced is what this replica holds now: rows not sent before are superseded.
    if (replaced) this.unsent.clear();
    // As of now, with these rows: the index moves its read's state on in place, and a meta
    // written later would call read spans whose rows only the next save sends.
    const now = structuredClone(meta);
    this.writing = this.writing.then(() => this.write(now, rows, replaced)).catch((error: unknown) => this.link.failed(error));
  }

  /** Waits for the writes under way, and sends again the rows Redis did not take (their index's meta is sent with the next save). */
  flush(): Promise<void> {
    if (this.unsent.size > 0) this.writing = this.writing.then(() => this.write(undefined, [], false)).catch((error: unknown) => this.link.failed(error));
    return this.writing;
  }

  async clear(): Promise<void> {
    await this.writing;
    this.position = undefined;
    this.unsent.clear();
    if (this.link.up) await this.link.client.del(...this.keys).catch((error: unknown) => this.link.failed(error));
  }

  /**
   * Writes `rows` and `meta`, with the rows a write before could not (not over a copy replaced:
   * those are only sent into the index they were written for). What Redis does not take is kept
   * for the next write, and the call that began it (withIndexWrites) told.
   */
  private async write(meta: IndexMeta | undefined, given: R[], replaced: boolean): Promise<void> {
    const call = indexWrites();
    // Rows alone go only into the index this replica loaded or wrote: the next save sends them otherwise.
    if (!meta && !this.position) return;
    let rows = given;
    if (this.unsent.size > 0 && !replaced) {
      const byId = new Map(this.unsent);
      this.unsent.clear();
      for (const row of given) byId.set(this.identify(row).id, row);
      rows = [...byId.values()];
    }
    if (!this.link.up) {
      this.keep(rows, call, away());
      return;
    }
    const epoch = replaced ? `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}` : (this.position?.epoch ?? "first");
    for (let i = 0; i === 0 || i < rows.length; i += CHUNK) {
      const part = rows.slice(i, i + CHUNK);
      const ids: string[] = [];
      const chunk = part.flatMap((row) => {
        const { id, version } = this.identify(row);
        ids.push(id);
        return [id, version, JSON.stringify(row)];
      });
      const last = i + CHUNK >= rows.length;
      const mode = replaced && i === 0 ? 1 : meta ? 0 : 2;
      let answer: [string, number, number];
      try {
        answer = (await this.link.run("pmcpIndexWrite", ...this.keys, mode, epoch, last && meta ? 1 : 0, IDLE_MS, meta ? JSON.stringify(meta) : "{}", ...chunk)) as [string, number, number];
      } catch (error) {
        this.keep(rows.slice(i), call, error);
        throw error;
      }
      const [stored, seq, written] = answer;
      // Sent again into an index Redis no longer holds: nothing was written, and nothing is kept.
      if (stored === "") return;
      for (const id of ids) call?.stored.add(id);
      // This replica's own writes need not be pulled back; another's in between will be (they raise seq past this).
      if (replaced && i === 0) this.position = { epoch: stored, seq };
      else if (this.position?.epoch === stored && this.position.seq === seq - written) this.position.seq = seq;
    }
  }

  /** Rows Redis did not take, kept for the next write (a later row of an id replaces an earlier). */
  private keep(rows: readonly R[], call: IndexWrites | undefined, error: unknown): void {
    if (call) call.failed ??= error;
    for (const row of rows) {
      const { id } = this.identify(row);
      this.unsent.delete(id);
      this.unsent.set(id, row);
    }
    for (const id of this.unsent.keys()) {
      if (this.unsent.size <= MAX_UNSENT) break;
      this.unsent.delete(id);
    }
  }

  /** The shared copy, its rows into `into` a scan step at a time (never all in memory at once). */
  private async loadWhole(into: Into<R>): Promise<IndexMeta | undefined> {
    const client = this.link.client;
    const [epoch, seq, meta] = (await client.hmget(this.keys[0], "epoch", "seq", "meta")) as [string | null, string | null, string | null];
    if (!epoch || !meta) return undefined;
    into.clear();
    let cursor = "0";
    do {
      const [next, pairs] = await client.hscan(this.keys[1], cursor, "COUNT", SCAN_COUNT);
      const rows: R[] = [];
      for (let i = 1; i < pairs.length; i += 2) rows.push(JSON.parse(pairs[i]!) as R);
      into.put(rows);
      cursor = next;
    } while (cursor !== "0");
    this.position = { epoch, seq: Number(seq) };
    return metaOf(meta);
  }

  /** Redis away: nothing stored can be had, and the index works from the upstream alone (a call that asked is told). */
  private async attempt<T>(read: () => Promise<T>): Promise<T | undefined> {
    const call = indexWrites();
    if (!this.link.up) {
      if (call) call.failed ??= away();
      return undefined;
    }
    try {
      return await read();
    } catch (error) {
      if (call) call.failed ??= error;
      this.link.failed(error);
      return undefined;
    }
  }
}
