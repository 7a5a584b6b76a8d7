import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/index.js";
import { callOverHttp } from "../helpers/http-mcp.js";
import { raw } from "../helpers/raw-http.js";
import { freePort, type RedisServer, startRedis } from "../helpers/redis.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

// A live index that is never wrong: two replicas share the shop index through a real Redis and
// refresh it from the upstream only once an hour, so only the webhooks can tell them of a change.
// Deliveries go to one replica and questions to the other. The services stamp whole seconds (the
// POS) or microseconds (messages), and Pancake delivers an event again when it was not answered
// 2xx: what comes again, or late, within the same second must change nothing.

const SECRET = "webhook-order-secret-0123456789";
const sandbox = new Sandbox({ ratePerSecond: 10_000 });
let redis: RedisServer;
let a: HttpServerProcess;
let b: HttpServerProcess;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const orders = () => sandbox.pos.orders;
const host = (server: HttpServerProcess) => ({ host: new URL(server.url).host });

async function replica(): Promise<HttpServerProcess> {
  return spawnHttp([], {
    PANCAKE_BASE_URL: sandbox.started.messagingBaseUrl,
    PANCAKE_POS_BASE_URL: sandbox.started.posBaseUrl,
    PANCAKE_ACCESS_TOKEN: sandbox.credentials.userToken,
    // One key for every shop (no shop_id=): the tenant's shops are those the key lists.
    PANCAKE_POS_API_KEY: sandbox.credentials.posApiKey,
    PANCAKE_REDIS_URL: redis.url,
    PANCAKE_WEBHOOK_SECRET: SECRET,
    PANCAKE_INDEX: "disk",
    PANCAKE_INDEX_REFRESH_SECONDS: "3600",
    PANCAKE_POS_STATISTICS: "0",
  });
}

interface Delivered {
  status: number;
  body: Record<string, unknown>;
}

const answer = (r: { status: number; body: string }): Delivered => ({ status: r.status, body: JSON.parse(r.body) as Record<string, unknown> });

/** A delivery as the POS makes it: the order, with the header the shop set. */
const deliverOrder = async (server: HttpServerProcess, order: unknown) =>
  answer(await raw(server.url.replace("/mcp", "/webhooks/pos"), { headers: { ...host(server), "x-webhook-secret": SECRET }, body: JSON.stringify(order) }));

/** A messaging webhook delivery, its body as the service sent it. */
const deliverMessaging = async (server: HttpServerProcess, body: string) =>
  answer(await raw(server.url.replace("/mcp", `/webhooks/messaging/${SECRET}`), { headers: host(server), body }));

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

const awaiting = async (server: HttpServerProcess) => {
  const r = await callOverHttp(server.url, "list_conversations", { awaiting_reply: true, group_by: ["page"] });
  expect(r.isError, r.text).toBe(false);
  return r.data.total as number;
};

const redisClient = () => new Redis(redis.url);

/** The statuses the shared index in Redis holds for an order. */
async function statusesInRedis(id: number): Promise<unknown[]> {
  const client = redisClient();
  try {
    const keys = await client.keys("pmcp:*:rows");
    const rows = await Promise.all(keys.map((key) => client.hget(key, String(id))));
    return rows.flatMap((row) => (row ? [(JSON.parse(row) as { status?: unknown }).status] : []));
  } finally {
    client.disconnect();
  }
}

/** Every index key in Redis and how many fields it holds: what a refused delivery must leave alone. */
async function indexKeys(): Promise<Record<string, number>> {
  const client = redisClient();
  try {
    const keys = (await client.keys("pmcp:*:ix:*")).filter((key) => !key.endsWith(":lease"));
    const sizes = await Promise.all(keys.map(async (key) => ((await client.type(key)) === "hash" ? client.hlen(key) : client.zcard(key))));
    return Object.fromEntries(keys.map((key, i) => [key, sizes[i]!]));
  } finally {
    client.disconnect();
  }
}

