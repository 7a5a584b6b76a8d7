import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE, modernHeaders, modernRpc, raw, rpcMessage } from "../helpers/raw-http.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

const TOKEN = "e2e-bearer-token-0123456789";
const INIT = JSON.parse(INITIALIZE);

// The HTTP front door itself, for requests of both protocol generations: a 2025-era initialize and
// a 2026-07-28 request (no initialize; `_meta` and the SEP-2243 headers on every request). What
// clients do over HTTP is in eras.test.ts.
const BODIES = {
  "a 2025-era initialize": { body: INITIALIZE, headers: {} as Record<string, string> },
  "a 2026-07-28 request": { body: modernRpc(1, "tools/list"), headers: modernHeaders("tools/list") },
};

describe("Streamable HTTP: the built bin with --demo --http", () => {
  let server: HttpServerProcess;

  beforeAll(async () => {
    server = await spawnHttp(["--demo"], { PANCAKE_MCP_TOKEN: TOKEN });
  });

  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  it("prints ready-to-paste client config", async () => {
    // The banner follows the "ready on" line the spawn waits for.
    for (const client of ["Claude Desktop", "Claude Code", "Cursor", "VS Code", "MCP Inspector"]) await expect.poll(() => server.stderr()).toContain(client);
  });

  it.each(Object.entries(BODIES))("refuses %s without or with a wrong bearer token", async (_kind, { body, headers }) => {
    expect((await raw(server.url, { body, headers })).status).toBe(401);
    expect((await raw(server.url, { body, headers: { ...headers, authorization: "Bearer wrong-token-0123456789xx" } })).status).toBe(401);
    const ok = await raw(server.url, { body, headers: { ...headers, authorization: `Bearer ${TOKEN}` } });
    expect(ok.status, ok.body).toBe(200);
    expect(rpcMessage(ok.body).result).toBeDefined();
  });

  it.each(Object.entries(BODIES))("refuses %s from a foreign Host or Origin (DNS rebinding)", async (_kind, { body, headers }) => {
    const auth = { ...headers, authorization: `Bearer ${TOKEN}` };
    const host = await raw(server.url, { body, headers: { ...auth, host: "evil.example" } });
    expect(host.status).toBeGreaterThanOrEqual(400);
    expect(host.status).toBeLessThan(500);
    const origin = await raw(server.url, { body, headers: { ...auth, origin: "https://evil.example" } });
    expect(origin.status).toBe(403);
  });

  it.each(Object.entries(BODIES))("limits the size of %s", async (_kind, { body, headers }) => {
    const big = JSON.stringify({ ...JSON.parse(body), pad: "x".repeat(2_000_000) });
    const res = await raw(server.url, { body: big, headers: { ...headers, authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(413);
  });

  it("serves /healthz", async () => {
    const health = await raw(server.url, { method: "GET", path: "/healthz" });
    expect(health.status).toBe(200);
  });

  it("answers a 2026-07-28 client with lists it may keep: the tools an hour for itself alone, the prompts an hour for anyone", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const list = async (method: string) => rpcMessage((await raw(server.url, { body: modernRpc(1, method), headers: { ...auth, ...modernHeaders(method) } })).body).result;
    // HTTP has no enable_toolset (a fresh server per request), so its tool list changes only with the configuration.
    expect(await list("tools/list")).toMatchObject({ ttlMs: 3_600_000, cacheScope: "private" });
    expect(await list("prompts/list")).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
    expect(await list("resources/templates/list")).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
    expect(await list("resources/list")).toMatchObject({ ttlMs: 300_000, cacheScope: "private" });
    // A 2025-era client's lists carry no such fields.
    const init = await raw(server.url, { body: JSON.stringify({ ...INIT, id: 2, method: "tools/list", params: {} }), headers: auth });
    expect(rpcMessage(init.body).result.ttlMs).toBeUndefined();
  });
});

describe("Streamable HTTP: a 2026-07-28 client's change stream", () => {
  it("is acknowledged, stays open, and ends with its closing result when the server shuts down", async () => {
    const server = await spawnHttp(["--demo"]);
    const url = new URL(server.url);
    const body = modernRpc(7, "subscriptions/listen", { notifications: { toolsListChanged: true } });
    let received = "";
    const ended = new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...modernHeaders("subscriptions/listen") } },
        (res) => {
          res.on("data", (chunk: Buffer) => {
            received += chunk.toString();
          });
          res.on("end", () => resolve(res.statusCode));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    await expect.poll(() => received).toMatch(/notifications\/subscriptions\/acknowledged/);
    const exit = server.stop();
    expect(await ended).toBe(200);
    expect(await exit).toBe(0);
    const close = received.split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6))).find((m) => m.id === 7);
    expect(close.result._meta["io.modelcontextprotocol/subscriptionId"]).toBe(7);
  });
});

describe("Streamable HTTP: binding", () => {
  it("refuses to listen off loopback without PANCAKE_MCP_TOKEN", async () => {
    await expect(spawnHttp(["--demo", "--host", "0.0.0.0"])).rejects.toThrow(/PANCAKE_MCP_TOKEN/);
  });
});
