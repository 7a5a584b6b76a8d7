import { setMaxListeners } from "node:events";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { type HostileUpstream, hostileUpstream } from "../helpers/hostile-upstream.js";
import { rpc } from "../helpers/raw-http.js";
import { spawnHttp } from "../helpers/spawn.js";
import { openSession } from "../helpers/eras.js";
import { type StdioServer, sandboxEnv, spawnStdio } from "../helpers/stdio-client.js";

const KEY = "cancel-test-key-0001";
const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

/** An upstream that answers only after 10 s: long enough that only an abort ends a request early. */
async function slowUpstream(): Promise<HostileUpstream> {
  const upstream = await hostileUpstream((_req, res) => {
    const timer = setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('{"success":true,"shops":[]}'), 10_000);
    res.on("close", () => clearTimeout(timer));
  });
  opened.push(upstream);
  return upstream;
}

const until = async (check: () => boolean, withinMs = 5_000) => {
  const end = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function stdioServer(env: Record<string, string>): Promise<StdioServer> {
  const server = await spawnStdio({ PANCAKE_LOG_LEVEL: "error", ...env });
  opened.push(server);
  return server;
}

describe("a client that cancels or goes away ends the upstream request in flight", () => {
  // 2025 era and 2026-07-28 over stdio: notifications/cancelled. 2026-07-28 over HTTP: the client
  // closes the call's response stream, which is how that revision cancels.
  it.each([
    ["2025", "stdio"],
    ["2026-07-28", "stdio"],
    ["2026-07-28", "HTTP"],
  ] as const)("a %s client's cancel over %s aborts the upstream read, and it is not retried", async (era, transport) => {
    const upstream = await slowUpstream();
    const session = await openSession(era, transport, { env: { PANCAKE_POS_BASE_URL: `${upstream.url}/pos`, PANCAKE_POS_API_KEY: KEY, PANCAKE_LOG_LEVEL: "error" } });
    opened.push(session);
    const controller = new AbortController();
    const call = session.callTool({ name: "list_shops", arguments: {} }, { signal: controller.signal }).catch((e: Error) => e);
    await until(() => upstream.requests.length === 1);
    const cancelled = Date.now();
    controller.abort("the user changed their mind");
    expect(await call).toBeInstanceOf(Error);
    await until(() => upstream.requests[0]!.droppedAt !== undefined, 2_000);
    expect(upstream.requests[0]!.droppedAt! - cancelled).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 700));
    expect(upstream.requests).toHaveLength(1);
  });

  it("cancelled reads waiting for the page's rate budget are never sent", async () => {
    const sandbox = new Sandbox({ ratePerSecond: 5 });
    await sandbox.start();
    opened.push(sandbox);
    const server = await stdioServer(sandboxEnv(sandbox));
    const pageId = sandbox.messaging.pages[0]!.id;
    await server.call("list_page_tags", { page_id: pageId }); // page token and tags read
    const onPage = () => sandbox.server.requests.filter((r) => r.path.includes(`/pages/${pageId}/conversations`)).length;
    const controller = new AbortController();
    // One signal for 20 calls: the SDK client listens on it once per call.
    setMaxListeners(25, controller.signal);
    const calls = Array.from({ length: 20 }, () =>
      server.client.callTool({ name: "list_conversations", arguments: { page_ids: [pageId], limit: 5 } }, { signal: controller.signal }).catch(() => undefined),
    );
    await until(() => onPage() >= 1);
    controller.abort();
    await Promise.all(calls);
    // The notification takes a moment to reach the server; a request already leaving may still land.
    await new Promise((r) => setTimeout(r, 300));
    const sentAtCancel = onPage();
    await new Promise((r) => setTimeout(r, 2_500));
    // Without cancellation the other calls would go out at 5 a second over the next 4 seconds.
    expect(onPage()).toBe(sentAtCancel);
    expect(sentAtCancel).toBeLessThanOrEqual(5);
  });

  it("a stdio client that disconnects ends the upstream request", async () => {
    const upstream = await slowUpstream();
    const server = await stdioServer({ PANCAKE_POS_BASE_URL: `${upstream.url}/pos`, PANCAKE_POS_API_KEY: KEY });
    void server.call("list_shops").catch(() => undefined);
    await until(() => upstream.requests.length === 1);
    const gone = Date.now();
    await server.client.close();
    await until(() => upstream.requests[0]!.droppedAt !== undefined, 3_000);
    expect(upstream.requests[0]!.droppedAt! - gone).toBeLessThan(2_000);
  });

  it("an HTTP client that disconnects ends the upstream request", async () => {
    const upstream = await slowUpstream();
    const http = await spawnHttp(["--log-level", "error"], { PANCAKE_POS_BASE_URL: `${upstream.url}/pos`, PANCAKE_POS_API_KEY: KEY });
    opened.push({ close: () => http.stop() });
    const url = new URL(http.url);
    const body = rpc(1, "tools/call", { name: "list_shops", arguments: {} });
    const socket = connect(Number(url.port), url.hostname);
    socket.on("error", () => {});
    socket.write(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await until(() => upstream.requests.length === 1);
    const gone = Date.now();
    socket.destroy();
    await until(() => upstream.requests[0]!.droppedAt !== undefined, 3_000);
    expect(upstream.requests[0]!.droppedAt! - gone).toBeLessThan(1_000);
    // The server keeps serving.
    const health = await fetch(new URL("/healthz", url));
    expect(health.status).toBe(200);
  });
});
