import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGING_PREFIX, POS_PREFIX, Sandbox } from "../../src/sandbox/index.js";
import { toolCalls } from "../fixtures/tool-calls.js";
import { type HostileUpstream, hostileProxy } from "../helpers/hostile-upstream.js";
import { type StdioServer, sandboxEnv, spawnStdio } from "../helpers/stdio-client.js";

// The upstream applies a write and answers that the page token is invalid (code 102), while the
// page list already holds a fresh token: the server must not send the write again with it.
describe("a write refused with code 102 after a token rotation", () => {
  let sandbox: Sandbox;
  let proxy: HostileUpstream;
  let server: StdioServer;
  let refuseWrites = false;

  beforeAll(async () => {
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    const { origin } = await sandbox.start();
    proxy = await hostileProxy(origin, (req, res) => {
      if (!refuseWrites || req.method === "GET") return false;
      res.writeHead(200, { "content-type": "application/json" }).end('{"success":false,"error_code":102,"message":"Invalid access_token"}');
      return true;
    });
    server = await spawnStdio(sandboxEnv(sandbox, { PANCAKE_BASE_URL: proxy.url + MESSAGING_PREFIX, PANCAKE_POS_BASE_URL: proxy.url + POS_PREFIX }));
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await sandbox?.close();
  });

  it.each(["update_conversation_tags", "assign_conversation", "mark_conversation"])("%s is sent once and reported as not re-sent", async (name) => {
    const args = toolCalls[name]!(sandbox);
    // The server reads and caches the page's token, then the token is rotated elsewhere.
    expect((await server.call("list_conversations", { page_ids: [args.page_id], limit: 1 })).isError).toBe(false);
    const page = sandbox.messaging.pages.find((p) => p.id === args.page_id)!;
    page.settings.page_access_token = `rotated-${name}-0123456789`;
    refuseWrites = true;
    const before = proxy.requests.filter((r) => r.method !== "GET").length;
    const r = await server.call(name, args);
    refuseWrites = false;
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toMatch(/code 102/);
    expect(r.text).not.toMatch(/"ok"|success/);
    expect(proxy.requests.filter((q) => q.method !== "GET").length - before).toBe(1);
    // The fresh token is in use from then on.
    expect((await server.call("list_conversations", { page_ids: [args.page_id], limit: 1 })).isError).toBe(false);
  });
});
