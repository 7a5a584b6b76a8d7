import { describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import type { ConversationRecord } from "../../src/sandbox/messaging/index.js";
import { FirstIn, Ordering, VERIFY_BELOW } from "../../src/sandbox/ordering.js";
import { type OrderRecord, orderTime } from "../../src/sandbox/pos/index.js";
import { routerGet } from "../helpers/router-call.js";

// The lists answer from orderings kept between requests (src/sandbox/ordering.ts); every answer
// must be the one sorting and filtering every record gives, as the lists did before: checked here
// against that, computed from the raw records, on a scaled shop, before and after changes made
// through the API, the simulation and in place.

const now = new Date("2026-11-22T07:30:00Z");
let sandbox = new Sandbox({ now, scale: 3, ratePerSecond: 1e9 });
let c = sandbox.credentials;
const at = (time: string) => Date.parse(`${time.slice(0, 23)}Z`);
const nowS = Math.floor(now.getTime() / 1000);

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary upstream bodies
const get = (path: string, query: Record<string, string | number | (string | number)[]>): any => routerGet(sandbox, path, query);

// ---- the order list as sorting and filtering every order gives it ----

const SORT_KEYS: Record<string, (o: OrderRecord) => string | number> = {
  inserted_at: (o) => o.inserted_at,
  last_updated_order: (o) => o.updated_at,
  last_update_status_at: (o) => o.last_update_status_at,
  order_valuation: (o) => o.total_price_after_sub_discount,
  product_quantity: (o) => o.total_quantity,
  product_name: (o) => o.items[0]?.variation_info.name ?? "",
  customer_sort: (o) => o.bill_full_name,
  estimate_delivery_date: (o) => o.estimate_delivery_date ?? "",
};

type OrderAsk = { sort?: string; field?: string; from?: number; to?: number; status?: number; search?: string; customer?: string; removed?: boolean; size: number; page: number };

function expectedOrders(q: OrderAsk) {
  const [, key, dir] = /^(.+)_(asc|desc)$/.exec(q.sort ?? "inserted_at_desc")!;
  const value = SORT_KEYS[key!]!;
  const sign = dir === "asc" ? 1 : -1;
  const matches = sandbox.pos.orders.filter((o) => {
    if (o.is_removed && !q.removed) return false;
    if (q.status !== undefined && o.status !== q.status) return false;
    const number = q.search === String(o.display_id) || q.search === String(o.id);
    if (q.search && !number && ![o.bill_phone_number, o.bill_full_name.toLowerCase(), o.note?.toLowerCase() ?? ""].some((t) => t.includes(q.search!))) return false;
    if (q.customer && o.shop_customer_id !== q.customer && o.customer?.customer_id !== q.customer) return false;
    if (q.from !== undefined || q.to !== undefined) {
      const t = orderTime(o, q.field ?? "inserted_at");
      if (!t || (q.from !== undefined && at(t) < q.from * 1000) || (q.to !== undefined && at(t) > q.to * 1000)) return false;
    }
    return true;
  });
  matches.sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    return sign * ((x < y ? -1 : x > y ? 1 : 0) || a.id - b.id);
  });
  const served = Math.min(q.page, 100);
  return { ids: matches.slice((served - 1) * q.size, served * q.size).map((o) => o.id), total: matches.length };
}

function askOrders(q: OrderAsk) {
  const query: Record<string, string | number> = { api_key: c.posApiKey, page_size: q.size, page_number: q.page };
  if (q.sort) query.option_sort = q.sort;
  if (q.field) query.updateStatus = q.field;
  if (q.from !== undefined) query.startDateTime = q.from;
  if (q.to !== undefined) query.endDateTime = q.to;
  if (q.status !== undefined) query["filter_status[]"] = q.status;
  if (q.search) query.search = q.search;
  if (q.customer) query.customer_id = q.customer;
  if (q.removed) query.include_removed = 1;
  const body = get(`/pos/api/v1/shops/${c.shopId}/orders`, query);
  return { ids: body.data.map((o: OrderRecord) => o.id), total: body.total_entries };
}

