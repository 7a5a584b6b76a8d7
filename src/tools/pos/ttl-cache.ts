/**
 * Promises of reference data kept for a while, one per key. A failed load is forgotten at once so
 * the next call tries again; concurrent callers share one request.
 */
export class TtlCache {
  private readonly entries = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(private readonly ttlMs: number) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { at: Date.now(), value });
    value.catch(() => this.entries.delete(key));
    return value;
  }
}

/** One cache per client object, so tests with fresh clients never share data. */
export function cachePer<K extends object>(ttlMs: number): (owner: K) => TtlCache {
  const caches = new WeakMap<K, TtlCache>();
  return (owner) => {
    const cache = caches.get(owner) ?? new TtlCache(ttlMs);
    caches.set(owner, cache);
    return cache;
  };
}
