import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { hostileUpstream } from "../helpers/hostile-upstream.js";
import { callOverHttp } from "../helpers/http-mcp.js";
import { raw } from "../helpers/raw-http.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

const TOKEN = "operators-bearer-token-0123456789";
const auth = { authorization: `Bearer ${TOKEN}` };
const get = async (url: string, path: string) => {
  const res = await raw(url, { method: "GET", path });
  return { status: res.status, body: res.body, json: () => JSON.parse(res.body) };
};

describe("credentials passed in request headers (PANCAKE_MCP_CREDENTIAL_HEADERS=1)", () => {
  const sandbox = new Sandbox();
  let server: HttpServerProcess;
  let closed: HttpServerProcess;
  let headers: Record<string, string>;

  beforeAll(async () => {
    const urls = await sandbox.start();
    const env = { PANCAKE_MCP_TOKEN: TOKEN, PANCAKE_BASE_URL: urls.messagingBaseUrl, PANCAKE_POS_BASE_URL: urls.posBaseUrl, PANCAKE_LOG_LEVEL: "debug" };
    server = await spawnHttp([], { ...env, PANCAKE_MCP_CREDENTIAL_HEADERS: "1" });
    closed = await spawnHttp([], env);
    headers = { ...auth, "x-pancake-access-token": sandbox.credentials.userToken, "x-pancake-pos-api-key": sandbox.credentials.posApiKey };
  });
  afterAll(async () => {
    await server?.stop();
    await closed?.stop();
    await sandbox.close();
  });

  it("serves a request with the credentials it carries, and only those", async () => {
    const pages = await callOverHttp(server.url, "list_pages", {}, headers);
    expect(pages.isError, pages.text).toBe(false);
    expect(pages.data.pages.length).toBeGreaterThan(0);
    const none = await callOverHttp(server.url, "list_pages", {}, auth);
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/PANCAKE_ACCESS_TOKEN/);
  });

  it("keeps what it read (the page list, page tokens) under a hash of them from one request to the next", async () => {
    sandbox.server.resetRecords();
    const page = sandbox.messaging.pages[0]!.id;
    for (let i = 0; i < 3; i++) expect((await callOverHttp(server.url, "list_conversations", { page_ids: [page], limit: 1 }, headers)).isError).toBe(false);
    // The first request of this file already read it: none of these needs to.
    expect(sandbox.server.count("GET", "/api/v1/pages")).toBeLessThanOrEqual(1);
    expect(sandbox.server.requests.filter((r) => r.path.endsWith("/conversations"))).toHaveLength(3);
  });

  it("never writes them to the log", async () => {
    await callOverHttp(server.url, "list_shops", {}, headers);
    for (const secret of [sandbox.credentials.userToken, sandbox.credentials.posApiKey, ...Object.values(sandbox.credentials.pageTokens)]) {
      expect(server.stderr()).not.toContain(secret);
    }
  });

  it("are refused, not ignored, where the operator did not allow them", async () => {
    const r = await callOverHttp(closed.url, "list_pages", {}, headers);
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/PANCAKE_MCP_CREDENTIAL_HEADERS/);
  });
});

