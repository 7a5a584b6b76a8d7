import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "../../../src/clients/pos-codes.js";
import type { OrderRecord } from "../../../src/sandbox/pos/index.js";
import { useHarness } from "../../helpers/harness.js";

// Expectations are computed here from the seeded state, independently of the sandbox's own filter.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const ms = (t: string) => Date.parse(`${t}Z`);
const visible = () => h.sandbox.pos.orders.filter((o) => !o.is_removed);
/** Newest first, ties by the higher id first: the default order of the list. */
const newest = (orders: OrderRecord[]) =>
  [...orders].sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : b.id - a.id));
const ids = (orders: { id: number | string }[]) => orders.map((o) => String(o.id));

type Row = { id: string; [field: string]: unknown };

/** What a set of orders comes to: goods after discounts, cash to collect on delivery, shipping charged (none when free). */
const sums = (orders: OrderRecord[]) => ({
  orders: orders.length,
  amount: orders.reduce((t, o) => t + o.total_price_after_sub_discount, 0),
  cod: orders.reduce((t, o) => t + o.cod, 0),
  shipping_fee: orders.reduce((t, o) => t + (o.is_free_shipping ? 0 : o.shipping_fee), 0),
});

async function all(args: Record<string, unknown>): Promise<{ rows: Row[]; calls: number; note?: string }> {
  const rows: Row[] = [];
  let cursor: string | undefined;
  let calls = 0;
  let note: string | undefined;
  do {
    const r = await h.call("search_orders", { ...args, ...(cursor ? { cursor } : {}) });
    expect(r.isError, r.text).toBe(false);
    rows.push(...r.data.orders);
    cursor = r.data.next_cursor;
    note = r.data.note;
    calls += 1;
  } while (cursor && calls < 400);
  return { rows, calls, note };
}

