import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClients } from "../../src/clients/index.js";
import { makeConfig } from "../../src/config.js";
import { Logger } from "../../src/log.js";
import type { TtlCache } from "../../src/tools/pos/ttl-cache.js";
import { geoIndex } from "../../src/tools/shop/geo-index.js";
import { type HostileUpstream, hostileUpstream, rssMb } from "../helpers/hostile-upstream.js";
import { type StdioServer, spawnStdio } from "../helpers/stdio-client.js";

const PROVINCES = 400;
const filler = "x".repeat(500);

// A POS upstream with 400 provinces whose district lists weigh 400 KB each: every
// lookup_address for another province would keep 400 KB for a day if the geo cache had no bound.
describe("caches are bounded by entries and bytes", () => {
  let upstream: HostileUpstream;
  let server: StdioServer;

  beforeAll(async () => {
    const provinces = JSON.stringify({ success: true, data: Array.from({ length: PROVINCES }, (_, i) => ({ id: `P${i}`, name: `Tinh ${i}` })) });
    upstream = await hostileUpstream((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      res.writeHead(200, { "content-type": "application/json" });
      if (url.pathname.endsWith("/geo/provinces")) return void res.end(provinces);
      const province = url.searchParams.get("province_id") ?? "";
      const districts = Array.from({ length: 700 }, (_, j) => ({ id: `${province}-${j}`, name: `Quan ${j} ${filler}`, province_id: province }));
      res.end(JSON.stringify({ success: true, data: districts }));
    });
    server = await spawnStdio({ PANCAKE_POS_BASE_URL: `${upstream.url}/pos`, PANCAKE_POS_API_KEY: "cache-test-key-0001", PANCAKE_LOG_LEVEL: "error" });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it(`${PROVINCES} district lists of 400 KB each do not stay in memory`, async () => {
    const pid = server.transport.pid!;
    const first = await server.call("lookup_address", { province_id: "P0", limit: 1 });
    expect(first.isError, first.text).toBe(false);
    const before = await rssMb(pid);
    for (let i = 1; i < PROVINCES; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, k) => server.call("lookup_address", { province_id: `P${i + k}`, limit: 1 })));
    }
    const grown = (await rssMb(pid)) - before;
    // Unbounded, the lists alone are 160 MB of JSON (several times that as objects).
    expect(grown).toBeLessThan(100);
    // The most recent provinces are still cached: asking again sends nothing.
    const sent = upstream.requests.length;
    await server.call("lookup_address", { province_id: `P${PROVINCES - 1}`, limit: 1 });
    expect(upstream.requests.length).toBe(sent);
  }, 60_000);
});

// The post-2025 ward lists (one per new province id a caller names) share the geo cache and its
// caps: a POS whose provinces' ward lists weigh 400 KB each keeps only what fits.
describe("the address cache keeps post-2025 ward lists within its caps", () => {
  let upstream: HostileUpstream;
  let server: StdioServer;
  let wardLists = 0;

  beforeAll(async () => {
    const provinces = JSON.stringify({ success: true, data: Array.from({ length: PROVINCES }, (_, i) => ({ id: `84_VN${i}`, name: `Tinh ${i}`, is_new: true })) });
    upstream = await hostileUpstream((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      res.writeHead(200, { "content-type": "application/json" });
      if (url.pathname.endsWith("/geo/provinces")) return void res.end(url.searchParams.get("is_new") === "true" ? provinces : '{"success":true,"data":[]}');
      wardLists++;
      const province = url.searchParams.get("province_id") ?? "";
      const wards = Array.from({ length: 700 }, (_, j) => ({ id: `${province}${j}`, name: `Phuong ${j} ${filler}`, province_id: province, district_id: null }));
      res.end(JSON.stringify({ success: true, data: wards }));
    });
    server = await spawnStdio({ PANCAKE_POS_BASE_URL: `${upstream.url}/pos`, PANCAKE_POS_API_KEY: "cache-test-key-0002", PANCAKE_LOG_LEVEL: "error" });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it(`${PROVINCES} ward lists of 400 KB each do not stay in memory`, async () => {
    const pid = server.transport.pid!;
    const first = await server.call("lookup_address", { province_id: "84_VN0", limit: 1 });
    expect(first.isError, first.text).toBe(false);
    expect(first.data.province_list).toBe("new");
    const before = await rssMb(pid);
    for (let i = 1; i < PROVINCES; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, k) => server.call("lookup_address", { province_id: `84_VN${i + k}`, limit: 1 })));
    }
    expect((await rssMb(pid)) - before).toBeLessThan(100);
    const sent = upstream.requests.length;
    await server.call("lookup_address", { province_id: `84_VN${PROVINCES - 1}`, limit: 1 });
    expect(upstream.requests.length).toBe(sent);
  }, 60_000);

  it("holds no more bytes of them than the cache's cap, however many were read", async () => {
    const clients = createClients(makeConfig({ posBaseUrl: `${upstream.url}/pos`, posApiKeys: { "*": "cache-test-key-0003" } }), new Logger("error", false));
    const geo = geoIndex(clients.pos);
    const read = wardLists;
    let loaded = 0;
    for (let i = 0; i < 40; i += 10) {
      const lists = await Promise.all(Array.from({ length: 10 }, (_, k) => geo.wards(`84_VN${i + k}`)));
      loaded += lists.reduce((sum, list) => sum + JSON.stringify(list).length, 0);
    }
    expect(wardLists - read).toBe(40);
    const held = (clients.pos.state.cache("geo", { ttlMs: 1 }) as TtlCache).size;
    // 40 lists are well over the cap (8 MB; the default of a cache without one is 16 MB): the
    // cap, not the load, is what bounds the cache.
    expect(loaded).toBeGreaterThan(1.5 * 8_000_000);
    expect(held.bytes).toBeLessThanOrEqual(8_000_000);
    expect(held.entries).toBeLessThan(40);
    // The last list read is still held: asking again sends nothing.
    await geo.wards("84_VN39");
    expect(wardLists - read).toBe(40);
    await clients.close();
  });
});