describe("what operators watch: /healthz, /readyz and /metrics, with Redis", () => {
  const sandbox = new Sandbox({ ratePerSecond: 1000 });
  let redis: RedisServer;
  let server: HttpServerProcess;

  beforeAll(async () => {
    const urls = await sandbox.start();
    redis = await startRedis();
    server = await spawnHttp([], {
      PANCAKE_MCP_TOKEN: TOKEN,
      PANCAKE_BASE_URL: urls.messagingBaseUrl,
      PANCAKE_POS_BASE_URL: urls.posBaseUrl,
      PANCAKE_ACCESS_TOKEN: sandbox.credentials.userToken,
      PANCAKE_POS_API_KEY: sandbox.credentials.posApiKey,
      PANCAKE_REDIS_URL: redis.url,
      PANCAKE_METRICS: "1",
      PANCAKE_LOG_LEVEL: "warning",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
    await sandbox.close();
  });

  it("/metrics counts tool calls, upstream requests, the limiter queue, cache lookups and tenants", async () => {
    const page = sandbox.messaging.pages[0]!.id;
    await Promise.all(Array.from({ length: 8 }, () => callOverHttp(server.url, "list_conversations", { page_ids: [page], limit: 1 }, auth)));
    await callOverHttp(server.url, "list_page_tags", { page_id: "no such page" }, auth);
    const { status, body } = await get(server.url, "/metrics");
    expect(status).toBe(200);
    expect(body).toMatch(/^pancake_mcp_tool_calls_total\{tool="list_conversations",outcome="ok"\} 8$/m);
    expect(body).toMatch(/^pancake_mcp_tool_calls_total\{tool="list_page_tags",outcome="invalid_input"\} 1$/m);
    expect(body).toMatch(/^pancake_mcp_tool_call_duration_seconds_count\{tool="list_conversations"\} 8$/m);
    expect(body).toMatch(/^pancake_mcp_upstream_requests_total\{api="messaging",status="200"\} \d+$/m);
    expect(body).toMatch(/^pancake_mcp_limiter_wait_seconds_count\{api="messaging"\} \d+$/m);
    expect(body).toMatch(/^pancake_mcp_limiter_queue_depth\{api="messaging"\} 0$/m);
    expect(body).toMatch(/^pancake_mcp_cache_lookups_total\{cache="tag-labels",result="hit"\} \d+$/m);
    expect(body).toMatch(/^pancake_mcp_requests_total\{tenant="env"\} \d+$/m);
    expect(body).toMatch(/^pancake_mcp_tenants 1$/m);
    expect(body).toMatch(/^pancake_mcp_redis_up 1$/m);
    expect(body).toMatch(/^pancake_mcp_process_resident_memory_bytes \d+/m);
  });

  it("/readyz says degraded while Redis is away (still serving, on this process's own limits), ready when it is back", async () => {
    expect((await get(server.url, "/readyz")).json()).toEqual({ status: "ready", redis: "up" });
    await redis.stop();
    for (let i = 0; i < 40 && (await get(server.url, "/readyz")).json().status === "ready"; i++) await new Promise((r) => setTimeout(r, 50));
    const degraded = await get(server.url, "/readyz");
    expect(degraded.status).toBe(200);
    expect(degraded.json()).toEqual({ status: "degraded", redis: "down" });
    expect((await get(server.url, "/healthz")).json()).toEqual({ status: "ok" });
    const page = sandbox.messaging.pages[1]!.id;
    const during = await callOverHttp(server.url, "list_conversations", { page_ids: [page], limit: 1 }, auth);
    expect(during.isError, during.text).toBe(false);
    expect(server.stderr()).toMatch(/warning: Redis unavailable/);
    expect((await get(server.url, "/metrics")).body).toMatch(/^pancake_mcp_redis_up 0$/m);
    await redis.start();
    for (let i = 0; i < 80 && (await get(server.url, "/readyz")).json().status !== "ready"; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await get(server.url, "/readyz")).json()).toEqual({ status: "ready", redis: "up" });
  }, 20_000);
});

describe("shutdown with an upstream that never answers", () => {
  it("SIGTERM: calls in flight and queued in the rate limit are dropped after the drain cap, and the process exits 0", async () => {
    // Answers the tag list (which every call shares), never the conversations.
    const upstream = await hostileUpstream((req, res) => {
      if (req.url?.includes("/tags")) res.writeHead(200, { "content-type": "application/json" }).end('{"success":true,"tags":[]}');
    });
    const hanging = () => upstream.requests.filter((r) => r.path.includes("/conversations")).length;
    const redis = await startRedis();
    const server = await spawnHttp([], {
      PANCAKE_BASE_URL: `${upstream.url}/api`,
      PANCAKE_PAGE_ACCESS_TOKENS: "p1=hang-page-token-0001",
      PANCAKE_REDIS_URL: redis.url,
      PANCAKE_TIMEOUT_MS: "120000",
      PANCAKE_LOG_LEVEL: "error",
    });
    try {
      // 10 calls for one page: 5 reach the upstream and hang, 5 wait in the rate limit.
      const calls = Array.from({ length: 10 }, () => callOverHttp(server.url, "list_conversations", { page_ids: ["p1"], limit: 1 }).catch(() => undefined));
      for (let i = 0; i < 250 && hanging() < 5; i++) await new Promise((r) => setTimeout(r, 20));
      expect(hanging()).toBe(5);
      const started = Date.now();
      expect(await server.stop()).toBe(0);
      expect(Date.now() - started).toBeLessThan(12_500);
      void calls;
    } finally {
      await server.stop();
      await upstream.close();
      await redis.stop();
    }
  }, 30_000);
});
