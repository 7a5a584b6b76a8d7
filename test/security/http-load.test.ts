import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

const TOKEN = "load-test-bearer-token-0123456789";
const CALLS = 20_000;
const CLIENTS = 100;

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** One tools/call as a stateless JSON-RPC POST; the answer arrives as one SSE event. */
async function callTool(pool: Pool, path: string, id: number): Promise<boolean> {
  const res = await pool.request({
    path,
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${TOKEN}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "list_shops", arguments: {} } }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) return false;
  const data = /^data: (.+)$/m.exec(text)?.[1] ?? text;
  const message = JSON.parse(data) as { result?: { isError?: boolean; structuredContent?: unknown } };
  return message.result !== undefined && !message.result.isError && message.result.structuredContent !== undefined;
}

describe("HTTP transport under load", () => {
  let server: HttpServerProcess;
  let pool: Pool;
  let path: string;

  beforeAll(async () => {
    server = await spawnHttp(["--demo", "--log-level", "warning"], { PANCAKE_MCP_TOKEN: TOKEN });
    const url = new URL(server.url);
    path = url.pathname;
    pool = new Pool(url.origin, { connections: CLIENTS, pipelining: 1 });
  });

  afterAll(async () => {
    await pool?.close();
    if (server) await server.stop();
  });

  it(`answers ${CALLS} tool calls from ${CLIENTS} concurrent clients with no error and no memory growth`, async () => {
    let next = 0;
    let failures = 0;
    let firstQuarterRss = 0;
    const pid = server.child.pid!;
    const worker = async () => {
      while (next < CALLS) {
        const id = next++;
        if (id === Math.floor(CALLS / 4)) firstQuarterRss = rssKb(pid);
        if (!(await callTool(pool, path, id).catch(() => false))) failures++;
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: CLIENTS }, worker));
    const seconds = (Date.now() - started) / 1000;
    const lastRss = rssKb(pid);
    process.stderr.write(
      `load: ${CALLS} calls in ${seconds.toFixed(1)} s (${Math.round(CALLS / seconds)}/s), rss ${firstQuarterRss} -> ${lastRss} kB\n`,
    );
    expect(failures).toBe(0);
    expect(lastRss).toBeLessThan(firstQuarterRss * 1.25);
  }, 240_000);

  it("keeps serving while slow clients hold connections open", async () => {
    const url = new URL(server.url);
    const slow = Array.from({ length: 200 }, () => {
      const socket = connect(Number(url.port), url.hostname);
      socket.on("error", () => {});
      // Headers that never finish: a slowloris client.
      socket.write(`POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 100\r\n`);
      return socket;
    });
    try {
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => callTool(pool, path, i)));
      expect(results.every(Boolean)).toBe(true);
    } finally {
      for (const socket of slow) socket.destroy();
    }
  });
});
