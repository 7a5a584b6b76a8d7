import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busiestWindow, type SlowConnectInfo, servedOf } from "../helpers/arrivals.js";
import { callOverHttp } from "../helpers/http-mcp.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";
import { startUpstreamProcess, type UpstreamProcess } from "../helpers/upstream-process.js";

const REPLICAS = 3;
const CALLS = 60;
const LIMIT = 5;

// Three built servers sharing one Redis, 60 concurrent calls for one page spread over them, through
// an upstream that takes 150 ms to open a connection and counts arrivals in a process of its own.
// In-process limits alone would put up to 15 requests into one second here (5 per replica). Each
// replica's first requests go on connections still opening and arrive late; counted from their
// send, they bunched with the next ones and met 429s. Counted in Redis from when each most likely
// arrived (its answer less half the fastest round trip), none is refused.
describe("the page rate limit across replicas sharing Redis, counted at the upstream", () => {
  let upstream: UpstreamProcess<SlowConnectInfo>;
  let redis: RedisServer;
  const replicas: HttpServerProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startUpstreamProcess<SlowConnectInfo>("slow-connect");
    for (let i = 0; i < REPLICAS; i++) {
      replicas.push(
        await spawnHttp([], {
          PANCAKE_BASE_URL: upstream.info.urls.messagingBaseUrl,
          PANCAKE_ACCESS_TOKEN: upstream.info.credentials.userToken,
          PANCAKE_REDIS_URL: redis.url,
          PANCAKE_LOG_LEVEL: "warning",
        }),
      );
    }
  }, 60_000);
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await upstream?.close();
    await redis?.stop();
  });

  it(`${CALLS} concurrent calls on ${REPLICAS} replicas: at most ${LIMIT} arrive in any second, none refused, in about calls / ${LIMIT} seconds`, async () => {
    const pageId = upstream.info.pages[0]!;
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => callOverHttp(replicas[i % REPLICAS]!.url, "list_conversations", { page_ids: [pageId], limit: 5 })),
    );
    const elapsed = (Date.now() - started) / 1000;
    expect(results.filter((r) => r.isError).map((r) => r.text)).toEqual([]);
    const arrivals = await upstream.ask<{ path: string; at: number }[]>("arrivals");
    const forPage = arrivals.filter((a) => a.path.includes(`/pages/${pageId}/`)).map((a) => a.at);
    // CALLS conversation reads and the page's tag list (once per replica at most, shared through
    // Redis), each sent once: none refused, none tried again.
    expect(forPage.length).toBeGreaterThanOrEqual(CALLS + 1);
    expect(forPage.length).toBeLessThanOrEqual(CALLS + REPLICAS);
    expect(servedOf(forPage, LIMIT)).toHaveLength(forPage.length);
    expect(busiestWindow(forPage)).toBeLessThanOrEqual(LIMIT);
    // Close to the ideal: the first 5 at once, then 5 a second (a 1.02 s window, a 150 ms connect).
    const ideal = (forPage.length - LIMIT) / LIMIT;
    expect(elapsed).toBeGreaterThanOrEqual(ideal);
    expect(elapsed).toBeLessThan(ideal * 1.3 + 2);
    for (const replica of replicas) expect(replica.stderr()).not.toMatch(/Redis unavailable/);
  }, 60_000);
});
