import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clock, RateLimiter } from "../../src/clients/limiter.js";
import { busiestWindow } from "../helpers/arrivals.js";
import { Logger } from "../../src/log.js";
import { RedisLink } from "../../src/state/redis-link.js";
import { LIMITER_SCRIPTS, RedisLimiter } from "../../src/state/redis-limiter.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";

// The shared limiter's scripts against a real Redis, several "replicas" (each its own connection
// and local limiter) in one process. A short window keeps the tests quick; the rule is the same.
const WINDOW = 300;
const LIMIT = 3;

describe("the Redis limiter (Lua scripts, real Redis)", () => {
  let redis: RedisServer;
  const links: RedisLink[] = [];
  const logs: string[] = [];
  let prefix = 0;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(links.splice(0).map((l) => l.close()));
  });
  afterAll(async () => {
    await redis?.stop();
  });

  async function replica(options: { leaseMs?: number; ns?: string } = {}) {
    const logger = new Logger("debug", false);
    logger.addSink((level, line) => logs.push(`${level}: ${line}`));
    const link = await RedisLink.open(redis.url, logger, LIMITER_SCRIPTS);
    links.push(link);
    const limiter = new RedisLimiter(new RateLimiter(LIMIT, WINDOW), link, {
      limit: LIMIT,
      windowMs: WINDOW,
      leaseMs: options.leaseMs ?? 5000,
      prefix: options.ns ?? `test${prefix}`,
      cancelled: () => new Error("cancelled by the client"),
    });
    return { link, limiter };
  }

  it("three replicas together grant at most LIMIT per window, counted from arrival, and queue the rest", async () => {
    prefix++;
    const replicas = await Promise.all([replica(), replica(), replica()]);
    const arrivals: number[] = [];
    const started = Date.now();
    await Promise.all(
      replicas.flatMap(({ limiter }) =>
        Array.from({ length: 6 }, async () => {
          const slot = await limiter.acquire("page-1");
          // The answer begins 40 ms after the grant: the place is held until then, and counts from then.
          await new Promise((r) => setTimeout(r, 40));
          arrivals.push(Date.now());
          slot.arrived();
        }),
      ),
    );
    expect(arrivals).toHaveLength(18);
    expect(busiestWindow(arrivals, WINDOW)).toBeLessThanOrEqual(LIMIT);
    // 18 requests, 3 a window: the last group starts after 5 windows, not much later.
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(5 * WINDOW);
    expect(elapsed).toBeLessThan(5 * WINDOW + 1500);
  });

  it("counts a request from when its replica says it most likely arrived, not from when the report reached Redis", async () => {
    prefix++;
    const [a, b] = await Promise.all([replica(), replica()]);
    const slots = await Promise.all(Array.from({ length: LIMIT }, () => a.limiter.acquire("page-6")));
    await new Promise((r) => setTimeout(r, 200));
    // The answers began now; the requests most likely arrived 200 ms ago: the next place is free in about 100 ms, not 300.
    const started = Date.now();
    for (const slot of slots) slot.arrived(clock(), clock() - 200);
    (await b.limiter.acquire("page-6")).arrived();
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(WINDOW - 200 - 20);
    expect(waited).toBeLessThan(WINDOW - 50);
  });

  it("a 429 met by one replica makes every replica count the page's requests from their answers", async () => {
    prefix++;
    const [a, b] = await Promise.all([replica(), replica()]);
    const refused = await a.limiter.acquire("page-7");
    refused.refused();
    refused.arrived();
    // Past the refused one's window: the next places are all counted by replica b.
    await new Promise((r) => setTimeout(r, WINDOW + 50));
    const slots = await Promise.all(Array.from({ length: LIMIT }, () => b.limiter.acquire("page-7")));
    const started = Date.now();
    for (const slot of slots) slot.arrived(clock(), clock() - 200);
    (await b.limiter.acquire("page-7")).arrived();
    // Counted from their answers: the next place is free a whole window after them, not 200 ms sooner.
    expect(Date.now() - started).toBeGreaterThanOrEqual(WINDOW - 20);
  });

  it("serves waiters in the order they asked, across replicas", async () => {
    prefix++;
    const [a, b] = await Promise.all([replica(), replica()]);
    const order: string[] = [];
    const run = async (name: string, limiter: RedisLimiter) => {
      const slot = await limiter.acquire("page-2");
      order.push(name);
      slot.arrived();
    };
    const calls: Promise<void>[] = [];
    for (let i = 0; i < 9; i++) {
      calls.push(run(`${i}`, i % 2 === 0 ? a.limiter : b.limiter));
      // Each asks a little after the one before, so the order of asking is known: far enough
      // apart (40 ms) that a busy machine's late timers do not swap two asks (15 ms did, in CI).
      await new Promise((r) => setTimeout(r, 40));
    }
    await Promise.all(calls);
    expect(order.slice(0, LIMIT).sort()).toEqual(["0", "1", "2"]);
    expect(order).toEqual(order.map((_, i) => `${i}`));
  });

  it("a replica that dies holding places frees them when their lease ends", async () => {
    prefix++;
    const dying = await replica({ leaseMs: 400 });
    for (let i = 0; i < LIMIT; i++) await dying.limiter.acquire("page-3"); // never answered
    const other = await replica({ leaseMs: 400 });
    const started = Date.now();
    const slot = await other.limiter.acquire("page-3");
    slot.arrived();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("a cancelled waiter leaves the queue at once: those behind it do not wait for it", async () => {
    prefix++;
    const { limiter } = await replica();
    const other = await replica();
    const first = await Promise.all(Array.from({ length: LIMIT }, () => limiter.acquire("page-4")));
    for (const slot of first) slot.arrived();
    const abort = new AbortController();
    const cancelled = other.limiter.acquire("page-4", abort.signal);
    await new Promise((r) => setTimeout(r, 20));
    const behind = limiter.acquire("page-4");
    abort.abort();
    await expect(cancelled).rejects.toThrow(/cancelled/);
    const started = Date.now();
    (await behind).arrived();
    // Granted when the first arrivals leave the window, not a stale-ticket timeout (5 s) later.
    expect(Date.now() - started).toBeLessThan(WINDOW + 200);
  });

  it("namespaces do not share places: one tenant's page does not slow another's", async () => {
    prefix++;
    const a = await replica({ ns: `tenant-a-${prefix}` });
    const b = await replica({ ns: `tenant-b-${prefix}` });
    for (let i = 0; i < LIMIT; i++) (await a.limiter.acquire("same-page")).arrived();
    const started = Date.now();
    await Promise.all(Array.from({ length: LIMIT }, async () => (await b.limiter.acquire("same-page")).arrived()));
    expect(Date.now() - started).toBeLessThan(100);
  });

  it("with Redis gone, each replica holds the limit alone (never unlimited), warns once, and shares again when Redis is back", async () => {
    prefix++;
    const { link, limiter } = await replica();
    logs.length = 0;
    await redis.stop();
    await new Promise((r) => setTimeout(r, 100));
    expect(link.status).toBe("down");
    const grants: number[] = [];
    await Promise.all(
      Array.from({ length: 2 * LIMIT }, async () => {
        const slot = await limiter.acquire("page-5");
        grants.push(Date.now());
        slot.arrived();
      }),
    );
    expect(busiestWindow(grants, WINDOW)).toBeLessThanOrEqual(LIMIT);
    expect(logs.filter((l) => l.startsWith("warning: Redis unavailable"))).toHaveLength(1);
    await redis.start();
    for (let i = 0; i < 100 && link.status !== "up"; i++) await new Promise((r) => setTimeout(r, 50));
    expect(link.status).toBe("up");
    expect(logs.some((l) => l.includes("Redis is back"))).toBe(true);
  }, 20_000);
});