/** Makes Redis refuse every write (out of memory), reads still served; `false` lets it write again. */
async function refuseWrites(refuse: boolean): Promise<void> {
  const client = redisClient();
  try {
    await client.config("SET", "maxmemory", refuse ? "1" : "0");
  } finally {
    client.disconnect();
  }
}

/** Waits until a clock (this one, or one `lag` ms behind) is early in a second, so that what is done next shares it. */
async function earlyInASecond(lag = 0): Promise<void> {
  while ((Date.now() - lag) % 1000 > 500) await sleep(25);
}

const orderReads = () => sandbox.server.requests.filter((q) => q.path.endsWith("/orders")).length;
const conversationReads = () => sandbox.server.requests.filter((q) => q.path.includes("/conversations")).length;

/** The messaging webhooks the sandbox sent for one conversation since `from`, as sent (the address they went to refuses them). */
const messagingBodies = (from: number, conversationId: string) =>
  sandbox.webhookDeliveries
    .slice(from)
    .filter((d) => d.event === "messaging" || d.event === "conversation")
    .map((d) => ({ event: d.event, body: d.body, data: (JSON.parse(d.body) as { data: { conversation: { id: string; version?: number }; message?: { id: string } } }).data }))
    .filter((d) => d.data.conversation.id === conversationId);

beforeAll(async () => {
  await sandbox.start();
  redis = await startRedis();
  [a, b] = await Promise.all([replica(), replica()]);
  // The sandbox's webhooks go nowhere (a closed port): each test delivers what they carried, in the order it means.
  const nowhere = `http://127.0.0.1:${await freePort()}/hook`;
  sandbox.setWebhooks({ messaging: { url: nowhere } });
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
  await sandbox.close();
});

