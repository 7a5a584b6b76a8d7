import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/index.js";
import { callOverHttp } from "../helpers/http-mcp.js";
import { raw } from "../helpers/raw-http.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

// Hosted mode: two replicas share the shop index through a real Redis, refresh it from the
// upstream only once an hour, and are kept live by the services' webhooks, delivered to either.

const SECRET = "webhook-secret-0123456789abcdef";
const sandbox = new Sandbox({ ratePerSecond: 10_000 });
let redis: RedisServer;
let a: HttpServerProcess;
let b: HttpServerProcess;

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const orders = () => sandbox.pos.orders;

async function replica(): Promise<HttpServerProcess> {
  return spawnHttp([], {
    PANCAKE_BASE_URL: sandbox.started.messagingBaseUrl,
    PANCAKE_POS_BASE_URL: sandbox.started.posBaseUrl,
    PANCAKE_ACCESS_TOKEN: sandbox.credentials.userToken,
    PANCAKE_POS_API_KEY: sandbox.credentials.posApiKey,
    PANCAKE_REDIS_URL: redis.url,
    PANCAKE_WEBHOOK_SECRET: SECRET,
    PANCAKE_INDEX: "disk",
    PANCAKE_INDEX_REFRESH_SECONDS: "3600",
    // Counted from the index, which the webhooks keep: not by the POS's statistics meanwhile.
    PANCAKE_POS_STATISTICS: "0",
  });
}

/** A delivery as the POS makes it: the order, with the header the shop set. */
const deliverOrder = (server: HttpServerProcess, order: unknown, secret = SECRET) =>
  raw(server.url.replace("/mcp", "/webhooks/pos"), { headers: { host: new URL(server.url).host, "x-webhook-secret": secret }, body: JSON.stringify(order) });

const statusCounts = async (server: HttpServerProcess) => {
  const r = await callOverHttp(server.url, "search_orders", { group_by: ["status"], limit: 50 });
  expect(r.isError, r.text).toBe(false);
  return Object.fromEntries((r.data.groups as { status: string; orders: number }[]).map((g) => [g.status, g.orders]));
};

const truth = () => {
  const counts: Record<string, number> = {};
  for (const o of orders()) if (!o.is_removed) counts[o.status_name] = (counts[o.status_name] ?? 0) + 1;
  return counts;
};

/** An order moved to "shipped" as the POS does it: status, history, update time. */
function ship(o: OrderRecord): void {
  const at = iso(Math.max(Date.now(), Date.parse(`${o.updated_at}Z`) + 1000));
  o.status = 2;
  o.status_name = "shipped";
  o.status_history.push({ ...o.status_history.at(-1)!, status: 2, updated_at: at });
  o.updated_at = at;
  o.last_update_status_at = at;
}

/** Holds Redis's writes back for `ms`, reads still served: a write the replica does not wait for lands after. */
async function pauseRedisWrites(ms: number): Promise<void> {
  const client = new Redis(redis.url);
  try {
    await client.call("CLIENT", "PAUSE", String(ms), "WRITE");
  } finally {
    client.disconnect();
  }
}

/** The statuses the shared index in Redis holds for an order (one per index that holds it). */
async function statusesInRedis(id: number): Promise<unknown[]> {
  const client = new Redis(redis.url);
  try {
    const keys = await client.keys("pmcp:*:rows");
    const rows = await Promise.all(keys.map((key) => client.hget(key, String(id))));
    return rows.flatMap((row) => (row ? [(JSON.parse(row) as { status?: unknown }).status] : []));
  } finally {
    client.disconnect();
  }
}

const orderReads = () => sandbox.server.requests.filter((q) => q.path.endsWith("/orders")).length;

