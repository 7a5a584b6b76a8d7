import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Logger } from "../log.js";
import type { TtlCache } from "./ttl-cache.js";
import type { MemoryScope } from "./memory.js";
import { RedisLink } from "./redis-link.js";
import { LIMITER_SCRIPTS, RedisLimiter } from "./redis-limiter.js";
import { INDEX_SCRIPTS, RedisIndexStore } from "./redis-index.js";
import type { KeptRegistry } from "../shop-index/kept.js";
import type { IndexStore } from "../shop-index/store.js";
import type { CacheOptions, Limiter, SharedCache, StateScope } from "./scope.js";

// This module loads only with PANCAKE_REDIS_URL: it imports nothing of the server's own code (what
// it needs from there is handed to it), so the bundle keeps that code in one chunk.

/** Largest value stored in Redis; a larger one stays in the process that read it. */
const MAX_SHARED_VALUE_BYTES = 1_000_000;
/** Most cache keys one tenant keeps in Redis (every key also expires with its TTL). */
const MAX_SHARED_ENTRIES = 5000;
/** Longer than any cache's TTL (geo data: a day): how long a tenant's key index lives unused. */
const INDEX_TTL_MS = 25 * 60 * 60_000;

const CACHE_SCRIPTS = {
  // Stores a value with its TTL and keeps the tenant's index of keys (by expiry) within its cap:
  // past it, the entries closest to expiring go first.
  pmcpStore: {
    keys: 2,
    lua: `
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[2], now + ttl, KEYS[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[3])
if over > 0 then
  local old = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  redis.call('DEL', unpack(old))
  redis.call('ZREM', KEYS[2], unpack(old))
end
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[4]))
return 1
`,
  },
};

/**
 * The state shared by every replica through one Redis (PANCAKE_REDIS_URL): one scope per tenant
 * namespace, each with this process's memory as its near copy and fallback.
 */
export class RedisState {
  private readonly scopes = new Map<string, RedisScope>();

  private constructor(
    readonly link: RedisLink,
    private readonly options: RedisStateOptions,
  ) {}

  static async open(url: string, logger: Logger, options: RedisStateOptions): Promise<RedisState> {
    const link = await RedisLink.open(url, logger, { ...LIMITER_SCRIPTS, ...CACHE_SCRIPTS, ...INDEX_SCRIPTS });
    return new RedisState(link, options);
  }

  /** The scope of a namespace; `sealKey` seals values that hold secrets. */
  scope(namespace: string, sealKey: Buffer): StateScope {
    let scope = this.scopes.get(namespace);
    if (!scope) {
      scope = new RedisScope(namespace, this.link, this.options.memory(namespace), sealKey, this.options);
      this.scopes.set(namespace, scope);
      // Namespaces of gateway-held credentials come and go: keep the most recent ones.
      for (const old of this.scopes.keys()) {
        if (this.scopes.size <= MAX_SCOPES) break;
        this.scopes.delete(old);
      }
    }
    return scope;
  }

  close(): Promise<void> {
    return this.link.close();
  }
}

export interface RedisStateOptions {
  /** Longest a granted request may take to be answered before its place is freed anyway. */
  leaseMs: number;
  /** The rate limit's window (src/state/memory.ts LIMIT_WINDOW_MS). */
  windowMs: number;
  /** A namespace's memory: the near copy and the fallback. */
  memory: (namespace: string) => MemoryScope;
  /** The error a cancelled wait rejects with. */
  cancelled: () => Error;
}

/** Most tenant scopes one process keeps (each with its near copy). */
const MAX_SCOPES = 1000;

class RedisScope implements StateScope {
  private readonly caches = new Map<string, SharedCache>();
  private readonly limiters = new Map<string, Limiter>();

  constructor(
    readonly namespace: string,
    private readonly link: RedisLink,
    private readonly memory: MemoryScope,
    private readonly sealKey: Buffer,
    private readonly options: RedisStateOptions,
  ) {}

