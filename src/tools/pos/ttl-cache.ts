import { awaitShared, callSignal, original } from "../../clients/call-signal.js";

export interface CacheLimits {
  /** Most keys kept; the least recently used go first. */
  maxEntries?: number;
  /** Most bytes of loaded values kept (their JSON length, counted once each value arrives). */
  maxBytes?: number;
}

interface Entry {
  at: number;
  value: Promise<unknown>;
  bytes: number;
}

/**
 * Promises of reference data kept for a while, one per key. A failed load is forgotten at once so
 * the next call tries again; concurrent callers share one request. Keys can come from callers (a
 * district id, a page id), so the cache is bounded by entries and by bytes, least recently used
 * out first: no sequence of calls grows it past its limits.
 */
export class TtlCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  constructor(
    private readonly ttlMs: number,
    limits: CacheLimits = {},
  ) {
    this.maxEntries = limits.maxEntries ?? 500;
    this.maxBytes = limits.maxBytes ?? 16_000_000;
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) {
      // Map order is use order: the hit moves to the back.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as Promise<T>;
    }
    if (hit) this.drop(key, hit);
    const value = load();
    const entry: Entry = { at: Date.now(), value, bytes: key.length };
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    value.then(
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
    return value;
  }

  /** Keys and bytes held now (for tests and diagnostics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
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

/** A cache as one call sees it: loads run on the shared client, the wait ends with the call's cancellation. */
export interface ClientCache<K> {
  get<T>(key: string, load: (shared: K) => Promise<T>): Promise<T>;
  readonly size: { entries: number; bytes: number };
}

/**
 * One cache per client object (the shared one behind a per-call view), so tests with fresh clients
 * never share data. A load is shared by every call that asks while it runs, so it runs on the
 * shared client: a caller that cancels stops waiting without failing the others (call-signal.ts).
 */
export function cachePer<K extends object>(ttlMs: number, limits?: CacheLimits): (view: K) => ClientCache<K> {
  const caches = new WeakMap<K, TtlCache>();
  return (view) => {
    const owner = original(view);
    const cache = caches.get(owner) ?? new TtlCache(ttlMs, limits);
    caches.set(owner, cache);
    return {
      get: (key, load) => awaitShared(cache.get(key, () => load(owner)), callSignal(view)),
      get size() {
        return cache.size;
      },
    };
  };
}
