import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SCALE, Sandbox } from "../../src/sandbox/index.js";
import type { ConversationRecord, MessageRecord } from "../../src/sandbox/messaging/index.js";
import { localDay } from "../../src/sandbox/messaging/time.js";
import type { OrderRecord } from "../../src/sandbox/pos/index.js";

// A shop N times the demo's: the same shape (every figure a tool could count N times over, spread
// over the same days), each copy its own people and ids, nothing after now. Truths are read off the
// raw records of a scale-1 and a scale-N sandbox built around the same instant.

const N = 4;
const now = new Date("2026-11-22T07:30:00Z");
const one = new Sandbox({ now });
const big = new Sandbox({ now, scale: N, ratePerSecond: 10_000 });
const mainPages = one.messaging.pages.slice(0, 3).map((p) => p.id);

const at = (time: string) => Date.parse(`${time.slice(0, 23)}Z`);
const histogram = <T>(rows: readonly T[], key: (row: T) => unknown) => {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const k = JSON.stringify(key(row));
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
};
const times = (counts: Map<string, number>, by: number) => new Map([...counts].map(([k, v]) => [k, v * by]));
const conversationsOf = (s: Sandbox) => s.messaging.conversations.filter((c) => mainPages.includes(c.page_id));
const isStaff = (m: { admin_id?: string }) => m.admin_id !== undefined;
const unique = (values: unknown[]) => new Set(values).size === values.length;