describe("search_orders", () => {
  it("lists newest first with compact rows, total and currency", async () => {
    const r = await h.call("search_orders", { limit: 10 });
    const expected = newest(visible());
    expect(r.data.total).toBe(expected.length);
    expect(ids(r.data.orders)).toEqual(ids(expected.slice(0, 10)));
    expect(r.data.currency).toBe("VND");
    const first = expected[0]!;
    const row = r.data.orders[0];
    expect(row).toMatchObject({
      number: `#${first.display_id}`,
      status_name: first.status_name,
      phone: first.bill_phone_number,
      item_count: first.total_quantity,
      cod: first.cod,
      amount: first.total_price_after_sub_discount,
      customer_id: first.shop_customer_id ?? undefined,
    });
    expect(row.created_at).toMatch(/\+07:00$/);
  });

  it("filters by status name, spaced name and code alike", async () => {
    const expected = newest(visible().filter((o) => o.status === 9 || o.status === 2));
    const byName = await all({ statuses: ["waiting to ship", "shipped"], limit: 100 });
    const byCode = await all({ statuses: [9, "2"], limit: 100 });
    expect(ids(byName.rows)).toEqual(ids(expected));
    expect(ids(byCode.rows)).toEqual(ids(expected));
  });

  it("sums every match (goods and COD) even when it shows only some, at any count", async () => {
    // A status with more matches than one page shows, and few enough to sum.
    const { name, matches } = ORDER_STATUSES.map((s) => ({ name: s.name, matches: visible().filter((o) => o.status === s.code) })).find(
      (s) => s.matches.length > 20 && s.matches.length <= 300,
    )!;
    const r = await h.call("search_orders", { statuses: [name], limit: 1 });
    expect(r.data.orders).toHaveLength(1);
    expect(r.data.next_cursor).toBeDefined();
    expect(r.data.totals).toEqual({ [name]: sums(matches) });
    // Past 300 matches every match is counted too (the status grouping), with the figure without canceled and deleted; a page read on with the cursor repeats none.
    const many = await h.call("search_orders", { limit: 1 });
    const all = visible();
    expect(all.length).toBeGreaterThan(300);
    expect(many.data.total).toBe(all.length);
    expect(Object.values(many.data.totals as Record<string, { orders: number }>).reduce((n, t) => n + t.orders, 0)).toBe(all.length);
    const live = all.filter((o) => o.status !== 6 && o.status !== 7);
    expect(many.data.excluding_canceled_deleted).toEqual({ orders: live.length, amount: live.reduce((n, o) => n + o.total_price_after_sub_discount, 0) });
    expect((await h.call("search_orders", { cursor: r.data.next_cursor, limit: 1 })).data.totals).toBeUndefined();
  });

  it("sums canceled and live orders apart, per status", async () => {
    const matching = visible().filter((o) => o.status === 0 || o.status === 6);
    expect(matching.some((o) => o.status === 6)).toBe(true);
    const r = await h.call("search_orders", { statuses: ["new", "canceled"], limit: 1 });
    expect(r.data.totals).toEqual({
      new: sums(matching.filter((o) => o.status === 0)),
      canceled: sums(matching.filter((o) => o.status === 6)),
    });
  });

  it("reads delivered, the word sellers use, as the POS's received", async () => {
    const expected = newest(visible().filter((o) => o.status === 3));
    expect(expected.length).toBeGreaterThan(0);
    const delivered = await all({ statuses: ["delivered"], limit: 100 });
    expect(ids(delivered.rows)).toEqual(ids(expected));
  });

  it("rejects an unknown status name and lists the valid ones", async () => {
    const r = await h.call("search_orders", { statuses: ["lost"] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("statuses");
    for (const status of ORDER_STATUSES) expect(r.text).toContain(`${status.name} (${status.code})`);
    const typo = await h.call("search_orders", { statuses: ["shiped"] });
    expect(typo.text).toContain("Did you mean shipped?");
  });

  it("names the common statuses where a tools-only client reads them: in the listed parameter", async () => {
    const listed = (await h.client.listTools()).tools.find((t) => t.name === "search_orders")!;
    const statuses = (listed.inputSchema.properties as Record<string, { description: string }>).statuses!.description;
    for (const name of ["new", "confirmed", "shipped", "received", "delivered", "returning", "returned", "canceled", "codes"]) expect(statuses).toContain(name);
    expect((listed.inputSchema.properties as Record<string, { description: string }>).fields!.description).toMatch(/raw.*instead of rows/);
  });

  it("searches phone text", async () => {
    const phone = visible()[3]!.bill_phone_number;
    const expected = newest(visible().filter((o) => o.bill_phone_number.includes(phone)));
    const r = await all({ search: phone, limit: 100 });
    expect(ids(r.rows)).toEqual(ids(expected));
  });

  it("applies since/until to the chosen time field, including a status entry time", async () => {
    const until = h.sandbox.now.getTime() / 1000;
    const since = until - 20 * 86_400;
    const entered = (o: OrderRecord, s: number) => o.status_history.find((x) => x.status === s)?.updated_at;
    const inRange = (t: string | null | undefined) => !!t && ms(t) >= since * 1000 && ms(t) <= Math.floor(until) * 1000;
    const shipped = newest(visible().filter((o) => inRange(entered(o, 2))));
    const r = await all({ time_field: "shipped", since: Math.floor(since), until: Math.floor(until), limit: 100 });
    expect(ids(r.rows)).toEqual(ids(shipped));
    const updated = newest(visible().filter((o) => inRange(o.updated_at)));
    const u = await all({ time_field: "updated_at", since: Math.floor(since), until: Math.floor(until), limit: 100 });
    expect(ids(u.rows)).toEqual(ids(updated));
    expect(shipped.length).not.toBe(updated.length);
  });

  it("reads human dates in the shop time zone", async () => {
    const day = new Date(h.sandbox.now.getTime() - 5 * 86_400_000 + 7 * 3_600_000).toISOString().slice(0, 10);
    const start = Date.parse(`${day}T00:00:00+07:00`);
    const expected = newest(visible().filter((o) => ms(o.inserted_at) >= start && ms(o.inserted_at) < start + 86_400_000));
    const r = await all({ since: day, until: day, limit: 100 });
    expect(ids(r.rows)).toEqual(ids(expected));
  });

  it("sorts by another key, ascending", async () => {
    const r = await h.call("search_orders", { sort: "order_valuation", ascending: true, limit: 30 });
    const values = visible()
      .map((o) => o.total_price_after_sub_discount)
      .sort((a, b) => a - b)
      .slice(0, 30);
    expect(r.data.orders.map((o: { amount: number }) => o.amount)).toEqual(values);
  });

  it("filters by carrier id or name, customer, source, excluded source and ad id", async () => {
    const jt = newest(visible().filter((o) => o.partner?.partner_id === 15));
    expect(ids((await all({ carriers: [15], limit: 100 })).rows)).toEqual(ids(jt));
    expect(ids((await all({ carriers: ["J&T"], limit: 100 })).rows)).toEqual(ids(jt));
    // Carriers as sellers call them: by their initials.
    const ghtk = newest(visible().filter((o) => o.partner?.partner_id === 1));
    expect(ghtk.length).toBeGreaterThan(0);
    expect(ids((await all({ carriers: ["GHTK"], limit: 100 })).rows)).toEqual(ids(ghtk));

    const customerId = visible()[10]!.shop_customer_id!;
    const mine = newest(visible().filter((o) => o.shop_customer_id === customerId));
    expect(ids((await all({ customer_id: customerId, limit: 100 })).rows)).toEqual(ids(mine));

    const facebook = newest(visible().filter((o) => o.order_sources === "-1"));
    expect(ids((await all({ sources: ["Facebook"], limit: 100 })).rows)).toEqual(ids(facebook));
    const others = newest(visible().filter((o) => o.order_sources !== "-1"));
    expect(ids((await all({ sources: ["-1"], exclude_sources: true, limit: 100 })).rows)).toEqual(ids(others));
    const page = h.sandbox.pos.shop.pages[0]!.id;
    const onPage = newest(visible().filter((o) => o.order_sources === "-1" && o.account === page));
    expect(onPage.length).toBeLessThan(facebook.length);
    expect(ids((await all({ sources: [page], limit: 100 })).rows)).toEqual(ids(onPage));

    const ad = visible().find((o) => o.ad_id)!.ad_id!;
    const fromAd = newest(visible().filter((o) => o.ad_id === ad));
    expect(ids((await all({ ad_ids: [ad], limit: 100 })).rows)).toEqual(ids(fromAd));
  });

  it("rejects an unknown carrier name before calling the orders list", async () => {
    const before = h.sandbox.server.count("GET", `/pos/api/v1/shops/${h.sandbox.pos.shop.id}/orders`);
    const r = await h.call("search_orders", { carriers: ["Pigeon Post"] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("carriers");
    expect(r.text).toContain("J&T");
    expect(h.sandbox.server.count("GET", `/pos/api/v1/shops/${h.sandbox.pos.shop.id}/orders`)).toBe(before);
  });

  it("includes removed orders only when asked", async () => {
    const removed = h.sandbox.pos.orders.filter((o) => o.is_removed).length;
    expect(removed).toBeGreaterThan(0);
    const without = await h.call("search_orders", { limit: 1 });
    const withRemoved = await h.call("search_orders", { limit: 1, include_removed: true });
    expect(withRemoved.data.total - without.data.total).toBe(removed);
  });

  it("passes `fields` through as the upstream projection", async () => {
    const r = await h.call("search_orders", { fields: ["id", "status", "cod"], limit: 3 });
    const expected = newest(visible()).slice(0, 3);
    // The status's name rides beside its code: a code alone reads as nothing.
    expect(r.data.orders).toEqual(expected.map((o) => ({ id: String(o.id), status: o.status, status_name: o.status_name, cod: o.cod, inserted_at: o.inserted_at })));
  });

  it("walks a projected list past page 100 too", async () => {
    const { rows } = await all({ fields: ["status"], limit: 5 });
    expect(ids(rows)).toEqual(ids(newest(visible())));
  });

  it("pages with a cursor without gaps or repeats", async () => {
    const { rows } = await all({ limit: 45 });
    expect(ids(rows)).toEqual(ids(newest(visible())));
  });

  it("walks history past page 100 by narrowing the time window", async () => {
    const expected = newest(visible());
    expect(expected.length).toBeGreaterThan(100 * 5);
    h.sandbox.server.resetRecords();
    const { rows } = await all({ limit: 5 });
    expect(ids(rows)).toEqual(ids(expected));
    const path = `/pos/api/v1/shops/${h.sandbox.pos.shop.id}/orders`;
    const listed = h.sandbox.server.requests.filter((r) => r.path === path);
    expect(listed.some((r) => Number(r.query.page_number?.[0]) > 100)).toBe(false);
    expect(listed.some((r) => r.query.endDateTime !== undefined)).toBe(true);
  });

  it("walks a sort with no time to narrow by past page 100 of small pages, in larger ones", async () => {
    // Pages of 5 reach row 500 at page 100, where the live list starts repeating itself.
    expect(visible().length).toBeGreaterThan(100 * 5);
    h.sandbox.server.resetRecords();
    const { rows, note } = await all({ sort: "order_valuation", limit: 5 });
    expect(note).toBeUndefined();
    expect(new Set(ids(rows)).size).toBe(rows.length);
    expect(ids(rows).sort()).toEqual(ids(visible()).sort());
    const path = `/pos/api/v1/shops/${h.sandbox.pos.shop.id}/orders`;
    const listed = h.sandbox.server.requests.filter((r) => r.path === path);
    expect(listed.some((r) => Number(r.query.page_number?.[0]) > 100)).toBe(false);
  });
});
