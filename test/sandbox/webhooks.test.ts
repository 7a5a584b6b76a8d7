import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import type { ConversationRecord } from "../../src/sandbox/messaging/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/index.js";

// The loop the hosted server's index lives on: a change upstream (through the API, or made
// elsewhere: a customer writes, staff act in the web app) -> the service's webhook. A receiver on
// loopback records what arrives; expectations come from the sandbox's raw records.

// biome-ignore lint/suspicious/noExplicitAny: webhook bodies are read as they come
type Body = any;
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Body;
}

/** A webhook receiver answering `status`; `got` holds what it received, in order. */
async function receiver(status = 200): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    req.on("end", () => {
      got.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(text) });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const sandbox = new Sandbox({ ratePerSecond: 10_000 });
const { pos, messaging, credentials } = sandbox;
let origin: string;
let hook: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  origin = (await sandbox.start()).origin;
  hook = await receiver();
});
afterAll(async () => {
  await sandbox.close();
  await hook.close();
});
beforeEach(() => {
  sandbox.setWebhooks({});
  hook.got.length = 0;
});

async function call(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<{ status: number; body: Body }> {
  const url = new URL(origin + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
const posCall = (method: string, path: string, body?: unknown) => call(method, `/pos/api/v1/shops/${credentials.shopId}${path}`, body, { api_key: credentials.posApiKey });
const pageCall = (method: string, c: ConversationRecord, suffix: string, body?: unknown) =>
  call(method, `/api/public_api/v1/pages/${c.page_id}/conversations/${c.id}${suffix}`, body, { page_access_token: credentials.pageTokens[c.page_id]! });
const received = (kind: string) => hook.got.filter((r) => (r.body.event_type ?? kindOf(r.body)) === kind).map((r) => r.body);
const kindOf = (body: Body) => (body.data?.record ? "variations_warehouses" : "status_history" in body ? "orders" : "customers");

describe("the POS webhook", () => {
  beforeEach(() => sandbox.setWebhooks({ pos: { url: hook.url, headers: { "X-API-KEY": "shop-secret" } } }));

  it("posts an order changed through the API, and the stock it moved, with the shop's headers", async () => {
    const order = pos.orders.find((o) => o.status === 0 && !o.is_removed)!;
    const { status } = await posCall("PUT", `/orders/${order.id}`, { status: 6 });
    expect(status).toBe(200);
    await sandbox.webhooksSettled();
    const [posted] = received("orders");
    expect(posted).toEqual(JSON.parse(JSON.stringify(order)));
    expect(posted.status).toBe(6);
    expect(hook.got.every((r) => r.headers["x-api-key"] === "shop-secret" && r.headers["content-type"] === "application/json")).toBe(true);
    // A canceled order's units go back on sale: one stock record per line.
    const stock = received("variations_warehouses").map((b) => b.data.record);
    expect(stock.map((r) => [r.variation_id, r.warehouse_id, r.change_quantity])).toEqual(order.items.map((i) => [i.variation_id, order.warehouse_id, i.quantity]));
    for (const r of stock) {
      const now = pos.variations.find((v) => v.id === r.variation_id)!.variations_warehouses.find((w) => w.warehouse_id === r.warehouse_id)!;
      expect([r.remain_quantity, r.actual_remain_quantity]).toEqual([now.remain_quantity, now.actual_remain_quantity]);
    }
    expect(sandbox.webhookDeliveries.every((d) => d.status === 200 && d.url === hook.url)).toBe(true);
  });

  it("posts orders changed elsewhere: a status move, a deletion (status 7) and a new order with its new customer", async () => {
    const [moved, deleted] = pos.orders.filter((o) => o.status === 1 && !o.is_removed);
    const before = moved!.updated_at;
    sandbox.simulate.setOrderStatus(moved!.id, 12);
    sandbox.simulate.deleteOrder(deleted!.id);
    const created = sandbox.simulate.newOrder({ bill_full_name: "Trần Thị Mới", bill_phone_number: "0909123987", customer: {} });
    await sandbox.webhooksSettled();
    const orders = received("orders");
    expect(orders.map((o: OrderRecord) => [o.id, o.status])).toEqual([
      [moved!.id, 12],
      [deleted!.id, 7],
      [created.id, 0],
    ]);
    expect(moved!.updated_at > before).toBe(true);
    expect(orders[0].updated_at).toBe(moved!.updated_at);
    expect(orders[1].status_history.at(-1)).toMatchObject({ old_status: 1, status: 7 });
    const [customer] = received("customers");
    expect(customer).toMatchObject({ id: created.shop_customer_id, phone_numbers: ["0909123987"], order_count: 1 });
    // The order made elsewhere is in the shop's list, as any order.
    const list = await posCall("GET", `/orders?search=0909123987`);
    expect(list.body.data.map((o: OrderRecord) => o.id)).toEqual([created.id]);
  });

  it("posts a customer created or edited through the API, and only the types the shop chose", async () => {
    const { body } = await posCall("POST", "/customers", { name: "Lê Văn Hook", phoneNumber: "0977000111" });
    await posCall("PUT", `/customers/${body.data.id}`, { customer: { name: "Lê Văn Hook 2" } });
    await sandbox.webhooksSettled();
    expect(received("customers").map((c) => [c.id, c.name])).toEqual([
      [body.data.id, "Lê Văn Hook"],
      [body.data.id, "Lê Văn Hook 2"],
    ]);
    hook.got.length = 0;
    sandbox.setWebhooks({ pos: { url: hook.url, types: ["customers"] } });
    sandbox.simulate.setOrderStatus(pos.orders.find((o) => o.status === 12)!.id, 13);
    await sandbox.webhooksSettled();
    expect(hook.got).toEqual([]);
  });
});

describe("the messaging webhook", () => {
  beforeEach(() => sandbox.setWebhooks({ messaging: { url: hook.url } }));
  const inbox = () => messaging.conversations.find((c) => c.type === "INBOX" && c.page_id === messaging.pages[0]!.id && c.seen)!;
  const versions = () => received("conversation").map((b) => [b.data.conversation.id, b.data.conversation.version]);

  it("posts a customer's message as a messaging event and the conversation it changed as a conversation event", async () => {
    const c = inbox();
    const message = sandbox.simulate.customerMessage(c.id, "Shop ơi mình muốn đổi size");
    await sandbox.webhooksSettled();
    expect(hook.got.map((r) => r.body.event_type)).toEqual(["messaging", "conversation"]);
    const [event] = received("messaging");
    const profile = messaging.customers.find((p) => p.page_id === c.page_id && p.psid === c.from.id)!;
    expect(event).toEqual({
      page_id: c.page_id,
      event_type: "messaging",
      data: {
        conversation: expect.objectContaining({ id: c.id, seen: false, snippet: "Shop ơi mình muốn đổi size", is_replied: false, tags: c.tags, type: "INBOX" }),
        message: { ...JSON.parse(JSON.stringify(message)), from: { id: c.from.id, name: c.from.name, page_customer_id: profile.id } },
        post: null,
      },
    });
    const [changed] = received("conversation");
    expect(changed).toMatchObject({ event_type: "conversation", page_id: c.page_id, data: { conversation: { id: c.id, customer_id: c.customer_id, seen: false, assignee_ids: c.assignee_ids } } });
    expect(changed.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(changed.timestamp * 1000 - Date.parse(`${c.updated_at}Z`))).toBeLessThan(5_000);
  });

  it("posts every change to a conversation, through the API or the web app, each with a higher version", async () => {
    const c = inbox();
    sandbox.simulate.customerMessage(c.id, "Còn màu đen không ạ?");
    const reply = await pageCall("POST", c, "/messages", { action: "reply_inbox", message: "Dạ còn ạ" });
    expect(reply.body.success).toBe(true);
    const tag = messaging.tags[c.page_id]!.find((t) => !c.tags.includes(t.id))!;
    await pageCall("POST", c, "/tags", { action: "add", tag_id: tag.id });
    sandbox.simulate.markRead(c.id, false);
    sandbox.simulate.markRead(c.id);
    sandbox.simulate.tag(c.id, tag.id, "remove");
    await sandbox.webhooksSettled();
    const events = received("conversation").map((b) => b.data.conversation);
    expect(events.map((e) => [e.seen, e.is_replied, e.tags.includes(tag.id)])).toEqual([
      [false, false, false], // the customer wrote
      [true, true, false], // staff answered (through the API)
      [true, true, true], // tagged through the API
      [false, true, true], // marked unread in the web app
      [true, true, true], // read
      [true, true, false], // untagged in the web app
    ]);
    const numbers = versions().map(([, v]) => v as number);
    expect(numbers.every((v, i) => i === 0 || v > numbers[i - 1]!)).toBe(true);
    const [, staffMessage] = received("messaging");
    expect(staffMessage.data.message).toMatchObject({ id: reply.body.id, original_message: "Dạ còn ạ", from: { admin_id: expect.any(String) } });
    expect(c.tag_histories.at(-1)!.payload).toMatchObject({ action: "remove", editor_id: expect.stringMatching(/.+/) });
  });

  it("posts a comment with its post, and a new customer's first message with the new conversation", async () => {
    const comment = messaging.conversations.find((c) => c.type === "COMMENT" && c.page_id === messaging.pages[0]!.id)!;
    sandbox.simulate.customerMessage(comment.id, "Giá bao nhiêu ạ?");
    const page = messaging.pages[1]!;
    const created = sandbox.simulate.newConversation(page.id, { text: "Chào shop" });
    await sandbox.webhooksSettled();
    const [onPost, first] = received("messaging");
    expect(onPost.data.post.id).toBe(comment.post_id);
    expect(onPost.data.message.parent_id).toBe(messaging.messages[comment.id]![0]!.id);
    expect(first.data).toMatchObject({ conversation: { id: created.id, type: "INBOX" }, message: { original_message: "Chào shop" }, post: null });
    // The new conversation is on its page's list, first.
    const list = await call("GET", `/api/public_api/v2/pages/${page.id}/conversations`, undefined, { page_access_token: credentials.pageTokens[page.id]! });
    expect(list.body.conversations[0].id).toBe(created.id);
    expect(messaging.customers.some((p) => p.page_id === page.id && p.psid === created.from.id)).toBe(true);
  });
});

describe("a receiver that fails", () => {
  it("never fails or slows the write; each delivery records its answer or error, and no settings send nothing", async () => {
    const failing = await receiver(500);
    const gone = await receiver();
    await gone.close();
    sandbox.setWebhooks({ pos: { url: gone.url }, messaging: { url: failing.url } });
    const order = pos.orders.find((o) => o.status === 13)!;
    const put = await posCall("PUT", `/orders/${order.id}`, { status: 8 });
    expect(put.status).toBe(200);
    sandbox.simulate.customerMessage(messaging.conversations[0]!.id, "alo");
    await sandbox.webhooksSettled();
    const last = sandbox.webhookDeliveries.slice(-3);
    expect(last.map((d) => [d.event, d.status, typeof d.error])).toEqual([
      ["orders", undefined, "string"],
      ["messaging", 500, "undefined"],
      ["conversation", 500, "undefined"],
    ]);
    const count = sandbox.webhookDeliveries.length;
    sandbox.setWebhooks({});
    sandbox.simulate.customerMessage(messaging.conversations[0]!.id, "alo alo");
    await sandbox.webhooksSettled();
    expect(sandbox.webhookDeliveries).toHaveLength(count);
    await failing.close();
  });
});