describe("a scaled shop", () => {
  it("holds N times the orders, buyers, page customers and conversations of the demo shop, under ids of their own", () => {
    expect(big.pos.orders).toHaveLength(N * one.pos.orders.length);
    expect(conversationsOf(big)).toHaveLength(N * conversationsOf(one).length);
    const buyers = (s: Sandbox) => new Set(s.pos.orders.map((o) => o.shop_customer_id)).size;
    expect(buyers(big)).toBe(N * buyers(one));
    const pageCustomers = (s: Sandbox) => s.messaging.customers.filter((c) => mainPages.includes(c.page_id));
    expect(pageCustomers(big)).toHaveLength(N * pageCustomers(one).length);

    const orders = big.pos.orders;
    for (const field of ["id", "display_id", "system_id", "tracking_link"] as const) expect(unique(orders.map((o) => o[field])), field).toBe(true);
    expect(unique(orders.flatMap((o) => o.items.map((i) => i.id)))).toBe(true);
    expect(unique(orders.flatMap((o) => (o.partner ? [o.partner.extend_code] : [])))).toBe(true);
    expect(unique(big.pos.customers.map((c) => c.id))).toBe(true);
    expect(unique(big.pos.customers.map((c) => c.phone_numbers[0]))).toBe(true);
    expect(unique(big.messaging.conversations.map((c) => c.id))).toBe(true);
    expect(unique(pageCustomers(big).map((c) => `${c.page_id}/${c.psid}`))).toBe(true);
    expect(unique(pageCustomers(big).map((c) => c.customer_id))).toBe(true);
    // New ids follow the copies' (the API's next order is not a copy's number).
    expect(big.pos.sequences.order).toBe(orders.length);
    // The messages of the smallest page, built from the originals' when read.
    const messages = big.messaging.conversations.filter((c) => c.page_id === mainPages[2]).flatMap((c) => big.messaging.messages[c.id]!);
    expect(unique(messages.map((m) => m.id))).toBe(true);
  });

  it("keeps every figure of the orders, per customer and of the conversations exactly N times over", () => {
    const orderKeys: ((o: OrderRecord) => unknown)[] = [
      (o) => [o.status, o.is_removed],
      (o) => [o.order_sources, o.account, o.page_id],
      (o) => [o.partner?.partner_id, o.warehouse_id, o.shipping_address.province_id],
      (o) => [o.creator.id, o.assigning_seller_id, o.assigning_care_id, o.marketer?.id],
      (o) => [o.total_price_after_sub_discount, o.cod, o.shipping_fee, o.total_discount, o.items.map((i) => [i.variation_id, i.quantity])],
      (o) => [o.tags, o.ad_id, o.post_id, o.conversation_id === null, o.status_history.map((h) => h.status)],
    ];
    for (const key of orderKeys) expect(histogram(big.pos.orders, key)).toEqual(times(histogram(one.pos.orders, key), N));
    // Orders per customer, and how many customers buy again.
    const perCustomer = (s: Sandbox) => [...histogram(s.pos.orders, (o) => o.shop_customer_id).values()];
    expect(histogram(perCustomer(big), (n) => n)).toEqual(times(histogram(perCustomer(one), (n) => n), N));
    const conversationKeys: ((c: ConversationRecord) => unknown)[] = [
      (c) => [c.page_id, c.type, c.post_id],
      (c) => [c.tags, c.assignee_ids, c.seen, c.unread_count],
      (c) => [isStaff(c.last_sent_by), c.message_count, c.has_phone, c.ad_ids, c.tag_histories.length],
    ];
    for (const key of conversationKeys) expect(histogram(conversationsOf(big), key)).toEqual(times(histogram(conversationsOf(one), key), N));
  });

  it("makes copy k of a record the original moved back in time, with ids and a customer of its own and nothing else changed", () => {
    const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/;
    /** Where two records differ: each time moved back by one offset, every other change only at `allowed` paths (indices left out). */
    function compare(original: unknown, copy: unknown, allowed: Set<string>, label: string): void {
      const offsets = new Set<number>();
      const walk = (a: unknown, b: unknown, path: string) => {
        if (typeof a === "string" && TIME.test(a) && typeof b === "string") return void offsets.add(at(a) - at(b));
        if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
          const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
          for (const key of keys) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], Array.isArray(a) ? path : path ? `${path}.${key}` : key);
          return;
        }
        if (a !== b) expect(allowed.has(path), `${label} ${path}: ${JSON.stringify(a)} -> ${JSON.stringify(b)}`).toBe(true);
      };
      walk(original, copy, "");
      expect(offsets.size, `${label} moves every time by one offset`).toBe(1);
      const [offset] = offsets;
      expect(offset, label).toBeGreaterThan(0);
      expect(offset, label).toBeLessThanOrEqual(4 * 3_600_000 + 60_000);
    }
    const orderIds = ["id", "system_id", "display_id", "tracking_link", "items.id", "partner.extend_code", "partner.extend_update.tracking_id"];
    const buyer = ["bill_full_name", "bill_phone_number", "shipping_address.full_name", "shipping_address.phone_number", "shop_customer_id", "conversation_id"];
    const orderFields = new Set([...orderIds, ...buyer, "customer.id", "customer.customer_id", "customer.fb_id", "customer.name", "change_by_orders"]);
    // The copies follow the originals, copy 1 of each first, then copy 2, and so on.
    const originals = one.pos.orders;
    for (let k = 1; k < N; k++) {
      for (const [i, o] of originals.entries()) compare(o, big.pos.orders[k * originals.length + i], orderFields, `order ${o.id} copy ${k}`);
    }
    const person = ["from.id", "from.name", "from_psid", "customer_id", "customers.id", "customers.fb_id", "customers.name", "customers.avatar_url", "thread_id", "thread_key"];
    const phone = ["snippet", "recent_phone_numbers.captured", "recent_phone_numbers.m_content", "recent_phone_numbers.m_id", "recent_phone_numbers.phone_number"];
    const conversationFields = new Set([
      "id",
      ...person,
      ...phone,
      "last_sent_by.id",
      "last_sent_by.name",
      "tag_histories.conversation_id",
      "assignee_histories.conversation_id",
      "read_watermarks.message_id",
      "read_watermarks.psid",
      "read_watermarks.watermark",
    ]);
    const [conversations, copies] = [conversationsOf(one), conversationsOf(big)];
    for (let k = 1; k < N; k++) {
      for (const [i, c] of conversations.entries()) compare(c, copies[k * conversations.length + i], conversationFields, `conversation ${c.id} copy ${k}`);
    }
  });

  it("spreads the copies over the same days, each a few minutes to a few hours earlier, none after now", () => {
    // A copy is earlier than its original by less than a day: up to a day D the scaled shop has at
    // least N times the orders the demo shop has, and no more than N times those up to the next day.
    const check = (label: string, original: string[], scaled: string[]) => {
      const days = [...new Set([...original, ...scaled].map((t) => localDay(at(t))))].sort();
      const upTo = (list: string[], day: string | undefined) => list.filter((t) => day !== undefined && localDay(at(t)) <= day).length;
      days.forEach((day, i) => {
        expect(upTo(scaled, day), `${label} up to ${day}`).toBeGreaterThanOrEqual(N * upTo(original, day));
        expect(upTo(scaled, day), `${label} up to ${day}`).toBeLessThanOrEqual(N * upTo(original, days[i + 1] ?? day));
      });
      // Copies do not share their originals' times (a chance meeting of two others aside).
      expect(new Set(scaled).size).toBeGreaterThan(0.99 * N * new Set(original).size);
    };
    check("orders created", one.pos.orders.map((o) => o.inserted_at), big.pos.orders.map((o) => o.inserted_at));
    check("orders updated", one.pos.orders.map((o) => o.updated_at), big.pos.orders.map((o) => o.updated_at));
    check("conversations updated", conversationsOf(one).map((c) => c.updated_at), conversationsOf(big).map((c) => c.updated_at));

    const orderTimes = (o: OrderRecord) => [
      o.inserted_at,
      o.updated_at,
      o.last_update_status_at,
      ...o.status_history.map((h) => h.updated_at),
      ...[o.partner?.updated_at, o.partner?.paid_at, o.partner?.picked_up_at, o.time_assign_seller, o.time_assign_care].filter((t) => typeof t === "string"),
    ];
    const latest = Math.max(...big.pos.orders.flatMap(orderTimes).map(at));
    expect(latest).toBeLessThanOrEqual(now.getTime());
    const conversationTimes = (c: ConversationRecord) => [c.inserted_at, c.updated_at, ...c.tag_histories.map((h) => h.inserted_at)];
    expect(Math.max(...big.messaging.conversations.flatMap(conversationTimes).map(at))).toBeLessThanOrEqual(now.getTime());
    // A comment comes after its post, and an order made from a thread after the thread began.
    const posts = new Map(big.messaging.posts.map((p) => [p.id, at(p.inserted_at)]));
    for (const c of conversationsOf(big)) if (c.post_id) expect(at(c.inserted_at)).toBeGreaterThan(posts.get(c.post_id)!);
    for (const o of big.pos.orders) if (o.conversation_id) expect(big.messaging.begun[o.conversation_id]).toBeLessThan(at(o.inserted_at));
  });

  it("gives each copy its own customers, linked to their orders and chats as the originals are", () => {
    const conversations = new Map(big.messaging.conversations.map((c) => [c.id, c]));
    const customers = new Map(big.pos.customers.map((c) => [c.id, c]));
    const profileOf = (s: Sandbox, c: ConversationRecord) => s.messaging.customers.find((p) => p.page_id === c.page_id && p.psid === c.from.id)!;
    for (const o of big.pos.orders) {
      const customer = customers.get(o.shop_customer_id!)!;
      expect(o.customer?.id).toBe(customer.id);
      expect(o.bill_phone_number).toBe(customer.phone_numbers[0]);
      if (!o.conversation_id) continue;
      // The thread the order was made from is its customer's, by the chat's id the POS holds.
      const thread = conversations.get(o.conversation_id)!;
      expect(thread.page_id).toBe(o.page_id);
      expect([thread.from.id, profileOf(big, thread).global_id]).toContain(customer.fb_id);
    }
    const linked = (s: Sandbox, buyers: boolean) =>
      s.pos.customers.filter((c) => c.conversation_link && s.pos.orders.some((o) => o.shop_customer_id === c.id) === buyers);
    expect(linked(big, true)).toHaveLength(N * linked(one, true).length);
    expect(linked(big, false)).toHaveLength(linked(one, false).length);
    const pageCustomerIds = new Set(big.messaging.customers.map((c) => c.customer_id));
    for (const c of linked(big, true)) expect(pageCustomerIds.has(new URL(c.conversation_link!).searchParams.get("customer_id")!)).toBe(true);
    // A copy's chat shows its own customer's number where the original's showed theirs.
    const captured = (s: Sandbox) => conversationsOf(s).flatMap((c) => c.recent_phone_numbers.map((p) => p.phone_number));
    expect(new Set(captured(big)).size).toBe(N * new Set(captured(one)).size);
    for (const c of conversationsOf(big)) {
      for (const p of c.recent_phone_numbers) expect(profileOf(big, c).phone_numbers).toContain(p.phone_number);
    }
  });

  it("builds a copy's messages from the original's: the same texts and senders' roles, its own ids, times and customer", () => {
    for (const copy of conversationsOf(big).filter((c) => c.page_id === mainPages[1]).slice(-40)) {
      const messages = big.messaging.messages[copy.id]!;
      expect(messages).toHaveLength(copy.message_count);
      const last = messages.at(-1)!;
      expect(last.inserted_at.slice(0, 19)).toBe(copy.updated_at);
      expect(copy.snippet).toBe(last.original_message.slice(0, 120) || (last.attachments.length ? "[Tệp đính kèm]" : ""));
      if (copy.read_watermarks) expect(messages.map((m) => m.id)).toContain(copy.read_watermarks[0]!.message_id);
      for (const m of messages) {
        expect(m.conversation_id).toBe(copy.id);
        if (!isStaff(m.from)) expect(m.from).toEqual({ id: copy.from.id, name: copy.from.name });
        if (m.parent_id) expect(messages.map((x) => x.id)).toContain(m.parent_id);
      }
    }
  });

  it("is the same shop for the same now and scale, and scale 1 is the demo shop", () => {
    const again = new Sandbox({ now, scale: N });
    expect(JSON.stringify(again.pos.orders)).toBe(JSON.stringify(big.pos.orders));
    expect(JSON.stringify(again.pos.customers)).toBe(JSON.stringify(big.pos.customers));
    expect(JSON.stringify(again.messaging.conversations)).toBe(JSON.stringify(big.messaging.conversations));
    const copy = big.messaging.conversations.at(-1)!;
    expect(JSON.stringify(again.messaging.messages[copy.id])).toBe(JSON.stringify(big.messaging.messages[copy.id]));
    const plain = new Sandbox({ now, scale: 1 });
    expect(JSON.stringify(plain.pos.orders)).toBe(JSON.stringify(one.pos.orders));
    expect(JSON.stringify(plain.messaging.conversations)).toBe(JSON.stringify(one.messaging.conversations));
  });

  it("keeps a write to a copy, and leaves the copies of an original that changes as they were copied", () => {
    const shop = new Sandbox({ now, scale: 2 });
    const originals = one.pos.orders.length;
    const i = shop.pos.orders.findIndex((o) => o.status === 1 && !o.is_removed && o.partner === null);
    const [original, copy] = [shop.pos.orders[i]!, shop.pos.orders[originals + i]!];
    const copied = JSON.stringify(copy);
    shop.simulate.setOrderStatus(original.id, 6);
    expect(JSON.stringify(copy)).toBe(copied);
    shop.simulate.setOrderStatus(copy.id, 2);
    expect(copy.status_history.at(-1)!.status).toBe(2);
    expect(copy.status_history.map((h) => h.status)).toEqual([...JSON.parse(copied).status_history.map((h: { status: number }) => h.status), 2]);
    expect(original.status_history.at(-1)!.status).toBe(6);
    // A copy's lines are its own once assigned.
    const other = shop.pos.orders[originals + i + 1]!;
    other.items = [];
    expect(other.items).toEqual([]);
    expect(shop.pos.orders[i + 1]!.items.length).toBeGreaterThan(0);
  });

  it("refuses a scale that is not a whole number from 1 to the maximum", () => {
    for (const scale of [0, -1, 1.5, MAX_SCALE + 1, Number.NaN]) expect(() => new Sandbox({ scale }), String(scale)).toThrow(`scale must be an integer from 1 to ${MAX_SCALE}`);
  });
});

