import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { sandboxEnv, spawnStdio } from "../helpers/stdio-client.js";

// A desktop session's first question finds the shop index current: at start the server brings
// what it kept on disk up to date in the background, before anyone asks; with
// PANCAKE_INDEX_PRELOAD it reads every page's conversations and the shop's orders as well.

const sandbox = new Sandbox({ scale: 3, ratePerSecond: 5 });
beforeAll(() => sandbox.start());
afterAll(() => sandbox.close());

const listCalls = () => sandbox.server.requests.filter((q) => q.path.endsWith("/conversations")).length;
const orderCalls = () => sandbox.server.requests.filter((q) => q.path.endsWith("/orders")).length;
const settle = async (quietMs = 1_500) => {
  for (let last = -1; ; ) {
    const now = sandbox.server.requests.length;
    if (now === last) return;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
};

function waiting(): number {
  const s = sandbox.messaging;
  const active = new Set(s.pages.map((p) => p.id));
  return s.conversations.filter((c) => active.has(c.page_id) && s.messages[c.id]?.at(-1)?.from.admin_id === undefined && (s.messages[c.id]?.length ?? 0) > 0)
    .length;
}

describe("a server's start", () => {
  it("brings the index kept on disk up to date before the first question", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pancake-warm-"));
    const env = sandboxEnv(sandbox, { PANCAKE_INDEX: "disk", PANCAKE_INDEX_DIR: dir });
    const first = await spawnStdio(env);
    const r = await first.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
    expect(r.data.complete, r.text).toBe(true);
    await first.close();

    // Customers write while no server runs.
    const s = sandbox.messaging;
    const answered = s.conversations.find((c) => c.type === "INBOX" && s.messages[c.id]?.at(-1)?.from.admin_id !== undefined)!;
    sandbox.simulate.customerMessage(answered.id, "Shop ơi còn hàng không?");
    await settle();
    const before = listCalls();
    const second = await spawnStdio(env);
    try {
      // Nobody has asked anything: the server read what changed on its own.
      await settle();
      expect(listCalls()).toBeGreaterThan(before);
      expect(second.stderr()).toMatch(/shop index: bringing up to date what is kept of page/);
      const warmed = listCalls();
      const again = await second.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
      expect(again.data.complete).toBe(true);
      expect(again.data.total).toBe(waiting());
      // The question only refreshed what was already current: a call a page at most.
      expect(listCalls() - warmed).toBeLessThanOrEqual(s.pages.length);
    } finally {
      await second.close();
    }
  });

  it("reads everything at start with PANCAKE_INDEX_PRELOAD: a big page's first question waits for nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pancake-preload-"));
    const before = { lists: listCalls(), orders: orderCalls() };
    const server = await spawnStdio(sandboxEnv(sandbox, { PANCAKE_INDEX: "disk", PANCAKE_INDEX_DIR: dir, PANCAKE_INDEX_PRELOAD: "1" }));
    try {
      await settle();
      expect(listCalls()).toBeGreaterThan(before.lists + 10);
      expect(orderCalls()).toBeGreaterThan(before.orders);
      expect(server.stderr()).toMatch(/shop index: reading page .*shop /);
      const t0 = Date.now();
      const r = await server.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
      expect(r.data.complete).toBe(true);
      expect(r.data.total).toBe(waiting());
      expect(Date.now() - t0).toBeLessThan(3_000);
    } finally {
      await server.close();
    }
  });
});
