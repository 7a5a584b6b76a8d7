import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { normalizePhone } from "../../../src/format/phone.js";
import type { ConversationRecord } from "../../../src/sandbox/messaging/index.js";
import type { OrderRecord } from "../../../src/sandbox/pos/types.js";
import { chatIds } from "../../helpers/chat-sales.js";
import { startHarness, useHarness } from "../../helpers/harness.js";

// Issue 34, "who on Mây Kids has waited over 2 days for a reply and has an order not yet
// delivered": one call of list_conversations (waiting_minutes, with_open_orders), every row
// carrying the POS customer the chat belongs to and their open orders, equal to what the
// sandbox's raw records say. Before it: the conversations listed, the undelivered orders listed
// (ten statuses spelled out), joined by name, then one search_customers a chat (8 calls, 13,500 tokens).

const h = useHarness({ sandbox: { ratePerSecond: 100_000 } });
const at = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const TWO_DAYS_MIN = 2 * 24 * 60;

/** Not yet delivered: new, waiting_for_confirmation, waiting_for_goods, ordered, confirmed, waiting_to_print, printed, packing, waiting_to_ship, shipped. */
const UNDELIVERED = new Set([0, 17, 11, 20, 1, 12, 13, 8, 9, 2]);
/** Delivered (received, money_collected) or canceled. */
const DONE = new Set([3, 16, 6]);

const page = () => h.sandbox.messaging.pages.find((p) => p.name.startsWith("Mây Kids"))!;

/** Conversations of Mây Kids whose last message is the customer's, written at least two days ago. */
function waitingTwoDays(): ConversationRecord[] {
  const m = h.sandbox.messaging;
  return m.conversations.filter((c) => {
    const last = m.messages[c.id]?.at(-1);
    const since = at(c.last_customer_interactive_at ?? c.updated_at);
    return c.page_id === page().id && !c.is_removed && !!last && last.from.admin_id === undefined && Date.now() - since >= TWO_DAYS_MIN * 60_000;
  });
}

// The chat's customer's ids on the platform (its psid, the global id of its page customer and that id's psids elsewhere) and the phones the inbox caught of them.
const psidsOf = (c: ConversationRecord) => chatIds(h.sandbox, c).socials;
const phonesOf = (c: ConversationRecord) => chatIds(h.sandbox, c).phones;
const newestFirst = (a: OrderRecord, b: OrderRecord) => b.inserted_at.localeCompare(a.inserted_at) || b.id - a.id;

type By = "order link" | "social id" | "phone";

/** The chat's links to orders as the orders carry them, strongest first: the order names the chat, its customer's fb_id is the chat's, its bill phone one the chat captured. */
function linkedOrders(c: ConversationRecord, orders: OrderRecord[]): { by: By; order: OrderRecord }[] {
  const live = orders.filter((o) => !o.is_removed).sort(newestFirst);
  const psids = psidsOf(c);
  const phones = phonesOf(c);
  return [
    ...live.filter((o) => o.conversation_id === c.id).map((order) => ({ by: "order link" as const, order })),
    ...live.filter((o) => !!o.customer?.fb_id && psids.has(o.customer.fb_id)).map((order) => ({ by: "social id" as const, order })),
    ...live.filter((o) => phones.has(normalizePhone(o.bill_phone_number) ?? "")).map((order) => ({ by: "phone" as const, order })),
  ];
}

interface Expected {
  id: string;
  customerId: string;
  by: By;
  open: OrderRecord[];
}

/** The truth from the raw records: each waiting chat's POS customer by its strongest link to an open order, and that customer's open orders. */
function truth(): Expected[] {
  const open = h.sandbox.pos.orders.filter((o) => UNDELIVERED.has(o.status));
  return waitingTwoDays().flatMap((c) => {
    const links = linkedOrders(c, open);
    const best = links[0];
    if (!best) return [];
    const customerId = best.order.shop_customer_id!;
    expect(customerId, c.id).toBeTruthy();
    const theirs = open.filter((o) => !o.is_removed && o.shop_customer_id === customerId).sort(newestFirst);
    return [{ id: c.id, customerId, by: best.by, open: theirs }];
  });
}