function orderAsks(): OrderAsk[] {
  const someone = sandbox.pos.orders[40]!;
  const asks: OrderAsk[] = [];
  const ranges = [{}, { from: nowS - 20 * 86_400, to: nowS - 6 * 86_400 }, { from: nowS - 3 * 86_400 }, { to: nowS - 60 * 86_400 }];
  for (const sort of [undefined, "inserted_at_asc", "last_updated_order_asc", "last_updated_order_desc", "order_valuation_desc", "product_name_asc", "customer_sort_desc", "estimate_delivery_date_asc", "last_update_status_at_desc"]) {
    for (const field of [undefined, "updated_at", "-1", "paid_at", "3", "estimate_delivery_date"]) {
      for (const range of ranges) {
        if (field !== undefined && !("from" in range) && !("to" in range)) continue;
        for (const page of [1, 3]) asks.push({ sort, field, ...range, size: 30, page });
      }
    }
  }
  for (const extra of [{ status: 3 }, { removed: true }, { search: someone.bill_phone_number.slice(3, 8) }, { customer: someone.shop_customer_id! }, { status: 6, removed: true }]) {
    asks.push({ ...extra, size: 100, page: 1 }, { ...extra, sort: "last_updated_order_asc", field: "updated_at", from: nowS - 30 * 86_400, size: 7, page: 2 });
  }
  // Past the end, and past page 100 (the list repeats page 100's rows).
  asks.push({ size: 100, page: 50 }, { size: 10, page: 150 }, { sort: "order_valuation_asc", size: 1, page: 1 }, { field: "updated_at", from: nowS - 86_400 * 40, size: 1, page: 1 });
  return asks;
}

// ---- a page's conversations as sorting and filtering all of them gives them ----

const mainPage = sandbox.messaging.pages[0]!.id;
const convPath = (v: string) => `/api/public_api/${v}/pages/${mainPage}/conversations`;
type ConvAsk = { field?: "inserted_at" | "updated_at"; since?: number; until?: number; tags?: string; type?: string; unreadFirst?: boolean };

function expectedConversations(q: ConvAsk): string[] {
  const field = q.field ?? "updated_at";
  const wanted = q.tags?.split(",");
  return sandbox.messaging.conversations
    .filter(
      (x) =>
        x.page_id === mainPage &&
        (!wanted || x.tags.some((t) => wanted.includes(String(t)))) &&
        (!q.type || x.type === q.type) &&
        (q.since === undefined || (at(x[field]) >= q.since * 1000 && at(x[field]) <= q.until! * 1000 + 999)),
    )
    .sort((a, b) => (q.unreadFirst ? Number(a.seen) - Number(b.seen) : 0) || b[field].localeCompare(a[field]) || b.id.localeCompare(a.id))
    .map((x) => x.id);
}

function walkV2(q: ConvAsk): string[] {
  const query: Record<string, string | number> = { page_access_token: c.pageTokens[mainPage]! };
  if (q.field) query.order_by = q.field;
  if (q.since !== undefined) Object.assign(query, { since: q.since, until: q.until! });
  if (q.tags) query.tags = q.tags;
  if (q.type) query.type = q.type;
  if (q.unreadFirst) query.unread_first = "true";
  const ids: string[] = [];
  for (;;) {
    const body = get(convPath("v2"), { ...query, ...(ids.length ? { last_conversation_id: ids.at(-1)! } : {}) });
    if (!body.conversations.length) return ids;
    ids.push(...body.conversations.map((x: ConversationRecord) => x.id));
  }
}

function walkV1(q: ConvAsk & { since: number; until: number }): { ids: string[]; totals: number[] } {
  const ids: string[] = [];
  const totals: number[] = [];
  for (let n = 1; ; n++) {
    const body = get(convPath("v1"), { page_access_token: c.pageTokens[mainPage]!, since: q.since, until: q.until, page_number: n, order_by: q.field ?? "inserted_at", ...(q.tags ? { tags: q.tags } : {}) });
    totals.push(body.total);
    if (!body.conversations.length) return { ids, totals };
    ids.push(...body.conversations.map((x: ConversationRecord) => x.id));
  }
}