  cache(name: string, options: CacheOptions): SharedCache {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new RedisCache(this.link, this.memory.cache(name, options), `pmcp:{${this.namespace}}:c`, name, options, options.secret ? this.sealKey : undefined);
      this.caches.set(name, cache);
    }
    return cache;
  }

  limiter(api: string, perSecond: number): Limiter {
    const key = `${api}:${perSecond}`;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new RedisLimiter(this.memory.limiter(api, perSecond), this.link, {
        limit: perSecond,
        windowMs: this.options.windowMs,
        leaseMs: this.options.leaseMs,
        prefix: `${this.namespace}:${api}`,
        cancelled: this.options.cancelled,
      });
      this.limiters.set(key, limiter);
    }
    return limiter;
  }

  local<T extends object>(name: string, make: () => T): T {
    return this.memory.local(name, make);
  }

  indexStore<R>(key: string, identify: (row: R) => { id: string; version: number }): IndexStore<R> {
    return new RedisIndexStore(this.link, this.namespace, key, identify);
  }

  /** Which pages and shops the tenant's shared index keeps: a set in Redis (empty while Redis is away). */
  kept(): KeptRegistry {
    const key = `pmcp:{${this.namespace}}:kept`;
    const link = this.link;
    return {
      async read() {
        const members = link.up
          ? await link.client.smembers(key).catch((error: unknown) => {
              link.failed(error);
              return [] as string[];
            })
          : [];
        const of = (kind: string) => members.filter((m) => m.startsWith(`${kind}:`)).map((m) => m.slice(kind.length + 1));
        return { conversations: of("conversations"), orders: of("orders") };
      },
      add(kind, id) {
        if (link.up) void link.client.sadd(key, `${kind}:${id}`).catch((error: unknown) => link.failed(error));
      },
    };
  }

  /**
   * Used here first (a replay to this replica is refused without asking Redis), then in Redis,
   * atomically (SET NX), so that every other replica refuses it too. Unlike a cache or a limit,
   * this does not fall back to memory while Redis is away: another replica could not know the
   * token was used, so the use is refused (it rejects) and nothing is acted on.
   */
  async useOnce(name: string, key: string, ttlMs: number): Promise<boolean> {
    if (!(await this.memory.useOnce(name, key, ttlMs))) return false;
    if (!this.link.up) throw new Error("the shared state (Redis) is unavailable");
    try {
      return (await this.link.client.set(`pmcp:{${this.namespace}}:once:${name}:${key}`, "1", "PX", ttlMs, "NX")) === "OK";
    } catch (error) {
      this.link.failed(error);
      throw new Error("the shared state (Redis) is unavailable");
    }
  }
}

/**
 * A cache read through this process's memory, then Redis, then the upstream. A value found in
 * Redis is kept here only for what is left of its TTL, so replicas agree on when it expires.
 */
class RedisCache implements SharedCache {
  private readonly index: string;
  private readonly prefix: string;

  constructor(
    private readonly link: RedisLink,
    private readonly near: TtlCache,
    base: string,
    name: string,
    private readonly options: CacheOptions,
    private readonly sealKey: Buffer | undefined,
  ) {
    this.index = `${base}#index`;
    this.prefix = `${base}:${name}:`;
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.near.get(key, async (expiresIn) => {
      const shared = await this.read(key);
      if (shared) {
        expiresIn(shared.ttl);
        return shared.value as T;
      }
      const value = await load();
      this.store(key, value);
      return value;
    });
  }

  set(key: string, value: unknown): void {
    this.near.set(key, value);
    this.store(key, value);
  }

  delete(key: string): void {
    this.near.delete(key);
    if (this.link.up) this.link.client.del(this.keyOf(key)).catch((error: unknown) => this.link.failed(error));
  }

  /** Callers' ids can be long: such keys are stored under their hash. */
  private keyOf(key: string): string {
    return this.prefix + (key.length > 64 ? createHash("sha256").update(key).digest("base64url") : key);
  }

  private async read(key: string): Promise<{ value: unknown; ttl: number } | undefined> {
    if (!this.link.up) return undefined;
    try {
      const k = this.keyOf(key);
      // A pipeline answers each command's error in its place rather than rejecting.
      const [[readError, raw], [ttlError, ttl]] = (await this.link.client.pipeline().get(k).pttl(k).exec()) as [[Error | null, string | null], [Error | null, number]];
      if (readError || ttlError) throw readError ?? ttlError;
      if (raw === null || ttl <= 0) return undefined;
      const text = this.sealKey ? unseal(this.sealKey, raw) : raw;
      return text === undefined ? undefined : { value: JSON.parse(text), ttl };
    } catch (error) {
      this.link.failed(error);
      return undefined;
    }
  }

  private store(key: string, value: unknown): void {
    if (!this.link.up) return;
    const text = JSON.stringify(value);
    if (text === undefined || text.length > MAX_SHARED_VALUE_BYTES) return;
    const stored = this.sealKey ? seal(this.sealKey, text) : text;
    this.link
      .run("pmcpStore", this.keyOf(key), this.index, stored, this.options.ttlMs, MAX_SHARED_ENTRIES, INDEX_TTL_MS)
      .catch((error: unknown) => this.link.failed(error));
  }
}

/**
 * Values that hold secrets (the page list's page tokens) leave the process only sealed with
 * AES-256-GCM under a key derived from the tenant's own credentials (src/state/seal.ts), which
 * never reach Redis: a copy of Redis reveals no page token, and one tenant's key opens nothing of
 * another's.
 */
function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/** The text, or undefined when the value was sealed under another key or altered. */
function unseal(key: Buffer, sealed: string): string | undefined {
  try {
    const raw = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
