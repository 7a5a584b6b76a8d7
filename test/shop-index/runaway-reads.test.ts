import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Clients, createClients } from "../../src/clients/index.js";
import type { ConversationListParams, MessagingClient } from "../../src/clients/messaging.js";
import type { OrderListParams, PosClient } from "../../src/clients/pos.js";
import type { Conversation } from "../../src/clients/schemas/messaging.js";
import type { PosOrder } from "../../src/clients/schemas/pos.js";
import { makeConfig } from "../../src/config.js";
import { Logger } from "../../src/log.js";
import { Sandbox } from "../../src/sandbox/index.js";
import { conversationKind } from "../../src/shop-index/conversation-rows.js";
import { orderKind } from "../../src/shop-index/order-kind.js";
import { startHarness } from "../helpers/harness.js";

// The shop index's reads against lists that misbehave as live services have been seen to (issue
// 43; the sandbox injects each, src/sandbox/quirks.ts): none runs away. Each read goes through a
// client that gives up past RAN_AWAY requests, so a reader that would page on for ever fails here.

const RAN_AWAY = 1_500;
const quiet = async () => {};

function clientsFor(sandbox: Sandbox): Clients {
  const urls = sandbox.started;
  const config = makeConfig({
    baseUrl: urls.messagingBaseUrl,
    posBaseUrl: urls.posBaseUrl,
    accessToken: sandbox.credentials.userToken,
    posApiKeys: { "*": sandbox.credentials.posApiKey },
  });
  return createClients(config, new Logger("error", false));
}

/** What a read gave its sink, and the requests it made. */
class Sink<R> {
  rows: R[] = [];
  requests = 0;
  add = (batch: readonly R[]) => this.rows.push(...batch);
  count() {
    if (++this.requests > RAN_AWAY) throw new Error(`ran away: ${this.requests} requests`);
  }
}

/** A describe block's own sandbox and clients of it, the sandbox made to behave again after each test. */
function misbehaving(sandbox: Sandbox) {
  let clients: Clients | undefined;
  beforeAll(async () => {
    await sandbox.start();
    clients = clientsFor(sandbox);
  });
  afterAll(async () => {
    await clients?.close();
    await sandbox.close();
  });
  afterEach(() => sandbox.behave());
  return { sandbox, clients: () => clients! };
}

