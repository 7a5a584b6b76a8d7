import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
