import type { Slot } from "../clients/limiter.js";
import type { KeptRegistry } from "../shop-index/kept.js";
import type { IndexStore } from "../shop-index/store.js";

/**
 * What a tenant's requests keep between calls: caches of reference data (page lists and page
 * tokens, tags, staff, shops, geo) and the per-page (per-shop) rate limiter. A scope belongs to one
 * tenant and names its keys with the tenant's namespace, so nothing cached or counted for one
 * tenant is seen by another. In one process the state lives in memory (./memory.ts); with
 * PANCAKE_REDIS_URL it is shared by every replica through Redis (./redis.ts), memory serving as
 * its near copy and as the fallback while Redis is away.
 */
export interface StateScope {
  /** The tenant's namespace: a label and a hash of its credentials, never a credential. */
  readonly namespace: string;
  /** The cache of this name (one per name and scope). */
  cache(name: string, options: CacheOptions): SharedCache;
  /** The limiter of one upstream API (calls per second per key, by arrival). */
  limiter(api: string, perSecond: number): Limiter;
  /** Process-local memory of this scope (facts that are cheap to rebuild and need no sharing). */
  local<T extends object>(name: string, make: () => T): T;
  /**
   * Uses up a one-time token (a confirmation's nonce): true the first time `key` is used under
   * `name`, false for as long as `ttlMs` after, in every replica that shares the state. Rejects
   * when that cannot be known (shared state configured and unreachable).
   */
  useOnce(name: string, key: string, ttlMs: number): Promise<boolean>;
  /**
   * Where the shop index `key` keeps its rows when the state is shared by replicas (Redis);
   * undefined where each process keeps its own (on disk or in memory, as configured).
   */
  indexStore?<R>(key: string, identify: (row: R) => { id: string; version: number }): IndexStore<R>;
  /** Shared state only: which pages and shops the tenant's index keeps there (a server's start brings them up to date). */
  kept?(): KeptRegistry;
}

export interface CacheOptions {
  ttlMs: number;
  /** Most keys kept; the least recently used go first. */
  maxEntries?: number;
  /** Most bytes of values kept (their JSON length). */
  maxBytes?: number;
  /** Values hold secrets (page tokens): encrypted wherever they leave the process. */
  secret?: boolean;
}

/** Promises of values by key, loaded once per TTL; concurrent callers share one load. */
export interface SharedCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Stores a value just read elsewhere (the page list a tool read anyway). */
  set(key: string, value: unknown): void;
  /** Forgets a key everywhere (a page token the upstream refused). */
  delete(key: string): void;
}

export interface Limiter {
  /** Resolves with a slot when the caller may send; rejects if `signal` aborts first. */
  acquire(key: string, signal?: AbortSignal): Promise<Slot>;
}
