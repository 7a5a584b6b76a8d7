import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import type { ConversationRecord } from "../../src/sandbox/messaging/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/index.js";

// Lists that misbehave on demand (src/sandbox/quirks.ts), each quirk against the same list behaving.

const now = new Date("2026-11-22T07:30:00Z");
const nowS = Math.floor(now.getTime() / 1000);
const sandbox = new Sandbox({ now, ratePerSecond: 1e9 });
const c = sandbox.credentials;
const page = sandbox.messaging.pages[0]!.id;
let origin: string;
beforeAll(async () => {
  origin = (await sandbox.start()).origin;
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.behave());

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary upstream bodies
async function get(path: string, query: Record<string, string | number>): Promise<any> {
  const url = new URL(origin + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.append(k, String(v));
  return (await fetch(url)).json();
}
const orders = (query: Record<string, string | number>) => get(`/pos/api/v1/shops/${c.shopId}/orders`, { api_key: c.posApiKey, page_size: 100, ...query });
const ids = (body: { data: { id: unknown }[] }) => body.data.map((row) => row.id);
const v2 = (query: Record<string, string | number> = {}) => get(`/api/public_api/v2/pages/${page}/conversations`, { page_access_token: c.pageTokens[page]!, ...query });
const v1 = (query: Record<string, string | number>) =>
  get(`/api/public_api/v1/pages/${page}/conversations`, { page_access_token: c.pageTokens[page]!, since: nowS - 30 * 86_400, until: nowS, ...query });
const convIds = (body: { conversations: ConversationRecord[] }) => body.conversations.map((x) => x.id);
const week = { startDateTime: nowS - 7 * 86_400, endDateTime: nowS };

describe("POS lists that misbehave", () => {
  it("answer no rows past the first page while the total still counts them (empty_after_first)", async () => {
    const [first, second] = [await orders({ page_number: 1 }), await orders({ page_number: 2 })];
    expect(second.data.length).toBe(100);
    sandbox.misbehave({ kind: "empty_after_first", path: "/orders" });
    expect(ids(await orders({ page_number: 1 }))).toEqual(ids(first));
    const empty = await orders({ page_number: 2 });
    expect(empty.data).toEqual([]);
    expect([empty.total_entries, empty.total_pages]).toEqual([second.total_entries, second.total_pages]);
    // Other lists behave.
    expect((await get(`/pos/api/v1/shops/${c.shopId}/customers`, { api_key: c.posApiKey, page_number: 2 })).data.length).toBeGreaterThan(0);
  });

  it("serve rows of any date for a range (ignore_range), on the orders and the other lists", async () => {
    const ranged = await orders(week);
    const all = await orders({});
    expect(ranged.total_entries).toBeLessThan(all.total_entries);
    sandbox.misbehave({ kind: "ignore_range" });
    const ignored = await orders(week);
    expect(ignored.total_entries).toBe(all.total_entries);
    expect(ignored.data.some((o: OrderRecord) => Date.parse(`${o.inserted_at}Z`) < week.startDateTime * 1000)).toBe(true);
    const since = { start_time_inserted_at: nowS - 86_400 };
    const customers = await get(`/pos/api/v1/shops/${c.shopId}/customers`, { api_key: c.posApiKey, ...since });
    sandbox.behave();
    expect((await get(`/pos/api/v1/shops/${c.shopId}/customers`, { api_key: c.posApiKey, ...since })).total_entries).toBeLessThan(customers.total_entries);
  });

  it("answer a page past the end with the first page again (first_page_again)", async () => {
    const all = await orders({});
    const past = all.total_pages + 1;
    expect((await orders({ page_number: past })).data).toEqual([]);
    sandbox.misbehave({ kind: "first_page_again", path: /\/orders$/ });
    expect(ids(await orders({ page_number: past }))).toEqual(ids(all));
    // A page within the list is still itself.
    expect(ids(await orders({ page_number: 2 }))).not.toEqual(ids(all));
  });

  it("give one total whatever the range or filter (fixed_total), with pages to match", async () => {
    sandbox.misbehave({ kind: "fixed_total", total: 1418 });
    for (const query of [{}, week, { "filter_status[]": 3 }, { ...week, page_size: 1 }] as Record<string, number>[]) {
      const body = await orders(query);
      expect(body.total_entries).toBe(1418);
      expect(body.total_pages).toBe(Math.ceil(1418 / body.page_size));
    }
    expect((await get(`/pos/api/v1/shops/${c.shopId}/transactions`, { api_key: c.posApiKey })).total_entries).toBe(1418);
  });
});

describe("conversation lists that misbehave", () => {
  it("answer no rows after a cursor, or past page 1, while the total still counts them (empty_after_first)", async () => {
    const first = await v2();
    const cursor = convIds(first).at(-1)!;
    expect((await v2({ last_conversation_id: cursor })).conversations.length).toBeGreaterThan(0);
    const page2 = await v1({ page_number: 2 });
    sandbox.misbehave({ kind: "empty_after_first", path: "/conversations" });
    expect(convIds(await v2())).toEqual(convIds(first));
    expect((await v2({ last_conversation_id: cursor })).conversations).toEqual([]);
    const empty = await v1({ page_number: 2 });
    expect([empty.conversations, empty.total]).toEqual([[], page2.total]);
  });

  it("serve conversations of any date for since/until (ignore_range)", async () => {
    const window = { since: nowS - 3 * 86_400, until: nowS - 2 * 86_400 };
    const inWindow = (x: ConversationRecord) => Date.parse(`${x.updated_at}Z`) >= window.since * 1000 && Date.parse(`${x.updated_at}Z`) <= window.until * 1000 + 999;
    expect((await v2(window)).conversations.every(inWindow)).toBe(true);
    const total = (await v1({ page_number: 1, ...window, order_by: "updated_at" })).total;
    sandbox.misbehave({ kind: "ignore_range", path: "/conversations" });
    expect((await v2(window)).conversations.every(inWindow)).toBe(false);
    expect((await v1({ page_number: 1, ...window, order_by: "updated_at" })).total).toBeGreaterThan(total);
  });

  it("answer the first page again after the last row or past the last page (first_page_again)", async () => {
    const first = convIds(await v2());
    const read: string[] = [];
    for (let body = await v2(); body.conversations.length; body = await v2({ last_conversation_id: read.at(-1)! })) read.push(...convIds(body));
    const { total } = await v1({ page_number: 1 });
    sandbox.misbehave({ kind: "first_page_again" });
    expect(convIds(await v2({ last_conversation_id: read.at(-1)! }))).toEqual(first);
    expect(convIds(await v1({ page_number: Math.ceil(total / 60) + 1 }))).toEqual(convIds(await v1({ page_number: 1 })));
  });

  it("give one total whatever the range (fixed_total)", async () => {
    sandbox.misbehave({ kind: "fixed_total", total: 5000, path: "/conversations" });
    for (const since of [nowS - 86_400, nowS - 30 * 86_400]) expect((await v1({ page_number: 1, since })).total).toBe(5000);
  });
});

describe("an upstream answering the vendor's documented examples only", () => {
  const examples = new Sandbox({ now, upstream: "examples" });
  const ec = examples.credentials;
  let base: string;
  beforeAll(async () => {
    base = (await examples.start()).origin;
  });
  afterAll(() => examples.close());
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary upstream bodies
  const at = async (path: string, query: Record<string, string | number>): Promise<any> => {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(query)) url.searchParams.append(k, String(v));
    return (await fetch(url)).json();
  };

  it("answers a list's first page with the example, later pages with none of its rows and its totals, and counts what it received", async () => {
    const before = examples.server.received;
    const first = await at(`/pos/api/v1/shops/${ec.shopId}/orders`, { api_key: ec.posApiKey, page_number: 1, startDateTime: nowS - 86_400 });
    expect(first.data).toHaveLength(1);
    expect(first.data[0].inserted_at).toBe("2020-05-12T04:51:42");
    expect([first.total_entries, first.total_pages]).toEqual([1418, 15]);
    const later = await at(`/pos/api/v1/shops/${ec.shopId}/orders`, { api_key: ec.posApiKey, page_number: 2 });
    expect([later.data, later.total_entries]).toEqual([[], 1418]);
    const conversations = `/api/public_api/v2/pages/${page}/conversations`;
    expect((await at(conversations, { page_access_token: ec.pageTokens[page]! })).conversations).toHaveLength(1);
    expect((await at(conversations, { page_access_token: ec.pageTokens[page]!, last_conversation_id: "x" })).conversations).toEqual([]);
    // What the documents give no answer for; and any shop or key, as the examples name other shops.
    expect(await at(`/api/public_api/v1/pages/${page}/conversations`, { page_access_token: ec.pageTokens[page]!, since: 1, until: 2, page_number: 1 })).toEqual({ success: true });
    expect((await at("/pos/api/v1/shops/4/orders", { api_key: "another" })).total_entries).toBe(1418);
    expect(examples.server.received - before).toBe(6);
  });
});
