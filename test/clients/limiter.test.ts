import { describe, expect, it } from "vitest";
import { RateLimiter } from "../../src/clients/limiter.js";

// The in-process limiter's queue when calls are cancelled.

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
});
