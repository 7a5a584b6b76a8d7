import { randomBytes } from "node:crypto";
import { CAUTIOUS_MS, clock, type RateLimiter, type Slot } from "../clients/limiter.js";
import { pause } from "../clients/on-abort.js";
import type { Limiter } from "./scope.js";
import type { RedisLink } from "./redis-link.js";

/**
 * The limiter shared by every replica: the in-process limiter's rule (a request holds its place
 * from when it is granted until its answer begins, then counts, for `windowMs`, from when it most
 * likely arrived), kept in Redis by atomic scripts so replicas count together. Per key: a sorted
 * set of arrivals (by Redis time), one of granted requests not yet arrived (scored by when their
 * lease ends, so a replica that dies holding places frees them), a queue of tickets (by first
 * ask) so waiters are served in order across replicas, and a mark while a 429 is recent (every
 * replica then counts the key's requests from their answers). Times are Redis's own clock, the
 * same for every replica: a replica reports how long ago its request arrived, measured on its own
 * monotonic clock, and Redis stamps it that long before the report reaches it (a little late,
 * never early).
 */
export const LIMITER_SCRIPTS = {
  pmcpAcquire: {
    keys: 5,
    lua: `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, window, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local ticket, stale, ttl = ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local dead = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now - stale)
for _, id in ipairs(dead) do
  redis.call('ZREM', KEYS[3], id)
  redis.call('ZREM', KEYS[4], id)
end
redis.call('ZADD', KEYS[3], 'NX', now, ticket)
redis.call('ZADD', KEYS[4], now, ticket)
local free = limit - redis.call('ZCARD', KEYS[1]) - redis.call('ZCARD', KEYS[2])
local rank = redis.call('ZRANK', KEYS[3], ticket)
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ttl) end
if rank < free then
  redis.call('ZREM', KEYS[3], ticket)
  redis.call('ZREM', KEYS[4], ticket)
  redis.call('ZADD', KEYS[2], now + lease, ticket)
  return {1, 0, redis.call('EXISTS', KEYS[5])}
end
local wait = 0
if free <= 0 then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if oldest[2] then wait = tonumber(oldest[2]) + window - now end
end
return {0, wait, 0}
`,
  },
  pmcpArrived: {
    keys: 2,
    lua: `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[1], now - math.max(0, tonumber(ARGV[3])), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`,
  },
  pmcpRefused: {
    keys: 1,
    lua: `
redis.call('SET', KEYS[1], '1', 'PX', tonumber(ARGV[1]))
return 1
`,
  },
  pmcpLeave: {
    keys: 2,
    lua: `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
`,
  },
};

/** A waiter that has not asked Redis for this long is taken for dead and leaves the queue. */
const STALE_MS = 5000;
/** How soon to ask again when the wait cannot be known (places held by requests not yet answered). */
const POLL_MS = 10;
/** Longest sleep between asks, so a waiter stays well inside STALE_MS. */
const MAX_SLEEP_MS = 1000;

const processId = randomBytes(6).toString("base64url");
let tickets = 0;

export interface RedisLimiterOptions {
  limit: number;
  windowMs: number;
  /** Longest a granted request may take to be answered before its place is freed anyway. */
  leaseMs: number;
  /** Key prefix of this limiter: the tenant's namespace and the API. */
  prefix: string;
  /** The error a cancelled wait rejects with (the in-process limiter's). */
  cancelled: () => Error;
}

/**
 * Two stages: this process's own limiter first (the same rule, so at most `limit` of its requests
 * per key wait on Redis or are in flight, and it holds the limit alone whenever Redis is away),
 * then the shared one. A request goes on with the local place alone when Redis fails, never
 * unlimited.
 */
export class RedisLimiter implements Limiter {
  constructor(
    private readonly local: RateLimiter,
    private readonly link: RedisLink,
    private readonly options: RedisLimiterOptions,
  ) {}

  async acquire(key: string, signal?: AbortSignal): Promise<Slot> {
    const local = await this.local.acquire(key, signal);
    if (!this.link.up) return local;
    const keys = this.keys(key);
    const ticket = `${processId}.${++tickets}`;
    let cautious: boolean;
    try {
      cautious = await this.wait(keys, ticket, signal);
    } catch (error) {
      if (signal?.aborted) {
        // Cancelled while queued: nothing was sent; leave the queue and count the local place.
        void this.link.run("pmcpLeave", keys[2]!, keys[3]!, ticket).catch(() => {});
        local.arrived();
        throw this.options.cancelled();
      }
      this.link.failed(error);
      return local;
    }
    let done = false;
    return {
      arrived: (latest = clock(), likely) => {
        if (done) return;
        done = true;
        const counted = cautious || this.local.cautious(key) ? latest : Math.min(likely ?? latest, latest);
        local.arrived(latest, cautious ? undefined : likely);
        const ttl = this.options.windowMs + this.options.leaseMs + STALE_MS;
        const ago = Math.round(clock() - counted);
        this.link.run("pmcpArrived", keys[0]!, keys[1]!, ticket, ttl, ago).catch((error: unknown) => this.link.failed(error));
      },
      refused: () => {
        local.refused();
        this.link.run("pmcpRefused", keys[4]!, CAUTIOUS_MS).catch((error: unknown) => this.link.failed(error));
      },
    };
  }

  private keys(key: string): string[] {
    // One hash tag per key: the five live together (one slot of a Redis Cluster).
    const base = `pmcp:{${this.options.prefix}:${key}}:lim`;
    return [`${base}:arrived`, `${base}:granted`, `${base}:queue`, `${base}:seen`, `${base}:refused`];
  }

  /** Waits for a place; resolves with whether a 429 is recent for the key. */
  private async wait(keys: string[], ticket: string, signal?: AbortSignal): Promise<boolean> {
    const { limit, windowMs, leaseMs } = this.options;
    const ttl = windowMs + leaseMs + STALE_MS;
    for (;;) {
      if (signal?.aborted) throw new Error("cancelled");
      const [granted, wait, cautious] = (await this.link.run("pmcpAcquire", ...keys, limit, windowMs, leaseMs, ticket, STALE_MS, ttl)) as [number, number, number];
      if (granted === 1) return cautious === 1;
      await pause(wait > 0 ? Math.min(wait + 1, MAX_SLEEP_MS) : POLL_MS, signal, () => new Error("cancelled"));
    }
  }
}
