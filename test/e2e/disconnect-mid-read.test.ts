import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { callOverHttp } from "../helpers/http-mcp.js";
import { rpc } from "../helpers/raw-http.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

// A client that goes away in the middle of a long read (its connection closed: a laptop lid, a
// network change) ends its own answer, not the read: the server reads on, and the next call, from
// any client, finds the page read. The demo shop ten times over, at the platform's 5 calls a second.

const sandbox = new Sandbox({ scale: 10, ratePerSecond: 5 });
let server: HttpServerProcess;

beforeAll(async () => {
  await sandbox.start();
  server = await spawnHttp([], {
    PANCAKE_BASE_URL: sandbox.started.messagingBaseUrl,
    PANCAKE_POS_BASE_URL: sandbox.started.posBaseUrl,
    PANCAKE_ACCESS_TOKEN: sandbox.credentials.userToken,
    PANCAKE_POS_API_KEY: sandbox.credentials.posApiKey,
    PANCAKE_INDEX: "memory",
  });
}, 30_000);

afterAll(async () => {
  await server.stop();
  await sandbox.close();
});

const lists = () => sandbox.server.requests.filter((q) => /\/v2\/pages\/[^/]+\/conversations$/.test(q.path)).length;

describe("a client that disconnects mid-read", () => {
  it("leaves the read going: the next call finds the page read, without reading it again", async () => {
    const gone = new AbortController();
    const call = fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", host: new URL(server.url).host },
      body: rpc(1, "tools/call", { name: "list_conversations", arguments: { awaiting_reply: true, group_by: ["page"] } }),
      signal: gone.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    gone.abort();
    await expect(call.then((r) => r.text())).rejects.toThrow();
    const atDisconnect = lists();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(lists()).toBeGreaterThan(atDisconnect + 5);

    const r = await callOverHttp(server.url, "list_conversations", { awaiting_reply: true, group_by: ["page"] });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.complete).toBe(true);
    const s = sandbox.messaging;
    const active = new Set(s.pages.map((p) => p.id));
    const waiting = s.conversations.filter((c) => active.has(c.page_id) && (s.messages[c.id]?.length ?? 0) > 0 && s.messages[c.id]!.at(-1)!.from.admin_id === undefined);
    expect(r.data.total).toBe(waiting.length);
    // Every page read once (60 a call), a refresh each, and a few tried again after a 429.
    const needed = s.pages.reduce((n, p) => n + Math.floor(s.conversations.filter((c) => c.page_id === p.id).length / 60) + 1, 0);
    expect(lists()).toBeLessThanOrEqual(needed + s.pages.length + 4);
  });
});
