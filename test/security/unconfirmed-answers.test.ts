import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGING_PREFIX, POS_PREFIX, Sandbox } from "../../src/sandbox/index.js";
import { toolCalls } from "../fixtures/tool-calls.js";
import { type HostileUpstream, hostileProxy } from "../helpers/hostile-upstream.js";
import { type StdioServer, sandboxEnv, spawnStdio } from "../helpers/stdio-client.js";

type Answer = (res: ServerResponse) => void;
const ANSWERS: Record<string, Answer> = {
  empty: (res) => res.writeHead(200, { "content-type": "application/json" }).end(),
  "204": (res) => res.writeHead(204).end(),
  redirect: (res) => res.writeHead(302, { location: "https://elsewhere.example/login?next=/api&api_key=leak" }).end(),
  "bare success": (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"success":true}'),
  "not an object": (res) => res.writeHead(200, { "content-type": "application/json" }).end("null"),
};

// The upstream took the write (or did not) and answered with nothing that confirms it.
describe("writes and reads whose answer confirms nothing", () => {
  let sandbox: Sandbox;
  let proxy: HostileUpstream;
  let server: StdioServer;
  const rules: { method: string; path: RegExp; answer: Answer }[] = [];

  beforeAll(async () => {
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    const { origin } = await sandbox.start();
    proxy = await hostileProxy(origin, (req, res) => {
      const rule = rules.find((r) => r.method === req.method && r.path.test((req.url ?? "").split("?")[0]!));
      rule?.answer(res);
      return rule !== undefined;
    });
    server = await spawnStdio(
      sandboxEnv(sandbox, { PANCAKE_BASE_URL: proxy.url + MESSAGING_PREFIX, PANCAKE_POS_BASE_URL: proxy.url + POS_PREFIX }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await sandbox?.close();
  });

  async function callWith(method: string, path: RegExp, answer: Answer, name: string, args: Record<string, unknown>) {
    rules.splice(0, rules.length, { method, path, answer });
    const before = proxy.requests.filter((r) => r.method === method && path.test(r.path.split("?")[0]!)).length;
    const result = await server.call(name, args);
    rules.length = 0;
    const hits = proxy.requests.filter((r) => r.method === method && path.test(r.path.split("?")[0]!)).length - before;
    return { ...result, hits };
  }

  for (const [how, answer] of Object.entries(ANSWERS)) {
    it(`create_order answered with ${how}: outcome unknown, sent once`, async () => {
      const r = await callWith("POST", /\/orders$/, answer, "create_order", toolCalls.create_order!(sandbox));
      expect(r.isError, r.text).toBe(true);
      expect(r.text).toMatch(/outcome unknown[\s\S]*before retrying/);
      expect(r.text).not.toMatch(/undefined|leak/);
      expect(r.hits).toBe(1);
    });
  }

  for (const how of ["empty", "204", "redirect", "not an object"]) {
    it(`send_inbox_message answered with ${how}: outcome unknown, sent once`, async () => {
      const r = await callWith("POST", /\/messages$/, ANSWERS[how]!, "send_inbox_message", toolCalls.send_inbox_message!(sandbox));
      expect(r.isError, r.text).toBe(true);
      expect(r.text).toMatch(/outcome unknown[\s\S]*before retrying/);
      expect(r.hits).toBe(1);
    });
  }

  it("a read redirected: a clear error, not an empty success, and not followed", async () => {
    const r = await callWith("GET", /\/orders$/, ANSWERS.redirect!, "search_orders", { limit: 5 });
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toMatch(/HTTP 302[\s\S]*redirect to elsewhere\.example\/login/);
    expect(r.text).not.toContain("leak");
    expect(r.hits).toBe(1);
  });

  const wrongShape: Answer = (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"success":true,"data":{"orders":"none"}}');
  const bare: Answer = (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"success":true}');
  it.each([
    ["search_orders", "GET", /\/orders$/, wrongShape, () => ({ limit: 5 })],
    ["search_customers", "GET", /\/customers$/, bare, () => ({ limit: 5 })],
    ["list_conversations", "GET", /\/conversations$/, bare, () => ({ page_ids: [sandbox.messaging.pages[0]!.id], limit: 5 })],
    ["list_messages", "GET", /\/messages$/, wrongShape, () => toolCalls.list_messages!(sandbox)],
  ] as const)("%s answered 200 without its list: retried as a fault, then a clear error, never an empty success", async (name, method, path, answer, args) => {
    const r = await callWith(method, path, answer, name, args());
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toMatch(/HTTP 200 with an answer without the data it should carry/);
    expect(r.hits).toBe(3);
  });

  it("a read answered with an empty 200: retried as a fault, then a clear error", async () => {
    const r = await callWith("GET", /\/orders$/, ANSWERS.empty!, "search_orders", { limit: 5 });
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toMatch(/HTTP 200 with an empty answer/);
    expect(r.hits).toBe(3);
  });
});
