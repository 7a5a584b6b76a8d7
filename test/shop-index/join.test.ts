import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClients } from "../../src/clients/index.js";
import { makeConfig } from "../../src/config.js";
import { normalizePhone } from "../../src/format/phone.js";
import { Logger } from "../../src/log.js";
import { Sandbox } from "../../src/sandbox/index.js";
import { conversationKeys } from "../../src/shop-index/conversation-rows.js";
import { closeShopIndexes, shopIndexFor } from "../../src/shop-index/service.js";

// Chats joined to orders where the rows live (SQLite): every pair of a page's chat and a shop's order
// that share the order's link to the chat, the customer's id on the platform or a phone the chat
// captured, each by its strongest link, exactly as the raw records pair them.

const sandbox = new Sandbox({ ratePerSecond: 10_000 });
let index: NonNullable<ReturnType<typeof shopIndexFor>>;
let clients: ReturnType<typeof createClients>;

beforeAll(async () => {
  const urls = await sandbox.start();
  const config = makeConfig({
    baseUrl: urls.messagingBaseUrl,
    posBaseUrl: urls.posBaseUrl,
    accessToken: sandbox.credentials.userToken,
    posApiKeys: { "*": sandbox.credentials.posApiKey },
    index: { mode: "memory", refreshSeconds: 0, maxRows: 300_000, preload: false },
  });
  clients = createClients(config, new Logger("error", false));
  index = shopIndexFor(config, clients.state, new Logger("error", false))!;
});
afterAll(async () => {
  await closeShopIndexes();
  await clients.close();
  await sandbox.close();
});

const RANK = ["order link", "social id", "phone"];

describe("a page's chats joined to a shop's orders", () => {
  it("pairs every chat and order the raw records link, by the strongest link, orders removed left out", async () => {
    const shopId = String(sandbox.pos.shop.id);
    const page = sandbox.messaging.pages.find((p) => sandbox.messaging.conversations.some((c) => c.page_id === p.id && c.recent_phone_numbers.length > 0))!;
    const orders = index.orders(shopId);
    const chats = index.conversations(page.id);
    await orders.view(clients.pos, null, async () => {});
    await chats.view(clients.messaging, null, async () => {});

    const truth = new Map<string, string>();
    const listed = sandbox.pos.orders.filter((o) => !o.is_removed);
    for (const c of sandbox.messaging.conversations.filter((x) => x.page_id === page.id)) {
      const socials = new Set([c.customers[0]?.fb_id, c.from_psid, c.from?.id].filter(Boolean).map(String));
      const phones = new Set(c.recent_phone_numbers.map((p) => normalizePhone(p.phone_number)).filter(Boolean));
      for (const o of listed) {
        const how = [
          o.conversation_id !== null && String(o.conversation_id) === String(c.id),
          o.customer?.fb_id != null && socials.has(String(o.customer.fb_id)),
          phones.has(normalizePhone(o.bill_phone_number) ?? "-"),
        ].indexOf(true);
        if (how >= 0) truth.set(`${c.id}/${o.id}`, RANK[how]!);
      }
    }
    const joined = new Map([...chats.join(orders)].map((j) => [`${j.chat}/${j.order}`, j.how]));
    expect(truth.size).toBeGreaterThan(10);
    expect(new Set(truth.values()).size).toBe(3);
    expect(joined).toEqual(truth);

    // Ranged on both sides: chats created in the last 30 days, their orders of the last 10.
    const now = Math.floor(Date.now() / 1000);
    const recent = [...chats.join(orders, { by: "inserted", from: now - 30 * 86_400 }, { by: "inserted", from: now - 10 * 86_400 })];
    const since = (t: string, days: number) => Date.parse(`${t}Z`) / 1000 >= now - days * 86_400;
    const expected = [...truth.keys()].filter((k) => {
      const [chat, order] = k.split("/");
      const c = sandbox.messaging.conversations.find((x) => String(x.id) === chat)!;
      const o = sandbox.pos.orders.find((x) => String(x.id) === order)!;
      return since(c.inserted_at, 30) && since(o.inserted_at, 10);
    });
    expect(recent.map((j) => `${j.chat}/${j.order}`).sort()).toEqual(expected.sort());
    const sample = recent[0]!;
    const order = sandbox.pos.orders.find((o) => String(o.id) === sample.order)!;
    expect(sample.columns).toMatchObject({ status: order.status, amount: order.total_price_after_sub_discount });
  });

  it("looks one chat's orders up by its keys, and counts a column's values, as the join and the raw records do", async () => {
    const shopId = String(sandbox.pos.shop.id);
    const orders = index.orders(shopId);
    const page = sandbox.messaging.pages[0]!;
    const chats = index.conversations(page.id);
    await orders.view(clients.pos, null, async () => {});
    await chats.view(clients.messaging, null, async () => {});
    const joined = new Map<string, Map<string, string>>();
    for (const j of chats.join(orders)) joined.set(j.chat, (joined.get(j.chat) ?? new Map()).set(j.order, j.how));
    expect(joined.size).toBeGreaterThan(10);
    for (const [chat, pairs] of joined) {
      const row = chats.get(chat)!;
      const found = orders.linked(conversationKeys(row));
      expect(new Map(found.map((o) => [o.order, o.how])), chat).toEqual(pairs);
    }
    // Sales per ad created in the last 30 days, as the raw records count them.
    const from = Math.floor(Date.now() / 1000) - 30 * 86_400;
    const want = new Map<string, { count: number; sum: number }>();
    for (const o of sandbox.pos.orders) {
      if (o.is_removed || o.status === 6 || o.status === 7 || !o.ad_id || Date.parse(`${o.inserted_at}Z`) / 1000 < from) continue;
      const t = want.get(o.ad_id) ?? { count: 0, sum: 0 };
      t.count++;
      t.sum += o.total_price_after_sub_discount;
      want.set(o.ad_id, t);
    }
    const tallied = orders.tally(["ad"], "amount", { by: "inserted", from }, ["status", [6, 7]]).filter((t) => t.values[0] !== null);
    expect(new Map(tallied.map((t) => [String(t.values[0]), { count: t.count, sum: t.sum }]))).toEqual(want);
    expect(() => orders.tally(["ad; DROP TABLE orders"], "amount")).toThrow(/no column/);
  });
});