function checkEverything() {
  for (const ask of orderAsks()) expect(askOrders(ask), JSON.stringify(ask)).toEqual(expectedOrders(ask));
  const tag = String(sandbox.messaging.tags[mainPage]![1]!.id);
  const windows = [{}, { since: nowS - 40 * 86_400, until: nowS - 10 * 86_400 }, { since: nowS - 2 * 86_400, until: nowS }];
  for (const window of windows) {
    for (const q of [{}, { field: "inserted_at" as const }, { tags: tag }, { type: "COMMENT" }, { unreadFirst: true }]) {
      const ask = { ...window, ...q };
      expect(walkV2(ask), JSON.stringify(ask)).toEqual(expectedConversations(ask));
    }
  }
  for (const q of [{ since: nowS - 30 * 86_400, until: nowS }, { since: nowS - 40 * 86_400, until: nowS - 20 * 86_400, field: "updated_at" as const, tags: tag }]) {
    const expected = expectedConversations({ field: "inserted_at", ...q });
    const read = walkV1(q);
    expect(read.ids, JSON.stringify(q)).toEqual(expected);
    expect(new Set(read.totals)).toEqual(new Set([expected.length]));
  }
  // The oldest list, by the count read so far.
  const byUpdated = expectedConversations({});
  const oldest = (count?: number) =>
    get(`/api/v1/pages/${mainPage}/conversations`, { access_token: c.userToken, ...(count === undefined ? {} : { current_count: count }) }).conversations.map((x: ConversationRecord) => x.id);
  expect(oldest()).toEqual(byUpdated.slice(0, 60));
  expect(oldest(61)).toEqual(byUpdated.slice(60, 100));
  // The page's customers.
  const customers = get(`/api/public_api/v1/pages/${mainPage}/page_customers`, { page_access_token: c.pageTokens[mainPage]!, since: nowS - 30 * 86_400, until: nowS, page_number: 2, page_size: 50 });
  const pageCustomers = sandbox.messaging.customers
    .filter((x) => x.page_id === mainPage && at(x.inserted_at) >= (nowS - 30 * 86_400) * 1000 && at(x.inserted_at) <= nowS * 1000 + 999)
    .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at) || b.id.localeCompare(a.id));
  expect(customers.total).toBe(pageCustomers.length);
  expect(customers.customers.map((x: { id: string }) => x.id)).toEqual(pageCustomers.slice(50, 100).map((x) => x.id));
  // The POS customers, newest first.
  const shopCustomers = [...sandbox.pos.customers].sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : a.id < b.id ? -1 : 1));
  const listed = get(`/pos/api/v1/shops/${c.shopId}/customers`, { api_key: c.posApiKey, page_size: 100, page_number: 3 });
  expect(listed.total_entries).toBe(shopCustomers.length);
  expect(listed.data.map((x: { id: string }) => x.id)).toEqual(shopCustomers.slice(200, 300).map((x) => x.id));
  const since = nowS - 10 * 86_400;
  const recent = get(`/pos/api/v1/shops/${c.shopId}/customers`, { api_key: c.posApiKey, page_size: 100, start_time_updated_at: since });
  const updated = shopCustomers.filter((x) => at(x.updated_at) >= since * 1000);
  expect(recent.total_entries).toBe(updated.length);
  expect(recent.data.map((x: { id: string }) => x.id)).toEqual(updated.slice(0, 100).map((x) => x.id));
}

describe("the lists of a scaled shop, kept in order between requests", () => {
  it("answer as sorting and filtering every record does", () => {
    checkEverything();
  });

  it("follow changes made through the API's write paths and the simulation", () => {
    const order = sandbox.pos.orders.find((o) => o.status === 1 && !o.is_removed)!;
    sandbox.simulate.setOrderStatus(order.id, 6);
    sandbox.simulate.newOrder();
    const oldest = sandbox.messaging.conversations.filter((x) => x.page_id === mainPage).sort((a, b) => a.updated_at.localeCompare(b.updated_at))[0]!;
    sandbox.simulate.customerMessage(oldest.id, "Còn hàng không shop?");
    sandbox.simulate.markRead(sandbox.messaging.conversations.find((x) => x.page_id === mainPage && !x.seen)!.id);
    sandbox.simulate.newConversation(mainPage);
    checkEverything();
    expect(walkV2({})[0]).not.toBe(oldest.id);
  });

  it("follow records changed in place on a list this small", () => {
    const order = sandbox.pos.orders.find((o) => !o.is_removed && o.status === 3)!;
    order.updated_at = "2026-11-22T07:29:00";
    order.is_removed = true;
    sandbox.pos.orders[7]!.inserted_at = "2026-11-22T07:29:30";
    const moved = sandbox.messaging.conversations.find((x) => x.page_id === mainPage && x.type === "INBOX")!;
    moved.updated_at = "2026-11-22T08:00:00";
    moved.seen = false;
    checkEverything();
    expect(walkV2({})[0]).toBe(moved.id);
  });
});