describe("a live index that is never wrong (two replicas, real Redis, only webhooks)", () => {
  it("an order moved twice within one second: the first change delivered again changes nothing, on either replica", async () => {
    expect(await statusCounts(a)).toEqual(truth());
    expect(await statusCounts(b)).toEqual(truth());
    const order = orders().find((o) => o.status === 0 && !o.is_removed)!;
    // Confirmed, then waiting to print, within one second: the POS stamps both the same second.
    let confirmed: OrderRecord;
    let printing: OrderRecord;
    await earlyInASecond();
    confirmed = structuredClone(sandbox.simulate.setOrderStatus(order.id, 1));
    printing = structuredClone(sandbox.simulate.setOrderStatus(order.id, 12));
    expect(printing.updated_at).toBe(confirmed.updated_at);
    expect(printing.status_history.length).toBe(confirmed.status_history.length + 1);

    expect((await deliverOrder(a, confirmed)).body).toMatchObject({ ok: true, applied: 1 });
    expect((await deliverOrder(a, printing)).body).toMatchObject({ ok: true, applied: 1 });
    // Pancake delivers the first again (it was not answered in time, say), to either replica.
    expect((await deliverOrder(a, confirmed)).body).toMatchObject({ ok: true, applied: 0 });
    expect((await deliverOrder(b, confirmed)).body).toMatchObject({ ok: true, applied: 0 });
    expect((await deliverOrder(b, printing)).body).toMatchObject({ ok: true, applied: 0 });
    expect(await statusesInRedis(order.id)).toEqual([12]);

    sandbox.server.resetRecords();
    expect(await statusCounts(b)).toEqual(truth());
    expect(await statusCounts(a)).toEqual(truth());
    expect(orderReads()).toBe(0);

    // Late rather than again: the later change first, then the earlier one.
    const other = orders().find((o) => o.status === 0 && !o.is_removed && o.id !== order.id)!;
    await earlyInASecond();
    confirmed = structuredClone(sandbox.simulate.setOrderStatus(other.id, 1));
    printing = structuredClone(sandbox.simulate.setOrderStatus(other.id, 12));
    expect(printing.updated_at).toBe(confirmed.updated_at);
    expect((await deliverOrder(b, printing)).body).toMatchObject({ applied: 1 });
    expect((await deliverOrder(a, confirmed)).body).toMatchObject({ applied: 0 });
    expect(await statusCounts(a)).toEqual(truth());
    expect(await statusCounts(b)).toEqual(truth());
    expect(orderReads()).toBe(0);
  });

  it("a customer's message delivered again after the page's reply within the same second leaves the conversation answered", async () => {
    const s = sandbox.messaging;
    const answered = s.conversations.find(
      (c) => c.type === "INBOX" && s.pages.some((p) => p.id === c.page_id) && s.messages[c.id]?.at(-1)?.from.admin_id !== undefined,
    )!;
    const waitingBefore = await awaiting(b);
    expect(await awaiting(a)).toBe(waitingBefore);
    // The customer writes and the page answers within one second (the events carry microseconds).
    let from = sandbox.webhookDeliveries.length;
    // The messaging sandbox's clock runs a little behind this one (by its seeding time).
    let lag = 0;
    for (let attempt = 0; ; attempt++) {
      await earlyInASecond(lag);
      const asked = sandbox.simulate.customerMessage(answered.id, "Shop ơi, còn size M không ạ?");
      lag = Date.now() - Date.parse(`${asked.inserted_at.slice(0, 23)}Z`);
      await sleep(5);
      const reply = sandbox.simulate.staffReply(answered.id, "Dạ còn ạ, em gửi mình nhé");
      if (asked.inserted_at.slice(0, 19) === reply.inserted_at.slice(0, 19)) break;
      // They fell in two seconds: again, aligned on the sandbox's clock.
      expect(attempt).toBeLessThan(3);
      from = sandbox.webhookDeliveries.length;
    }
    await sandbox.webhooksSettled();
    const events = messagingBodies(from, answered.id);
    const [asked, replied] = events.filter((e) => e.event === "messaging");
    expect(asked && replied).toBeTruthy();
    for (const e of events) expect((await deliverMessaging(a, e.body)).status, e.body).toBe(200);

    // The customer's message again, after the reply it came before: older, so nothing changes.
    expect((await deliverMessaging(a, asked!.body)).body).toMatchObject({ ok: true, applied: 0 });
    expect((await deliverMessaging(b, asked!.body)).body).toMatchObject({ ok: true, applied: 0 });
    sandbox.server.resetRecords();
    expect(await awaiting(b)).toBe(waitingBefore);
    expect(await awaiting(a)).toBe(waitingBefore);
    expect(conversationReads()).toBe(0);
  });

  it("a messaging or conversation event delivered again answers applied 0; a newer one applies", async () => {
    const s = sandbox.messaging;
    const conversation = s.conversations.find(
      (c) => c.type === "INBOX" && s.pages.some((p) => p.id === c.page_id) && s.messages[c.id]?.at(-1)?.from.admin_id !== undefined,
    )!;
    const waitingBefore = await awaiting(b);
    expect(await awaiting(a)).toBe(waitingBefore);
    let from = sandbox.webhookDeliveries.length;
    sandbox.simulate.customerMessage(conversation.id, "Em muốn đổi địa chỉ nhận hàng");
    await sandbox.webhooksSettled();
    const [message, change] = messagingBodies(from, conversation.id);
    expect(message?.event).toBe("messaging");
    expect(change?.event).toBe("conversation");
    expect((await deliverMessaging(a, message!.body)).body).toMatchObject({ applied: 1 });
    expect((await deliverMessaging(a, change!.body)).body).toMatchObject({ applied: 1 });
    // Each again, to either replica: the message after the conversation event, the event after that.
    for (const server of [a, b]) {
      expect((await deliverMessaging(server, message!.body)).body).toMatchObject({ ok: true, applied: 0 });
      expect((await deliverMessaging(server, change!.body)).body).toMatchObject({ ok: true, applied: 0 });
    }
    expect(await awaiting(b)).toBe(waitingBefore + 1);

    // Staff read it in the web app: a newer version, applied once.
    from = sandbox.webhookDeliveries.length;
    sandbox.simulate.markRead(conversation.id);
    await sandbox.webhooksSettled();
    const [read] = messagingBodies(from, conversation.id);
    expect(read?.data.conversation.version).toBeGreaterThan(change!.data.conversation.version!);
    expect((await deliverMessaging(b, read!.body)).body).toMatchObject({ applied: 1 });
    expect((await deliverMessaging(a, read!.body)).body).toMatchObject({ applied: 0 });
    expect((await deliverMessaging(a, change!.body)).body).toMatchObject({ applied: 0 });

    // The page answers: a newer message, applied, and the conversation is answered again on both.
    from = sandbox.webhookDeliveries.length;
    sandbox.simulate.staffReply(conversation.id, "Dạ em cập nhật rồi ạ");
    await sandbox.webhooksSettled();
    const [reply] = messagingBodies(from, conversation.id);
    expect((await deliverMessaging(b, reply!.body)).body).toMatchObject({ applied: 1 });
    expect((await deliverMessaging(a, message!.body)).body).toMatchObject({ applied: 0 });
    expect(await awaiting(a)).toBe(waitingBefore);
    expect(await awaiting(b)).toBe(waitingBefore);
  });

  it("refuses a POS delivery for a shop the single key does not list (404), storing nothing", async () => {
    const counts = await statusCounts(a);
    const stored = await indexKeys();
    const order = structuredClone(orders().find((o) => o.status === 1 && !o.is_removed)!);
    const elsewhere = await deliverOrder(a, { ...order, shop_id: 4242, status: 6, updated_at: new Date(Date.now() + 60_000).toISOString().slice(0, 19) });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toMatchObject({ ok: false });
    expect(await indexKeys()).toEqual(stored);
    expect(await statusCounts(b)).toEqual(counts);
    // The shop the key lists is still taken.
    expect((await deliverOrder(b, order)).status).toBe(200);
  });

  it("answers 503 when Redis does not store a delivery, and stores it when Pancake delivers it again", async () => {
    expect(await statusCounts(a)).toEqual(truth());
    expect(await statusCounts(b)).toEqual(truth());
    const order = orders().find((o) => o.status === 1 && !o.is_removed)!;
    const before = order.status;
    const moved = structuredClone(sandbox.simulate.setOrderStatus(order.id, 12));
    await refuseWrites(true);
    let first: Delivered;
    try {
      first = await deliverOrder(a, moved);
    } finally {
      await refuseWrites(false);
    }
    expect(first.status, JSON.stringify(first.body)).toBe(503);
    expect(await statusesInRedis(order.id)).toEqual([before]);
    // A replica holds back from Redis for a moment after a failed command; Pancake delivers again later.
    await sleep(2_500);
    expect((await deliverOrder(a, moved)).body).toMatchObject({ ok: true, applied: 1 });
    expect(await statusesInRedis(order.id)).toEqual([12]);
    sandbox.server.resetRecords();
    expect(await statusCounts(b)).toEqual(truth());
    expect(orderReads()).toBe(0);
    // And once more: stored, so nothing left to apply.
    expect((await deliverOrder(b, moved)).body).toMatchObject({ ok: true, applied: 0 });
  });

  it("answers 503 while Redis is down, and answers exactly once it is back (read afresh)", async () => {
    const order = orders().find((o) => o.status === 1 && !o.is_removed)!;
    const moved = structuredClone(sandbox.simulate.setOrderStatus(order.id, 12));
    await redis.stop();
    try {
      const down = await deliverOrder(a, moved);
      expect(down.status, JSON.stringify(down.body)).toBe(503);
    } finally {
      await redis.start();
    }
    // Each replica's client reconnects within a few seconds; the index Redis lost is read afresh.
    await sleep(3_000);
    expect((await deliverOrder(a, moved)).status).toBe(200);
    expect(await statusCounts(b)).toEqual(truth());
    expect(await statusCounts(a)).toEqual(truth());
  });
});