/** The POS's own customer records a chat belongs to: its fb_id the chat's, its conversation_link naming the chat's customer, or a phone the chat captured. */
function posCustomersOf(c: ConversationRecord): Set<string> {
  const psids = psidsOf(c);
  const phones = phonesOf(c);
  return new Set(
    h.sandbox.pos.customers
      .filter(
        (p) =>
          (p.fb_id !== null && psids.has(p.fb_id)) ||
          (p.conversation_link ?? "").endsWith(`customer_id=${c.customer_id}`) ||
          p.phone_numbers.some((n) => phones.has(normalizePhone(n) ?? "")),
      )
      .map((p) => p.id),
  );
}

interface Row {
  id: string;
  waiting_minutes: number;
  pos_customer: { id: string; name: string; by: By };
  open_orders: { id: string; number: string; status: string; amount: number }[];
  open_orders_total: number;
}

const ASK = { page_ids: ["Mây Kids"], waiting_minutes: TWO_DAYS_MIN, with_open_orders: true };

describe("list_conversations with_open_orders: chats joined to orders", () => {
  it("answers who waited over 2 days and has an undelivered order in one call, equal to the raw records", async () => {
    const want = truth();
    // The demo shop's figure (issue 34 counted 8 on its day; the test clock's day has its own).
    expect(want.length).toBe(8);
    // The POS's own customer records agree with the orders' links: each chat's POS customer is one the POS ties to the chat.
    for (const w of want) expect(posCustomersOf(h.sandbox.messaging.conversations.find((c) => c.id === w.id)!).has(w.customerId), w.id).toBe(true);
    // …and no other waiting chat has a POS customer with an open order.
    const open = h.sandbox.pos.orders.filter((o) => !o.is_removed && UNDELIVERED.has(o.status));
    const byRecords = waitingTwoDays().filter((c) => open.some((o) => o.shop_customer_id !== null && posCustomersOf(c).has(o.shop_customer_id)));
    expect(byRecords.map((c) => c.id).sort()).toEqual(want.map((w) => w.id).sort());

    const r = await h.call("list_conversations", ASK);
    expect(r.isError, r.text).toBe(false);
    const tokens = countTokens(r.text);
    expect(tokens).toBeLessThanOrEqual(4_000);
    expect(r.data.complete).toBe(true);
    expect(r.data.total).toBe(want.length);
    const rows = r.data.conversations as Row[];
    expect(rows.map((row) => row.id).sort()).toEqual(want.map((w) => w.id).sort());
    // The longest wait first.
    const waits = rows.map((row) => Number(row.waiting_minutes));
    expect(waits).toEqual([...waits].sort((a, b) => b - a));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(TWO_DAYS_MIN);
    for (const w of want) {
      const row = rows.find((x) => x.id === w.id)!;
      expect(row.pos_customer.id, w.id).toBe(w.customerId);
      expect(row.pos_customer.by, w.id).toBe(w.by);
      expect(row.pos_customer.name, w.id).toBe(h.sandbox.pos.customers.find((p) => p.id === w.customerId)!.name);
      expect(row.open_orders_total, w.id).toBe(w.open.length);
      expect(
        row.open_orders,
        w.id,
      ).toEqual(w.open.slice(0, 3).map((o) => ({ id: String(o.id), number: `#${o.display_id}`, status: o.status_name, amount: o.total_price_after_sub_discount })));
    }
    // The order's link and the social id are exercised here (the one chat found by phone alone before
    // is reached by its page customer's global id now: stronger); phone links, in chat-sales.test.ts.
    expect(new Set(want.map((w) => w.by))).toEqual(new Set(["order link", "social id"]));
    expect(r.data.note).toMatch(/never by name/);
  });

  it("leaves out a chat whose customer's orders are all delivered or canceled", async () => {
    const orders = h.sandbox.pos.orders;
    const done = waitingTwoDays().filter((c) => {
      const links = linkedOrders(c, orders);
      const customers = new Set(links.map((l) => l.order.shop_customer_id));
      const theirs = orders.filter((o) => !o.is_removed && customers.has(o.shop_customer_id));
      return links.length > 0 && theirs.every((o) => DONE.has(o.status));
    });
    expect(done.length).toBeGreaterThan(0);
    const r = await h.call("list_conversations", ASK);
    expect(r.isError, r.text).toBe(false);
    const ids = new Set((r.data.conversations as { id: string }[]).map((row) => row.id));
    for (const c of done) expect(ids.has(c.id), c.id).toBe(false);
    // Without the filter the same chats are there.
    const all = await h.call("list_conversations", { ...ASK, with_open_orders: undefined, limit: 50 });
    const every = new Set((all.data.conversations as { id: string }[]).map((row) => row.id));
    for (const c of done) expect(every.has(c.id), c.id).toBe(true);
  });

  it("counts the same with group_by", async () => {
    const want = truth();
    const r = await h.call("list_conversations", { ...ASK, group_by: ["page"] });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.complete).toBe(true);
    expect(r.data.total).toBe(want.length);
    expect(r.data.groups).toEqual([expect.objectContaining({ page_id: page().id, count: want.length })]);
    const byType = await h.call("list_conversations", { ...ASK, group_by: ["type"] });
    const types = new Map<string, number>();
    for (const w of want) {
      const type = h.sandbox.messaging.conversations.find((c) => c.id === w.id)!.type;
      types.set(type, (types.get(type) ?? 0) + 1);
    }
    expect(new Map((byType.data.groups as { type: string; count: number }[]).map((g) => [g.type, g.count]))).toEqual(types);
  });

  it("refuses with_open_orders: false, and without the POS says so before reading anything", async () => {
    const r = await h.call("list_conversations", { ...ASK, with_open_orders: false });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/with_open_orders.*takes true only/);
    const inboxOnly = await startHarness({ shared: h.sandbox, config: { posApiKeys: {} } });
    try {
      const before = h.sandbox.server.requests.length;
      const refused = await inboxOnly.call("list_conversations", ASK);
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/with_open_orders.*needs the POS/);
      // No conversation or order was read (the page's name may be resolved first).
      expect(h.sandbox.server.requests.slice(before).filter((q) => /conversations|orders/.test(q.path))).toEqual([]);
    } finally {
      await inboxOnly.close();
    }
  });
});