describe("the order index's read against an order list that misbehaves", () => {
  // Twice the demo shop: over 1,000 orders, so the read goes by windows of the list's totals.
  const { sandbox, clients } = misbehaving(new Sandbox({ scale: 2, ratePerSecond: 1e9 }));

  async function read(since: number | null = null) {
    const sink = new Sink<PosOrder>();
    const pos = {
      listOrders: (shop: string, q: OrderListParams) => {
        sink.count();
        return clients().pos.listOrders(shop, q);
      },
    } as unknown as PosClient;
    const result = await orderKind(String(sandbox.credentials.shopId))
      .read(pos, since, undefined, quiet, { rows: (b) => sink.add(b), covered: () => {} })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    return { error: result, requests: sink.requests, ids: new Set(sink.rows.map((o) => String(o.id))) };
  }

  it("reads every order when the list behaves", async () => {
    const { error, ids, requests } = await read();
    expect(error).toBeUndefined();
    expect(ids).toEqual(new Set(sandbox.pos.orders.map((o) => String(o.id))));
    expect(requests).toBeLessThan(40);
  });

  it("ends a window at its first empty page, whatever its total says, and still reads every order by narrower windows", async () => {
    sandbox.misbehave({ kind: "empty_after_first", path: /\/orders$/ });
    const { error, ids, requests } = await read();
    expect(error).toBeUndefined();
    expect(ids).toEqual(new Set(sandbox.pos.orders.map((o) => String(o.id))));
    // A window whose pages end before its total is split into parts of about what they served
    // (126 requests before: every page the totals announced, asked twice, then halves).
    expect(requests).toBeLessThan(60);
  });

  it("stops at the first order outside the range asked, naming the parameter the list ignored", async () => {
    sandbox.misbehave({ kind: "ignore_range", path: /\/orders$/ });
    const { error, requests } = await read();
    expect(error?.message).toMatch(/^the order list ignored (startDateTime|endDateTime): asked for orders updated (from|up to) .+ UTC, it served one updated /);
    expect(requests).toBeLessThan(20);
    // A refresh (orders updated in the last hour) stops at its first page.
    const refresh = await read(Math.floor(Date.now() / 1000) - 3_600);
    expect(refresh.error?.message).toMatch(/ignored startDateTime/);
    expect(refresh.requests).toBe(1);
  });

  it("stops splitting a window whose parts each count as many orders as the whole (the total is not the range's)", async () => {
    sandbox.misbehave({ kind: "fixed_total", total: 5_000, path: /\/orders$/ });
    const { error, requests } = await read();
    expect(error?.message).toMatch(/^the order list's total is not the range's: it counted 5,000 orders updated from .+ and 5,000 in a part of that$/);
    expect(requests).toBeLessThan(80);
  });

  it("stops at a page that repeats an earlier one", async () => {
    // The total says more than the list holds, and a page past its end answers the first again.
    sandbox.misbehave({ kind: "fixed_total", total: 3_000, path: /\/orders$/ });
    sandbox.misbehave({ kind: "first_page_again", path: /\/orders$/ });
    const { error, requests } = await read();
    expect(error?.message).toMatch(/^the order list answered page \d+ of updates from .+ with page 1's orders again$/);
    expect(requests).toBeLessThan(40);
  });
});

describe("the conversation index's read against a conversation list that misbehaves", () => {
  const { sandbox, clients } = misbehaving(new Sandbox({ ratePerSecond: 1e9 }));
  const page = sandbox.messaging.pages[0]!.id;

  async function read() {
    const sink = new Sink<Conversation>();
    const messaging = {
      listConversations: (id: string, q: ConversationListParams) => {
        sink.count();
        return clients().messaging.listConversations(id, q);
      },
    } as unknown as MessagingClient;
    const error = await conversationKind(page)
      .read(messaging, null, undefined, quiet, { rows: (b) => sink.add(b), covered: () => {} })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    return { error, requests: sink.requests, ids: new Set(sink.rows.map((c) => String(c.id))) };
  }
  const held = () => new Set(sandbox.messaging.conversations.filter((c) => c.page_id === page).map((c) => c.id));

  it("stops at the first conversation outside since/until, naming the one the list ignored", async () => {
    sandbox.misbehave({ kind: "ignore_range", path: "/conversations" });
    const { error, requests } = await read();
    expect(error?.message).toMatch(/^the conversation list ignored until: asked for conversations updated up to .+ UTC, it served one updated /);
    expect(requests).toBe(2);
  });

  it("stops where a call after the list's cursor serves conversations it served before", async () => {
    // The page's 120 oldest conversations share one second: the walk goes through them by the
    // list's cursor, and past the last of them the list answers its first page again.
    const oldest = sandbox.messaging.conversations
      .filter((c) => c.page_id === page)
      .sort((a, b) => a.updated_at.localeCompare(b.updated_at))
      .slice(0, 120);
    const saved = oldest.map((c) => c.updated_at);
    for (const c of oldest) c.updated_at = "2020-01-01T00:00:00";
    try {
      const behaved = await read();
      expect(behaved.error).toBeUndefined();
      expect(behaved.ids).toEqual(held());
      sandbox.misbehave({ kind: "first_page_again", path: "/conversations" });
      const { error, requests } = await read();
      expect(error?.message).toMatch(/^the conversation list answered the call after conversation \S+ with conversations it had served again$/);
      expect(requests).toBe(behaved.requests);
    } finally {
      oldest.forEach((c, i) => {
        c.updated_at = saved[i]!;
      });
    }
  });
});

describe("an answer from an index whose read stopped", () => {
  it("says what the list did", async () => {
    const h = await startHarness({ sandbox: { ratePerSecond: 1e9, quirks: [{ kind: "ignore_range", path: /\/orders$/ }] }, config: { posStatistics: false } });
    try {
      const r = await h.call("search_orders", { group_by: ["status"] });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.complete).toBe(false);
      expect(r.data.note).toMatch(/the read stopped \(the order list ignored startDateTime: asked for orders updated from .+\)/);
    } finally {
      await h.close();
    }
  });
});
