import { afterEach, describe, expect, it, vi } from "vitest";
import { clock, RateLimiter } from "../../src/clients/limiter.js";

// The in-process limiter's queue when calls are cancelled, its clock, and when it counts a request.

afterEach(() => {
  vi.restoreAllMocks();
});

/** Milliseconds until `limiter` grants `key` a place (its slot arrives at once), or "still waiting" after `giveUpMs`. */
async function grantedIn(limiter: RateLimiter, key: string, giveUpMs: number): Promise<number | "still waiting"> {
  const started = performance.now();
  return Promise.race([
    limiter.acquire(key).then((slot) => {
      slot.arrived();
      return performance.now() - started;
    }),
    new Promise<"still waiting">((resolve) => setTimeout(() => resolve("still waiting"), giveUpMs)),
  ]);
}

describe("RateLimiter", () => {
  it("refuses a wait whose call is already cancelled without taking another waiter's place", async () => {
    const limiter = new RateLimiter(1, 100);
    const first = await limiter.acquire("p1");
    const waiting = limiter.acquire("p1");
    const gone = new AbortController();
    gone.abort();
    await expect(limiter.acquire("p1", gone.signal)).rejects.toThrow("cancelled by the client");
    first.arrived();
    // The waiter queued before the cancelled call is still served once the window has passed.
    const served = await Promise.race([waiting.then(() => "served"), new Promise((r) => setTimeout(() => r("still waiting"), 1000))]);
    expect(served).toBe("served");
  });

  it("ends a queued wait when its call is cancelled, and serves the next one in its place", async () => {
    const limiter = new RateLimiter(1, 100);
    const first = await limiter.acquire("p1");
    const call = new AbortController();
    const cancelled = limiter.acquire("p1", call.signal);
    const next = limiter.acquire("p1");
    call.abort();
    await expect(cancelled).rejects.toThrow("cancelled by the client");
    first.arrived();
    await expect(next).resolves.toBeDefined();
  });

  it("keeps its window when the wall clock steps forward (NTP, a laptop waking): no place is freed early", async () => {
    const limiter = new RateLimiter(2, 500);
    for (let i = 0; i < 2; i++) (await limiter.acquire("p1")).arrived();
    const wall = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => wall() + 60_000);
    expect(await grantedIn(limiter, "p1", 2000)).toBeGreaterThanOrEqual(490);
  });

  it("keeps its window when the wall clock steps back: no place is held for the length of the step", async () => {
    const limiter = new RateLimiter(2, 500);
    for (let i = 0; i < 2; i++) (await limiter.acquire("p1")).arrived();
    const wall = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => wall() - 60_000);
    const waited = await grantedIn(limiter, "p1", 2000);
    expect(waited).not.toBe("still waiting");
    expect(waited).toBeLessThan(1000);
  });

  it("holds a place until the request is known to have arrived, then counts it from when it most likely did", async () => {
    const limiter = new RateLimiter(1, 500);
    const first = await limiter.acquire("p1");
    const next = grantedIn(limiter, "p1", 3000);
    await new Promise((r) => setTimeout(r, 300));
    // The answer began now; the request most likely arrived 200 ms ago: the next goes 300 ms on, not 500.
    first.arrived(clock(), clock() - 200);
    const waited = await next;
    expect(waited).toBeGreaterThanOrEqual(590);
    expect(waited).toBeLessThan(750);
  });

  it("after a 429 counts the key's requests from when they are known to have arrived", async () => {
    const limiter = new RateLimiter(1, 500);
    const refused = await limiter.acquire("p1");
    refused.refused();
    refused.arrived();
    expect(limiter.cautious("p1")).toBe(true);
    expect(limiter.cautious("p2")).toBe(false);
    const slot = await limiter.acquire("p1");
    slot.arrived(clock(), clock() - 200);
    expect(await grantedIn(limiter, "p1", 3000)).toBeGreaterThanOrEqual(490);
  });
});
