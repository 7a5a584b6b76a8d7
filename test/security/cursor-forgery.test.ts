import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { type StdioServer, sandboxEnv, spawnStdio, useSandboxStdio } from "../helpers/stdio-client.js";

/** The JSON a cursor carries, as an attacker reads it. */
const payloadOf = (cursor: string) => JSON.parse(Buffer.from(cursor.split(".")[0]!, "base64url").toString("utf8"));

/** The attacker's edit: new JSON, the old signature kept (or, the pre-signing format, none). */
function forge(cursor: string, edit: (state: Record<string, unknown>) => void, keepSignature = true): string {
  const state = payloadOf(cursor);
  edit(state);
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url");
  return keepSignature ? `${payload}.${cursor.split(".")[1]}` : payload;
}

describe("cursor forgery against the built server", () => {
  const h = useSandboxStdio();
  let pageId: string;
  beforeAll(() => {
    pageId = h.sandbox.messaging.pages[0]!.id;
  });

  /** Calls with a cursor must be refused as a cursor problem, with nothing sent upstream. */
  async function refused(name: string, args: Record<string, unknown>) {
    const before = h.sandbox.server.requests.length;
    const r = await h.server.call(name, args);
    expect(r.isError, r.text).toBe(true);
    expect(r.text).toMatch(/cursor: (not a cursor from|belongs to page)/);
    const sent = h.sandbox.server.requests.slice(before);
    expect(sent.filter((q) => /orders|customers|conversations/.test(q.path))).toEqual([]);
    return r;
  }

  it("follows a genuine cursor", async () => {
    const first = await h.server.call("search_orders", { limit: 5 });
    const second = await h.server.call("search_orders", { limit: 5, cursor: first.data.next_cursor });
    expect(second.isError, second.text).toBe(false);
    expect(second.data.orders).toHaveLength(5);
  });

  it("refuses a cursor edited to add an upstream query parameter or a huge page size", async () => {
    const first = await h.server.call("search_orders", { limit: 5 });
    const cursor = first.data.next_cursor as string;
    await refused("search_orders", { cursor: forge(cursor, (s) => Object.assign(s.q as object, { access_token: "attacker" })) });
    await refused("search_orders", { cursor: forge(cursor, (s) => Object.assign(s.q as object, { extra: "1&api_key=x" })) });
    await refused("search_orders", { cursor: forge(cursor, (s) => Object.assign(s, { ps: 1_000_000 })) });
    // The format before signing: plain base64url JSON.
    await refused("search_orders", { cursor: forge(cursor, (s) => Object.assign(s, { ps: 1_000_000 }), false) });
    expect(h.sandbox.server.requests.some((q) => q.query.page_size?.includes("1000000") || q.query.extra)).toBe(false);
  });

  it("refuses a search_orders cursor given to search_customers, even relabelled", async () => {
    const cursor = (await h.server.call("search_orders", { limit: 5 })).data.next_cursor as string;
    await refused("search_customers", { cursor });
    await refused("search_customers", { cursor: forge(cursor, (s) => Object.assign(s, { t: "search_customers" })) });
  });

  it("refuses a conversations cursor stretched to a 10-year span, or moved to another page", async () => {
    const first = await h.server.call("list_conversations", { page_ids: [pageId], with_total: true, limit: 5 });
    expect(first.isError, first.text).toBe(false);
    const cursor = first.data.next_cursor as string;
    const tenYears = forge(cursor, (s) => Object.assign(s.q as object, { since: (s.q as { until: number }).until - 3650 * 86_400 }));
    await refused("list_conversations", { page_ids: [pageId], cursor: tenYears });
    const other = h.sandbox.messaging.pages[1]!.id;
    await refused("list_conversations", { page_ids: [other], cursor });
    await refused("list_conversations", { page_ids: [other], cursor: forge(cursor, (s) => Object.assign(s, { p: other })) });
  });
});

describe("cursor keys across replicas", () => {
  let sandbox: Sandbox;
  const servers: StdioServer[] = [];

  beforeAll(async () => {
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    await sandbox.start();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await sandbox?.close();
  });

  async function replica(extra: Record<string, string> = {}) {
    const s = await spawnStdio(sandboxEnv(sandbox, extra));
    servers.push(s);
    return s;
  }

  it("a cursor from one replica works on another with the same configuration", async () => {
    const [a, b] = [await replica(), await replica()];
    const cursor = (await a.call("search_customers", { limit: 3 })).data.next_cursor;
    const next = await b.call("search_customers", { limit: 3, cursor });
    expect(next.isError, next.text).toBe(false);
  });

  it("PANCAKE_MCP_CURSOR_KEY decides: the same key agrees, another key refuses", async () => {
    const key = "k".repeat(40);
    const [a, b, c] = [await replica({ PANCAKE_MCP_CURSOR_KEY: key }), await replica({ PANCAKE_MCP_CURSOR_KEY: key }), await replica()];
    const cursor = (await a.call("search_customers", { limit: 3 })).data.next_cursor;
    expect((await b.call("search_customers", { limit: 3, cursor })).isError).toBe(false);
    const other = await c.call("search_customers", { limit: 3, cursor });
    expect(other.isError).toBe(true);
    expect(other.text).toMatch(/cursor: not a cursor from search_customers/);
  });
});
