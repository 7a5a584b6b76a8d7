import { Agent, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { HttpCore } from "../../src/clients/http.js";
import { RateLimiter } from "../../src/clients/limiter.js";
import { LIMIT_WINDOW_MS } from "../../src/state/memory.js";
import { busiestWindow, type CountingUpstream, countingUpstream, type Listening, slowConnectProxy } from "../helpers/arrivals.js";

// What bunches a page's requests where the platform counts them (at most 5 arrivals per page in
// any second), each against an upstream on loopback that counts arrivals and refuses the sixth
// with a 429, as the platform does: the pacing must never provoke one.
const LIMIT = 5;

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).reverse().map((c) => c.close()));
});

function track<T extends { close(): Promise<void> }>(thing: T): T {
  closing.push(thing);
  return thing;
}

function core(origin: string, extra: Partial<ConstructorParameters<typeof HttpCore>[0]> = {}): HttpCore {
  return track(new HttpCore({ baseUrl: origin, ratePerSecond: LIMIT, retry: { attempts: 3, baseDelayMs: 50, maxDelayMs: 200 }, ...extra }));
}

const reads = (c: HttpCore, key: string, n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => c.request({ op: "read", path: `/k/${key}/${i}`, rateKey: key })));

/** The shortest span from one arrival to the LIMIT-th after it (at least 1,000 ms when paced right). */
const tightest = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return Math.min(...sorted.slice(LIMIT).map((t, i) => t - sorted[i]!));
};

describe("requests that reach the upstream later than they were sent", () => {
  it("connections that take 150 ms to open past the socket (a distant upstream, a proxy): none refused, at most 5 in any second", async () => {
    const upstream: CountingUpstream = track(await countingUpstream(LIMIT));
    const proxy: Listening = track(await slowConnectProxy(new URL(upstream.origin), 150));
    await reads(core(proxy.origin), "p1", 16);
    expect(upstream.refused).toBe(0);
    expect(upstream.arrivals.get("p1")).toHaveLength(16);
    expect(busiestWindow(upstream.arrivals.get("p1")!)).toBeLessThanOrEqual(LIMIT);
  });

  it("a pool with no free connection writes them late: they count from when they arrived, not from when they were handed to it", async () => {
    const upstream = track(await countingUpstream(LIMIT));
    const pool = track(new Agent({ connections: 1 }));
    const c = core(upstream.origin, { dispatcher: pool });
    // The path is timed first (so reads count from their likely arrival, not from their answers).
    await reads(c, "warm", 2);
    // The one connection is busy for 400 ms with another request; the page's reads queue behind it.
    const slow = c.request({ op: "slow", path: "/slow/400" });
    await reads(c, "p2", 8);
    await slow;
    expect(upstream.refused).toBe(0);
    expect(busiestWindow(upstream.arrivals.get("p2")!)).toBeLessThanOrEqual(LIMIT);
  });

  it("without giving up the pace: a read counts from half a round trip before its answer, not from the answer", async () => {
    const upstream = track(await countingUpstream(LIMIT, 300));
    const c = core(upstream.origin);
    // The path is timed first: a trip of about 300 ms, all of it in the upstream.
    await reads(c, "warm", 1);
    await reads(c, "warm2", 1);
    await reads(c, "p3", 16);
    expect(upstream.refused).toBe(0);
    // The sixth read goes a window after the first one's likely arrival, 150 ms before its
    // answer began (about 1,170 ms after the first arrived), not a window after its answer (1,320).
    const gap = tightest(upstream.arrivals.get("p3")!);
    expect(gap).toBeGreaterThanOrEqual(1000);
    expect(gap).toBeLessThan(1250);
  });
});

describe("several HTTP cores on one page", () => {
  it("a core made per call (credentials in headers) counts the page's reads from their answers after another core's 429", async () => {
    const upstream = track(await countingUpstream(LIMIT, 200));
    const limiter = new RateLimiter(LIMIT, LIMIT_WINDOW_MS);
    // The page's window is full from elsewhere (another client of the account): the next read meets a 429.
    await Promise.all(Array.from({ length: LIMIT }, (_, i) => request(`${upstream.origin}/k/p4/outside${i}`).then((r) => r.body.text())));
    const first = core(upstream.origin, { limiter });
    await first.request({ op: "read", path: "/k/p4/first", rateKey: "p4" });
    expect(upstream.refused).toBe(1);
    const since = Date.now();
    await reads(core(upstream.origin, { limiter }), "p4", 10);
    const after = upstream.arrivals.get("p4")!.filter((t) => t >= since);
    // Each read's answer comes 200 ms after it arrived; counted from their answers, the sixth
    // arrives a window after the first one's answer (1,200 ms), not a window after its send.
    expect(after).toHaveLength(10);
    expect(tightest(after)).toBeGreaterThanOrEqual(1180);
  });
});
