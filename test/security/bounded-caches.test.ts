import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClients } from "../../src/clients/index.js";
import { makeConfig } from "../../src/config.js";
import { Logger } from "../../src/log.js";
import type { TtlCache } from "../../src/state/ttl-cache.js";
import { type GeoIndex, geoIndex } from "../../src/tools/shop/geo-index.js";
import { type HostileUpstream, hostileUpstream, rssMb } from "../helpers/hostile-upstream.js";
import { type StdioServer, spawnStdio } from "../helpers/stdio-client.js";

const PROVINCES = 400;
const filler = "x".repeat(500);

// A POS upstream with 400 provinces whose place lists weigh 400 KB each: every lookup_address for
// another province would keep 400 KB for a day if the geo cache had no bound. The old provinces'
// district lists and the post-2025 provinces' ward lists (one per new province id a caller names)
// share the cache and its caps.
const cases = [
  {
    lists: "district",
    onNewList: false,
    id: (i: number) => `P${i}`,
    place: (province: string, j: number) => ({ id: `${province}-${j}`, name: `Quan ${j} ${filler}`, province_id: province }),
    read: (geo: GeoIndex, id: string) => geo.districts(id),
  },
  {
    lists: "ward",
    onNewList: true,
    id: (i: number) => `84_VN${i}`,
    place: (province: string, j: number) => ({ id: `${province}${j}`, name: `Phuong ${j} ${filler}`, province_id: province, district_id: null }),
    read: (geo: GeoIndex, id: string) => geo.wards(id),
  },
];

describe.each(cases)("the address cache keeps $lists lists within its caps", ({ lists, onNewList, id, place, read }) => {
  let upstream: HostileUpstream;
  let server: StdioServer;
  let listsRead = 0;

  beforeAll(async () => {
    const provinces = JSON.stringify({ success: true, data: Array.from({ length: PROVINCES }, (_, i) => ({ id: id(i), name: `Tinh ${i}`, ...(onNewList ? { is_new: true } : {}) })) });
    upstream = await hostileUpstream((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      res.writeHead(200, { "content-type": "application/json" });
      if (url.pathname.endsWith("/geo/provinces")) return void res.end((url.searchParams.get("is_new") === "true") === onNewList ? provinces : '{"success":true,"data":[]}');
      listsRead++;
      const province = url.searchParams.get("province_id") ?? "";
      res.end(JSON.stringify({ success: true, data: Array.from({ length: 700 }, (_, j) => place(province, j)) }));
    });
    server = await spawnStdio({ PANCAKE_POS_BASE_URL: `${upstream.url}/pos`, PANCAKE_POS_API_KEY: `cache-test-${lists}-0001`, PANCAKE_LOG_LEVEL: "error" });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it(`${PROVINCES} ${lists} lists of 400 KB each do not stay in memory`, async () => {
    const pid = server.transport.pid!;
    const first = await server.call("lookup_address", { province_id: id(0), limit: 1 });
    expect(first.isError, first.text).toBe(false);
    expect(first.data.province_list).toBe(onNewList ? "new" : "old");
    const before = await rssMb(pid);
    for (let i = 1; i < PROVINCES; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, k) => server.call("lookup_address", { province_id: id(i + k), limit: 1 })));
    }
    // Unbounded, the lists alone are 160 MB of JSON (several times that as objects).
    expect((await rssMb(pid)) - before).toBeLessThan(100);
    // The most recent provinces are still cached: asking again sends nothing.
    const sent = upstream.requests.length;
    await server.call("lookup_address", { province_id: id(PROVINCES - 1), limit: 1 });
    expect(upstream.requests.length).toBe(sent);
  }, 60_000);

  it("holds no more bytes of them than the cache's cap, however many were read", async () => {
    const clients = createClients(makeConfig({ posBaseUrl: `${upstream.url}/pos`, posApiKeys: { "*": `cache-test-${lists}-0002` } }), new Logger("error", false));
    const geo = geoIndex(clients.pos);
    const before = listsRead;
    let loaded = 0;
    for (let i = 0; i < 40; i += 10) {
      const read10 = await Promise.all(Array.from({ length: 10 }, (_, k) => read(geo, id(i + k))));
      loaded += read10.reduce((sum, list) => sum + JSON.stringify(list).length, 0);
    }
    expect(listsRead - before).toBe(40);
    const held = (clients.pos.state.cache("geo", { ttlMs: 1 }) as TtlCache).size;
    // 40 lists are well over the cap (8 MB; the default of a cache without one is 16 MB): the
    // cap, not the load, is what bounds the cache.
    expect(loaded).toBeGreaterThan(1.5 * 8_000_000);
    expect(held.bytes).toBeLessThanOrEqual(8_000_000);
    expect(held.entries).toBeLessThan(40);
    // The last list read is still held: asking again sends nothing.
    await read(geo, id(39));
    expect(listsRead - before).toBe(40);
    await clients.close();
  });
});