beforeAll(async () => {
  await sandbox.start();
  redis = await startRedis();
  [a, b] = await Promise.all([replica(), replica()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
  await sandbox.close();
});

describe("webhooks keep a hosted index live across replicas", () => {
  it("applies a pushed order change on every replica without reading the upstream again", async () => {
    expect(await statusCounts(a)).toEqual(truth());
    expect(await statusCounts(b)).toEqual(truth());
    const order = orders().find((o) => o.status === 9 && !o.is_removed)!;
    ship(order);
    await pauseRedisWrites(300);
    const delivered = await deliverOrder(a, order);
    expect(delivered.status).toBe(200);
    expect(JSON.parse(delivered.body)).toMatchObject({ ok: true, applied: 1 });
    // Stored where every replica reads before it was answered, however slow the write (B, asked
    // next, once counted the old status).
    expect(await statusesInRedis(order.id)).toEqual([2]);
    sandbox.server.resetRecords();
    // B reads A's change from Redis: no refresh is due for an hour.
    expect(await statusCounts(b)).toEqual(truth());
    expect(orderReads()).toBe(0);
  });

  it("changes nothing when a delivery comes twice or late", async () => {
    const order = orders().find((o) => o.status === 2 && !o.is_removed)!;
    const before = structuredClone(order);
    ship(order);
    expect(JSON.parse((await deliverOrder(b, order)).body)).toMatchObject({ applied: 1 });
    expect(JSON.parse((await deliverOrder(b, order)).body)).toMatchObject({ applied: 0 });
    // The state before the change, delivered after it: older, so left alone.
    expect(JSON.parse((await deliverOrder(a, before)).body)).toMatchObject({ applied: 0 });
    expect(await statusCounts(a)).toEqual(truth());
  });

  it("refuses a forged, malformed or oversized delivery, or one for another shop, storing nothing", async () => {
    const counts = await statusCounts(a);
    const order = structuredClone(orders().find((o) => o.status === 3 && !o.is_removed)!);
    Object.assign(order, { status: 6, updated_at: iso(Date.now() + 60_000) });
    const forged = await deliverOrder(a, order, "not-the-secret-at-all-0000");
    expect(forged.status).toBe(401);
    const unsigned = await raw(a.url.replace("/mcp", "/webhooks/pos"), { headers: { host: new URL(a.url).host }, body: JSON.stringify(order) });
    expect(unsigned.status).toBe(401);
    const malformed = await raw(a.url.replace("/mcp", "/webhooks/pos"), { headers: { host: new URL(a.url).host, "x-webhook-secret": SECRET }, body: '{"id": 1, ' });
    expect(malformed.status).toBe(400);
    const oversized = await deliverOrder(a, { ...order, note: "x".repeat(300_000) });
    expect(oversized.status).toBe(413);
    // One key for every shop: a shop it does not list is not the tenant's.
    const elsewhere = await deliverOrder(a, { ...order, shop_id: 4242 });
    expect(elsewhere.status).toBe(404);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ ok: false });
    expect(await statusCounts(a)).toEqual(counts);
    expect(await statusCounts(b)).toEqual(counts);
    const path = await raw(a.url.replace("/mcp", "/webhooks/elsewhere"), { headers: { host: new URL(a.url).host }, body: "{}" });
    expect(path.status).toBe(404);
  });

  it("refuses a messaging delivery for a page that is not the account's, and reads a new conversation at the next question", async () => {
    const url = (secret: string) => a.url.replace("/mcp", `/webhooks/messaging/${secret}`);
    const host = { host: new URL(a.url).host };
    const page = sandbox.messaging.pages[0]!;
    const strange = await raw(url(SECRET), { headers: host, body: JSON.stringify({ page_id: "999999999", event_type: "messaging", data: { conversation: { id: "x" } } }) });
    expect(strange.status).toBe(404);
    const forged = await raw(url("wrong-secret-wrong-secret-00"), { headers: host, body: JSON.stringify({ page_id: page.id, event_type: "messaging", data: {} }) });
    expect(forged.status).toBe(401);
    const before = await callOverHttp(b.url, "list_conversations", { group_by: ["page"] });
    expect(before.isError, before.text).toBe(false);
    const unknown = await raw(url(SECRET), {
      headers: host,
      body: JSON.stringify({ page_id: page.id, event_type: "messaging", data: { conversation: { id: `${page.id}_brand_new` }, message: { inserted_at: iso(Date.now()) } } }),
    });
    expect(JSON.parse(unknown.body)).toMatchObject({ ok: true, applied: 0 });
    sandbox.server.resetRecords();
    await callOverHttp(b.url, "list_conversations", { group_by: ["page"] });
    // Marked stale on A, B refreshes that page rather than trust the hour.
    expect(sandbox.server.requests.some((q) => q.path.includes(`/pages/${page.id}/conversations`))).toBe(true);
  });

  it("closes the loop: the shop's own webhooks, sent as its data changes, keep both replicas exact", async () => {
    const host = new URL(a.url).origin;
    sandbox.setWebhooks({ pos: { url: `${host}/webhooks/pos`, headers: { "X-Webhook-Secret": SECRET }, types: ["orders"] }, messaging: { url: `${host}/webhooks/messaging/${SECRET}` } });
    try {
      const awaiting = async (server: HttpServerProcess) => (await callOverHttp(server.url, "list_conversations", { awaiting_reply: true, group_by: ["page"] })).data.total as number;
      const waitingBefore = await awaiting(b);
      // A customer who had been answered writes again; an order ships; another is deleted.
      const s = sandbox.messaging;
      const answered = s.conversations.find((c) => c.type === "INBOX" && s.pages.some((p) => p.id === c.page_id) && s.messages[c.id]?.at(-1)?.from.admin_id !== undefined)!;
      sandbox.simulate.customerMessage(answered.id, "Shop ơi, đơn của em đâu rồi?");
      const shipping = orders().find((o) => o.status === 9 && !o.is_removed)!;
      sandbox.simulate.setOrderStatus(shipping.id, 2);
      sandbox.simulate.deleteOrder(orders().find((o) => o.status === 3 && !o.is_removed)!.id);
      await sandbox.webhooksSettled();
      const delivered = sandbox.webhookDeliveries.slice(-6);
      expect(delivered.every((d) => d.status === 200 || d.status === 202), JSON.stringify(delivered.map((d) => [d.event, d.status]))).toBe(true);
      sandbox.server.resetRecords();
      expect(await statusCounts(b)).toEqual(truth());
      expect(await awaiting(b)).toBe(waitingBefore + 1);
      // Neither needed the upstream: the pushes did it, no refresh was due.
      expect(orderReads()).toBe(0);
      expect(sandbox.server.requests.filter((q) => q.path.includes("/conversations")).length).toBe(0);
    } finally {
      sandbox.setWebhooks({});
    }
  });

  it("reads the shop afresh after a Redis restart, and answers exactly", async () => {
    await redis.stop();
    await redis.start();
    // Each replica's client reconnects within a few seconds.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    sandbox.server.resetRecords();
    expect(await statusCounts(a)).toEqual(truth());
    expect(orderReads()).toBeGreaterThan(2);
  });
});
