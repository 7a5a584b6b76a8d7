import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Logger } from "../../src/log.js";
import { openRedis } from "../../src/state/open.js";
import type { RedisState } from "../../src/state/redis.js";
import { sealKey } from "../../src/state/seal.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";

describe("caches shared through Redis (real Redis)", () => {
  let redis: RedisServer;
  const states: RedisState[] = [];
  const open = async () => {
    const state = await openRedis(redis.url, new Logger("error", false), 5000);
    states.push(state);
    return state;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(states.map((s) => s.close()));
    await redis?.stop();
  });

  it("a value one replica read is served to another from Redis, expiring when it does there", async () => {
    const [a, b] = [await open(), await open()];
    const key = sealKey(["token-a"]);
    let loads = 0;
    const load = async () => {
      loads++;
      return { tags: ["Đã chốt", "VIP"] };
    };
    const options = { ttlMs: 800 };
    expect(await a.scope("ns1", key).cache("tags", options).get("page-1", load)).toEqual({ tags: ["Đã chốt", "VIP"] });
    await new Promise((r) => setTimeout(r, 20));
    expect(await b.scope("ns1", key).cache("tags", options).get("page-1", load)).toEqual({ tags: ["Đã chốt", "VIP"] });
    expect(loads).toBe(1);
    const ttl = await a.link.client.pttl("pmcp:{ns1}:c:tags:page-1");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(800);
    // B holds its copy only for what was left of the TTL: after it, both read afresh.
    await new Promise((r) => setTimeout(r, 850));
    await b.scope("ns1", key).cache("tags", options).get("page-1", load);
    expect(loads).toBe(2);
  });

  it("tenants never see each other's entries, even under the same cache name and key", async () => {
    const state = await open();
    const cache = (ns: string) => state.scope(ns, sealKey([ns])).cache("pages", { ttlMs: 60_000 });
    await cache("tenant-a").get("directory", async () => ({ pages: ["A"] }));
    expect(await cache("tenant-b").get("directory", async () => ({ pages: ["B"] }))).toEqual({ pages: ["B"] });
    const other = await open();
    expect(await other.scope("tenant-a", sealKey(["tenant-a"])).cache("pages", { ttlMs: 60_000 }).get("directory", async () => ({ pages: ["X"] }))).toEqual({ pages: ["A"] });
  });

  it("values holding secrets are sealed in Redis, and another key cannot open them", async () => {
    const state = await open();
    const token = "pat-sealed-secret-0123456789";
    const cache = state.scope("sealed", sealKey(["user-token-1"])).cache("pages", { ttlMs: 60_000, secret: true });
    await cache.get("directory", async () => ({ tokens: { "page-one-plain-key": token } }));
    await new Promise((r) => setTimeout(r, 20));
    const keys = await state.link.client.keys("pmcp:{sealed}:*");
    const stored = (await Promise.all(keys.filter((k) => !k.endsWith("#index")).map((k) => state.link.client.get(k)))).join("");
    expect(stored).not.toContain(token);
    expect(stored).not.toContain("page-one-plain-key");
    // Same namespace, another seal key (credentials that hash alike cannot exist; a forged entry would): read afresh.
    const intruder = await open();
    const loaded = await intruder.scope("sealed", sealKey(["someone-else"])).cache("pages", { ttlMs: 60_000, secret: true }).get("directory", async () => ({ tokens: {} }));
    expect(loaded).toEqual({ tokens: {} });
  });

  it("each tenant's entries are capped: the oldest go past the cap, long keys are hashed", async () => {
    const state = await open();
    const cache = state.scope("capped", sealKey(["c"])).cache("geo", { ttlMs: 60_000 });
    for (let i = 0; i < 5010; i += 10) await Promise.all(Array.from({ length: 10 }, (_, k) => cache.get(`d:${i + k}`, async () => i + k)));
    await cache.get(`d:${"9".repeat(5000)}`, async () => "long");
    await new Promise((r) => setTimeout(r, 100));
    const keys = await state.link.client.keys("pmcp:{capped}:c:*");
    expect(keys.length).toBeLessThanOrEqual(5000);
    expect(keys.every((k) => k.length < 120)).toBe(true);
    expect(await state.link.client.zcard("pmcp:{capped}:c#index")).toBeLessThanOrEqual(5000);
  }, 30_000);

  it("with Redis gone, a cache reads the upstream and keeps its copy in memory", async () => {
    const state = await open();
    const cache = state.scope("outage", sealKey(["o"])).cache("shops", { ttlMs: 60_000 });
    await redis.stop();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("shops", load)).toBe(1);
    expect(await cache.get("shops", load)).toBe(1);
    expect(state.link.status).toBe("down");
    await redis.start();
  }, 20_000);
});