describe("the order list of a shop past the size its lists check by reading every record", () => {
  it("counts a span and finds its first orders in another order, and searches, as sorting every order does", () => {
    sandbox = new Sandbox({ now, scale: Math.ceil(VERIFY_BELOW / 560) + 1, ratePerSecond: 1e9 });
    c = sandbox.credentials;
    expect(sandbox.pos.orders.length).toBeGreaterThan(VERIFY_BELOW);
    const someone = sandbox.pos.orders[900]!;
    const asks: OrderAsk[] = [
      { field: "updated_at", from: nowS - 20 * 86_400, to: nowS - 6 * 86_400, size: 1, page: 1 },
      { field: "updated_at", from: nowS - 20 * 86_400, size: 100, page: 3 },
      { field: "updated_at", from: nowS - 20 * 86_400, removed: true, sort: "order_valuation_desc", size: 30, page: 2 },
      { field: "inserted_at", to: nowS - 50 * 86_400, sort: "last_updated_order_desc", size: 100, page: 1 },
      { search: someone.bill_phone_number.slice(2, 7), size: 30, page: 1 },
      { search: String(someone.display_id), sort: "customer_sort_asc", size: 30, page: 1 },
    ];
    for (const ask of asks) expect(askOrders(ask), JSON.stringify(ask)).toEqual(expectedOrders(ask));
  });
});

describe("an ordering past the size it checks by reading every record", () => {
  type Row = { id: number; at: number };
  const rows: Row[] = Array.from({ length: VERIFY_BELOW + 10 }, (_, id) => ({ id, at: (id * 7919) % 10_007 }));
  let revision = 0;
  const ordering = new Ordering<Row>({ source: () => rows, revision: () => revision, rank: (r) => r.at, tie: (a, b) => a.id - b.id });
  const ids = (from: number, to: number) => ordering.items.slice(from, to).map((r) => r.id);
  const sortedIds = () => [...rows].sort((a, b) => a.at - b.at || a.id - b.id).map((r) => r.id);

  it("is sorted again after a write path counts a change, or records are added, and not otherwise", () => {
    expect(ordering.fresh().items.map((r) => r.id)).toEqual(sortedIds());
    const [from, to] = ordering.between(100, 200);
    expect(ids(from, to)).toEqual(sortedIds().filter((id) => rows[id]!.at >= 100 && rows[id]!.at <= 200));
    // In place and uncounted: a list this size relies on the write paths.
    rows[5]!.at = -1;
    expect(ordering.fresh().items[0]!.id).not.toBe(5);
    revision++;
    expect(ordering.fresh().items[0]!.id).toBe(5);
    rows.push({ id: rows.length, at: -2 });
    expect(ordering.fresh().items.map((r) => r.id)).toEqual(sortedIds());
    expect(ordering.indexOf(rows[5]!)).toBe(1);
  });

  it("finds the first records of a stretch in another order, skipped ones left out", () => {
    // Another order: by id's last digit, then by id descending; rows whose id ends in 7 skipped.
    const compare = (a: Row, b: Row) => (a.id % 10) - (b.id % 10) || b.id - a.id;
    const first = new FirstIn(ordering.fresh(), compare, (r) => r.id % 10 === 7);
    for (const [lo, hi, count] of [[0, 5000, 10], [1000, 1001, 3], [0, ordering.length, 250], [7000, 7400, 500], [10, 10, 5]] as const) {
      const stretch = ordering.items.slice(lo, hi).filter((r) => r.id % 10 !== 7).sort(compare);
      expect(first.first(lo, hi, count).map((r) => r.id), `${lo}-${hi}`).toEqual(stretch.slice(0, count).map((r) => r.id));
    }
  });
});
