import { afterEach, describe, expect, it } from "vitest";
import { drip, flood, type HostileUpstream, hostileUpstream, rssMb } from "../helpers/hostile-upstream.js";
import { type StdioServer, spawnStdio } from "../helpers/stdio-client.js";
import { spawnHttp } from "../helpers/spawn.js";
import { rpc } from "../helpers/raw-http.js";

const KEY = "hostile-test-key-0001";

/** The built server over stdio with its POS API pointed at the hostile upstream. */
async function serverFor(upstream: HostileUpstream, extra: Record<string, string> = {}): Promise<StdioServer> {
  return spawnStdio({ PANCAKE_POS_BASE_URL: `${upstream.url}/pos`, PANCAKE_POS_API_KEY: KEY, PANCAKE_LOG_LEVEL: "error", ...extra });
}

const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

async function setup(handler: Parameters<typeof hostileUpstream>[0], extra?: Record<string, string>) {
  const upstream = await hostileUpstream(handler);
  opened.push(upstream);
  const server = await serverFor(upstream, extra);
  opened.push(server);
  return { upstream, server };
}

describe("upstream bodies without bounds", () => {
  it("abandons a 100 MB answer at the cap, once, without growing memory", async () => {
    const { upstream, server } = await setup((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      flood(res, 100 * 1024 * 1024);
    });
    const pid = server.transport.pid!;
    await server.call("list_shops"); // warm up: code loaded, pools made
    const before = await rssMb(pid);
    upstream.requests.length = 0;
    const r = await server.call("list_shops");
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/larger than 8000000 bytes/);
    expect(upstream.requests).toHaveLength(1);
    expect((await rssMb(pid)) - before).toBeLessThan(60);
  });

  it("abandons an endless answer, and a declared one over the configured cap without reading it", async () => {
    const { upstream, server } = await setup(
      (req, res) => {
        if (req.url?.includes("/shops/")) {
          res.writeHead(200, { "content-type": "application/json", "content-length": String(50_000_000) });
          return void res.write("{");
        }
        res.writeHead(200, { "content-type": "application/json" });
        flood(res);
      },
      { PANCAKE_MAX_RESPONSE_BYTES: "200000", PANCAKE_TOOLSETS: "all" },
    );
    const r = await server.call("list_shops");
    expect(r.text).toMatch(/larger than 200000 bytes/);
    expect(upstream.requests).toHaveLength(1);
    const declared = await server.call("list_warehouses", { shop_id: "1" });
    expect(declared.text).toMatch(/larger than 200000 bytes/);
    expect(upstream.requests).toHaveLength(2);
  });
});

describe("body timeouts and shutdown", () => {
  const trickle = (_req: unknown, res: import("node:http").ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json" });
    drip(res, " ", 200);
  };

  it("the response timeout covers the whole body: a trickling answer fails in time", async () => {
    const { upstream, server } = await setup(trickle, { PANCAKE_TIMEOUT_MS: "1000" });
    const started = Date.now();
    const r = await server.call("list_shops");
    const took = Date.now() - started;
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/no answer in time/);
    // Three tries of 1 s each and their back-off, not as long as the upstream cares to trickle.
    expect(took).toBeLessThan(6_000);
    expect(upstream.requests.length).toBeLessThanOrEqual(3);
  });

  it("SIGTERM during a trickling read ends the stdio server at once", async () => {
    const { upstream, server } = await setup(trickle);
    const pending = server.call("list_shops").catch(() => undefined);
    while (upstream.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    const child = server.transport.pid!;
    const started = Date.now();
    process.kill(child, "SIGTERM");
    await waitForExit(child, 5_000);
    expect(Date.now() - started).toBeLessThan(3_000);
    await pending;
  });

  it("SIGTERM during a trickling read ends the HTTP server within its drain cap", async () => {
    const upstream = await hostileUpstream(trickle);
    opened.push(upstream);
    const http = await spawnHttp(["--log-level", "error"], { PANCAKE_POS_BASE_URL: `${upstream.url}/pos`, PANCAKE_POS_API_KEY: KEY });
    const url = new URL(http.url);
    void fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", host: url.host },
      body: rpc(1, "tools/call", { name: "list_shops", arguments: {} }),
    }).catch(() => undefined);
    while (upstream.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    const code = await http.stop();
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(code).toBe(0);
  }, 20_000);
});

async function waitForExit(pid: number, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > until) throw new Error(`process ${pid} still running after ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
