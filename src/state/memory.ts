import { RateLimiter } from "../clients/limiter.js";
import { TtlCache } from "./ttl-cache.js";
import type { CacheOptions, Limiter, StateScope } from "./scope.js";

/**
 * A read's slot counts from when it most likely arrived (its answer less half the fastest round
 * trip: src/clients/round-trip.ts), a write's from when its answer began; the margin covers timer
 * granularity and a way there a little quicker than that estimate (a read that still meets a 429
 * is tried again; a write cannot).
 */
export const LIMIT_WINDOW_MS = 1020;

/** Most one-time tokens this process remembers as used (each for its TTL). */
const MAX_USED = 100_000;

/**
 * The one-time tokens used in this process, by scope and name, with when each may be forgotten.
 * Kept apart from the scopes: a scope dropped to make room for other tenants' (src/tenants) must
 * not forget which confirmations it has already acted on.
 */
const used = new Map<string, number>();

/** A tenant's state in this process's memory: the default, and Redis's near copy and fallback. */
export class MemoryScope implements StateScope {
  private readonly caches = new Map<string, TtlCache>();
  private readonly limiters = new Map<string, RateLimiter>();
  private readonly locals = new Map<string, object>();

  constructor(readonly namespace = "local") {}

  cache(name: string, options: CacheOptions): TtlCache {
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new TtlCache(options.ttlMs, options, name);
      this.caches.set(name, cache);
    }
    return cache;
  }

  limiter(api: string, perSecond: number): RateLimiter & Limiter {
    const key = `${api}:${perSecond}`;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new RateLimiter(perSecond, LIMIT_WINDOW_MS);
      this.limiters.set(key, limiter);
    }
    return limiter;
  }

  local<T extends object>(name: string, make: () => T): T {
    let value = this.locals.get(name) as T | undefined;
    if (!value) {
      value = make();
      this.locals.set(name, value);
    }
    return value;
  }

  async useOnce(name: string, key: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const id = `${this.namespace}\u0000${name}\u0000${key}`;
    if ((used.get(id) ?? 0) > now) return false;
    used.delete(id);
    used.set(id, now + ttlMs);
    // Oldest first: the expired ones, then (past the cap, which only a flood of accepted writes
    // within one TTL could reach) those closest to expiring.
    for (const [old, until] of used) {
      if (until > now && used.size <= MAX_USED) break;
      used.delete(old);
    }
    return true;
  }
}