describe("the lists of a scaled shop", () => {
  let origin: string;
  const c = big.credentials;
  const page = mainPages[0]!;
  beforeAll(async () => {
    origin = (await big.start()).origin;
  });
  afterAll(() => big.close());
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary upstream bodies
  const get = async (path: string, query: Record<string, string | number>): Promise<any> => {
    const url = new URL(origin + path);
    for (const [k, v] of Object.entries(query)) url.searchParams.append(k, String(v));
    return (await fetch(url)).json();
  };
  const orders = (query: Record<string, string | number>) => get(`/pos/api/v1/shops/${c.shopId}/orders`, { api_key: c.posApiKey, ...query });
  const conversations = (query: Record<string, string | number>) =>
    get(`/api/public_api/v2/pages/${page}/conversations`, { page_access_token: c.pageTokens[page]!, ...query });
  const newest = (field: "inserted_at" | "updated_at") => (a: { id: number }, b: { id: number }) =>
    (b as unknown as Record<string, string>)[field]!.localeCompare((a as unknown as Record<string, string>)[field]!) || b.id - a.id;

  async function allOrders(query: Record<string, string | number>): Promise<number[]> {
    const ids: number[] = [];
    for (let n = 1; ; n++) {
      const body = await orders({ ...query, page_size: 100, page_number: n });
      ids.push(...body.data.map((o: OrderRecord) => o.id));
      if (n >= body.total_pages) return ids;
    }
  }

  async function allConversations(query: Record<string, string | number>): Promise<string[]> {
    const ids: string[] = [];
    for (;;) {
      const body = await conversations({ ...query, ...(ids.length ? { last_conversation_id: ids.at(-1)! } : {}) });
      if (!body.conversations.length) return ids;
      ids.push(...body.conversations.map((x: ConversationRecord) => x.id));
    }
  }

  it("pages, sorts and filters the orders as they are", async () => {
    const live = big.pos.orders.filter((o) => !o.is_removed);
    expect(await allOrders({})).toEqual([...live].sort(newest("inserted_at")).map((o) => o.id));
    const from = Math.floor(now.getTime() / 1000) - 10 * 86_400;
    const to = from + 4 * 86_400;
    const updated = live.filter((o) => at(o.updated_at) >= from * 1000 && at(o.updated_at) <= to * 1000);
    const expected = updated.filter((o) => o.status === 3).sort((a, b) => a.total_price_after_sub_discount - b.total_price_after_sub_discount || a.id - b.id);
    expect(expected.length).toBeGreaterThan(50);
    const query = { updateStatus: "updated_at", startDateTime: from, endDateTime: to };
    expect(await allOrders({ ...query, "filter_status[]": 3, option_sort: "order_valuation_asc" })).toEqual(expected.map((o) => o.id));
    expect((await orders({ ...query, page_size: 1 })).total_entries).toBe(updated.length);
  });

  it("walks, sorts and filters a page's conversations as they are, and follows a change at once", async () => {
    const onPage = big.messaging.conversations.filter((x) => x.page_id === page);
    const byUpdated = (a: ConversationRecord, b: ConversationRecord) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id);
    expect(await allConversations({})).toEqual([...onPage].sort(byUpdated).map((x) => x.id));
    const since = Math.floor(now.getTime() / 1000) - 40 * 86_400;
    const until = since + 30 * 86_400;
    const inRange = onPage.filter((x) => at(x.updated_at) >= since * 1000 && at(x.updated_at) <= until * 1000 + 999).sort(byUpdated);
    expect(inRange.length).toBeGreaterThan(60);
    expect(await allConversations({ since, until })).toEqual(inRange.map((x) => x.id));
    // The oldest conversation (a copy) gets a new message: it leads the list at once.
    const oldest = [...onPage].sort(byUpdated).at(-1)!;
    big.simulate.customerMessage(oldest.id, "Shop ơi còn hàng không?");
    expect((await conversations({})).conversations[0].id).toBe(oldest.id);
    const messages = await get(`/api/public_api/v1/pages/${page}/conversations/${oldest.id}/messages`, { page_access_token: c.pageTokens[page]! });
    expect(messages.messages.at(-1).original_message).toBe("Shop ơi còn hàng không?");
    expect(messages.messages.map((m: MessageRecord) => m.id)).toEqual(big.messaging.messages[oldest.id]!.slice(-messages.messages.length).map((m) => m.id));
  });
});