describe("list_conversations with_open_orders while the order index is first read", () => {
  it("answers within the call's budget, not complete, with the reading's note, then exactly", async () => {
    const budget = 5;
    const slow = await startHarness({ sandbox: { ratePerSecond: 100_000 }, config: { callBudgetSeconds: budget } });
    try {
      // The POS answers its order list slowly: the first read of the shop's orders outlasts a call.
      slow.sandbox.server.injectFault({ method: "GET", path: /\/shops\/[^/]+\/orders$/, kind: "latency", delayMs: 7_000, times: 2 });
      const t0 = Date.now();
      const first = await slow.call("list_conversations", ASK);
      expect(Date.now() - t0).toBeLessThan(budget * 1000);
      expect(first.isError, first.text).toBe(false);
      expect(first.data.complete).toBe(false);
      expect(first.data.total).toBeUndefined();
      expect(first.data.ask_again_in_s).toBeGreaterThan(0);
      expect(first.data.note).toMatch(/Still reading the orders of shop .* so far.*ask again in about \d+ s/);
      const grouped = await slow.call("list_conversations", { ...ASK, group_by: ["page"] });
      if (grouped.data.complete === false) expect(grouped.data.note).toMatch(/Still reading the orders of shop/);
      // Asked again as told, the answer is exact.
      let last = first;
      for (let i = 0; i < 6 && last.data.complete !== true; i++) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(3, Number(last.data.ask_again_in_s ?? 3)) * 1000));
        last = await slow.call("list_conversations", ASK);
      }
      expect(last.data.complete).toBe(true);
      // The two sandboxes hold the same records (one seed, one clock): the truth is the same.
      expect(slow.sandbox.pos.orders.length).toBe(h.sandbox.pos.orders.length);
      expect(new Set((last.data.conversations as { id: string }[]).map((row) => row.id))).toEqual(new Set(truth().map((w) => w.id)));
      expect(last.data.total).toBe(truth().length);
    } finally {
      await slow.close();
    }
  }, 60_000);
});
