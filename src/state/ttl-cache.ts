import { joinedLoad, original } from "../clients/call-signal.js";
import type { CacheOptions, SharedCache, StateScope } from "./scope.js";

export interface CacheLimits {
  /** Most keys kept; the least recently used go first. */
  maxEntries?: number;
  /** Most bytes of loaded values kept (their JSON length, counted once each value arrives). */
  maxBytes?: number;
}

interface Entry {
  expires: number;
  value: Promise<unknown>;
  bytes: number;
}

/** Counts hits and misses by cache name (src/metrics.ts sets it when /metrics is on). */
export const cacheEvents: { observe?: (name: string, result: "hit" | "miss" | "shared") => void } = {};

/**
 * Promises of reference data kept for a while, one per key. A failed load is forgotten at once so
 * the next call tries again; concurrent callers share one request. Keys can come from callers (a
 * district id, a page id), so the cache is bounded by entries and by bytes, least recently used
 * out first: no sequence of calls grows it past its limits.
 */
export class TtlCache implements SharedCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  constructor(
    private readonly ttlMs: number,
    limits: CacheLimits = {},
    private readonly name = "cache",
  ) {
    this.maxEntries = limits.maxEntries ?? 500;
    this.maxBytes = limits.maxBytes ?? 16_000_000;
  }

  /**
   * The value of `key`, loaded when missing or expired. A loader that knows its value is older
   * than now (a copy read from Redis) says how long it has left through `expiresIn`.
   */
  get<T>(key: string, load: (expiresIn: (ms: number) => void) => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && Date.now() < hit.expires) {
      // Map order is use order: the hit moves to the back.
      this.entries.delete(key);
      this.entries.set(key, hit);
      cacheEvents.observe?.(this.name, "hit");
      return hit.value as Promise<T>;
    }
    if (hit) this.drop(key, hit);
    const entry: Entry = { expires: Date.now() + this.ttlMs, value: Promise.resolve(), bytes: key.length };
    let shared = false;
    const value = load((ms) => {
      shared = true;
      entry.expires = Math.min(entry.expires, Date.now() + ms);
    });
    // A copy from Redis says so synchronously after its read; count once the load settles.
    const observe = cacheEvents.observe;
    if (observe) {
      value.then(
        () => observe(this.name, shared ? "shared" : "miss"),
        () => observe(this.name, "miss"),
      );
    }
    entry.value = value;
    this.hold(key, entry);
    return value;
  }

  set(key: string, value: unknown): void {
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.hold(key, { expires: Date.now() + this.ttlMs, value: Promise.resolve(value), bytes: key.length });
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.drop(key, entry);
  }

  /** Keys and bytes held now (for tests and diagnostics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private hold(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    // Without a byte cap (a cache bounded by its few keys) nothing needs a value's size.
    if (this.maxBytes === Number.POSITIVE_INFINITY) {
      entry.value.catch(() => {
        if (this.entries.get(key) === entry) this.drop(key, entry);
      });
      this.evict();
      return;
    }
    entry.value.then(
      (loaded) => {
        if (this.entries.get(key) !== entry) return;
        const size = key.length + (JSON.stringify(loaded)?.length ?? 0);
        this.bytes += size - entry.bytes;
        entry.bytes = size;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.drop(key, entry);
      },
    );
    this.evict();
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
      this.drop(key, entry);
    }
  }
}

/** A cache as one call sees it: a load is shared by the calls that ask while it runs (joinedLoad). */
export interface ClientCache<K> {
  get<T>(key: string, load: (shared: K) => Promise<T>): Promise<T>;
}

/**
 * The cache `name` of the client's scope (the shared client behind a per-call view): one per
 * tenant, in memory or shared through Redis, so tests with fresh clients never share data and
 * tenants never see each other's. A load is shared by every call that asks while it runs: a caller
 * that cancels stops waiting without failing the others, and it ends once nobody waits
 * (call-signal.ts).
 */
export function cachePer<K extends { state: StateScope }>(name: string, options: CacheOptions): (view: K) => ClientCache<K> {
  return (view) => {
    const owner = original(view);
    const cache = owner.state.cache(name, options);
    return { get: (key, load) => joinedLoad(cache, key, view, (start) => cache.get(key, start), load) };
  };
}
