import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";
import { amount, asking, buyerOf, countBy, isVoid, price, type Row, recordMs, shopDay, sum, truthOf, units } from "./truth.js";

// Issue 39, item by item: each test failed before the change it names. The calls are made the
// way a model makes them (statuses by name or by code, names guessed), and the answers are read
// as a person would read them aloud: a figure, and the line that says what it counts.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const ask = asking(h);

const NOVEMBER = { since: "2026-11-01", until: "2026-11-22" };
const OCTOBER = { since: "2026-10-01", until: "2026-10-31" };
const today = () => shopDay(new Date().toISOString().slice(0, 19));

describe("1. Sold: an order canceled after confirmation is no sale in any tool", () => {
  it("the variant on it sold 0 everywhere, and the catalog's sold and unsold variants make the catalog", async () => {
    const pos = h.sandbox.pos;
    const day = today();
    const soldToday = new Set(pos.orders.filter((o) => shopDay(o.inserted_at) === day).flatMap((o) => o.items.map((it) => it.variation_id)));
    const v = pos.variations.find((x) => !soldToday.has(x.id))!;
    const commune = pos.geo.communes.find((c) => c.district_id === "70101")!;
    const created = await ask("create_order", {
      items: [{ variation_id: v.id, quantity: 2 }],
      customer_name: "Chị Mai",
      phone: "0987000222",
      shipping_address: JSON.stringify({ address: "12 Lê Lợi", commune_id: commune.id }),
    });
    const order = created.data.id;
    await ask("update_order", { order_id: order, status: "confirmed" });
    await ask("update_order", { order_id: order, status: 6 });
    expect(pos.orders.find((o) => String(o.id) === order)!.status_history.map((s) => s.status)).toEqual([0, 1, 6]);

    const span = { since: day, until: day };
    const [analytics, product, catalog] = await Promise.all([
      ask("get_sales_analytics", { ...span, split_by: ["Variation.id"], limit: 500 }),
      ask("search_products", { variation_ids: [v.id], sold_since: day, sold_until: day }),
      ask("search_products", { sold_since: day, sold_until: day, limit: 0 }),
    ]);
    expect(product.data.variations[0]).toMatchObject({ variation_id: v.id, sold: 0 });
    expect(analytics.data.rows.find((r: Row) => r["Variation.id"] === v.id)).toBeUndefined();
    expect(analytics.data.totals.canceled.product_count).toBeGreaterThanOrEqual(2);
    // "118 + 3 did not make 120": the variants the statistics say sold and those search_products says did not.
    expect(analytics.data.row_count + catalog.data.sold_totals.variations_unsold).toBe(pos.variations.length);
    expect(catalog.data.sold_totals.variations_sold).toBe(analytics.data.row_count);
    expect(catalog.data.sold_totals.sold).toBe(analytics.data.totals.success.product_count);
    // Asked for, the canceled ones count, and the answer says so.
    const counted = await ask("get_sales_analytics", { ...span, split_by: ["Variation.id"], include_canceled: true, filter: { "Variation.id": [v.display_id] } });
    expect(counted.data.rows).toMatchObject([{ "Variation.id": v.id, product_count: 2 }]);
    expect(counted.data.figures).toMatch(/^success: every order, canceled and deleted counted in/);
  });

  it("units per variant agree over months holding orders canceled after confirmation", async () => {
    const span = { since: "2026-09-01", until: "2026-11-22" };
    const t = truthOf(h.sandbox.pos, span);
    expect(t.canceled.concat(t.deleted).some((o) => o.status_history.some((s) => s.status === 1))).toBe(true);
    const [analytics, products] = await Promise.all([
      ask("get_sales_analytics", { ...span, split_by: ["Variation.id"], limit: 500 }),
      ask("search_products", { sold_since: span.since, sold_until: span.until, sort_by: "sold", limit: 50 }),
    ]);
    for (const v of products.data.variations as Row[]) {
      expect(analytics.data.rows.find((r: Row) => r["Variation.id"] === v.variation_id)?.product_count ?? 0, v.name).toBe(v.sold);
    }
    expect(analytics.data.totals.success.product_count).toBe(sum(t.sales, units));
    expect(products.data.sold_totals.sold).toBe(sum(t.sales, units));
  });
});

describe("2. Buyers: a customer whose orders in the span were all canceled or deleted bought nothing", () => {
  it("returning buyers: group_count counts the groups listed, none with 0 orders, and the note says who was left out", async () => {
    const t = truthOf(h.sandbox.pos, NOVEMBER);
    const voidOnly = [...countBy(t.placed, buyerOf)].filter(([, list]) => list.every(isVoid));
    expect(voidOnly.length).toBeGreaterThan(0);
    const r = await ask("search_orders", { ...NOVEMBER, group_by: ["customer"], buyers: "returning", limit: 100 });
    expect(r.data.group_count).toBe(t.returning.length);
    expect(r.data.groups).toHaveLength(t.returning.length);
    expect(r.data.groups.filter((g: Row) => g.orders === 0)).toEqual([]);
    expect(r.data.note).toMatch(/\d+ customers whose orders here were all canceled or deleted \(\d+ orders\) are in no group nor in group_count/);
    expect(r.data.figures).toContain("group_count: groups with a sale");
    // The same by any key: a seller whose orders were all canceled sold nothing either.
    const bySeller = await ask("search_orders", { ...NOVEMBER, group_by: ["seller"] });
    expect(bySeller.data.groups.every((g: Row) => g.orders > 0)).toBe(true);
    expect(sum(t.sales, () => 1)).toBe(bySeller.data.groups.reduce((n: number, g: Row) => n + g.orders, 0));
  });

  it("asked for by status, by name or by code, the canceled orders are what is grouped", async () => {
    const t = truthOf(h.sandbox.pos, NOVEMBER);
    const byName = await ask("search_orders", { ...NOVEMBER, statuses: ["Canceled", "deleted"], group_by: ["customer"], limit: 100 });
    const byCode = await ask("search_orders", { ...NOVEMBER, statuses: [6, "7"], group_by: ["customer"], limit: 100 });
    // The same figures, whichever way they were counted (the statistics first, the index once read).
    const figures = (d: Row) => ({ groups: d.groups, group_count: d.group_count, total: d.total, sales: d.excluding_canceled_deleted });
    expect(figures(byCode.data)).toEqual(figures(byName.data));
    expect(byName.data.group_count).toBe(countBy([...t.canceled, ...t.deleted], buyerOf).size);
    expect(byName.data.figures).toContain("every order of the statuses asked");
  });
});

describe("3. Amounts: a list whose fields hold no price still says what its orders come to", () => {
  it("from the rows read and from every match counted", async () => {
    const t = truthOf(h.sandbox.pos, NOVEMBER);
    const sales = { orders: t.sales.length, amount: sum(t.sales, amount) };
    expect(sales.amount).toBeGreaterThan(0);
    const few = await ask("search_orders", { ...NOVEMBER, fields: ["id", "status"], limit: 5 });
    expect(few.data.excluding_canceled_deleted).toEqual(sales);
    expect(few.data.totals.received).toMatchObject({ amount: sum(t.sales.filter((o) => o.status === 3), amount) });
    // The rows show what was asked, no more.
    expect(Object.keys(few.data.orders[0]).sort()).toEqual(["id", "inserted_at", "status", "status_name"]);
    // A page holding every match: the totals are the page's own.
    const day = shopDay(t.sales[0]!.inserted_at);
    const d = truthOf(h.sandbox.pos, { since: day, until: day });
    const all = await ask("search_orders", { since: day, until: day, fields: ["id"], limit: 100 });
    expect(all.data.orders).toHaveLength(d.placed.length);
    expect(all.data.excluding_canceled_deleted).toEqual({ orders: d.sales.length, amount: sum(d.sales, amount) });
    expect(all.data.figures).toContain("excluding_canceled_deleted: the sales among them");
  });
});

describe("4a. Dates: a range holds nothing from outside it, and says which date it ranges over", () => {
  it("returns dated when they came back: no month after the range, in rows or totals", async () => {
    const t = truthOf(h.sandbox.pos, OCTOBER);
    const end = Date.parse(`${OCTOBER.until}T23:59:59.999+07:00`);
    const back = t.returned.filter((o) => recordMs(o.last_update_status_at) <= end);
    const late = t.returned.length - back.length;
    expect(late).toBeGreaterThan(0);
    const [byMonth, bySource, byDay] = await Promise.all([
      ask("get_sales_analytics", { ...OCTOBER, split_by: ["Time.month"], returned_record: "updated_at" }),
      ask("get_sales_analytics", { ...OCTOBER, split_by: ["Order.source"], returned_record: "updated_at" }),
      ask("get_sales_analytics", { ...OCTOBER, returned_record: "updated_at", limit: 500 }),
    ]);
    expect(byMonth.data.rows.map((row: Row) => row["Time.month"])).toEqual(["2026-10"]);
    expect(byDay.data.rows.every((row: Row) => row["Time.day"] >= OCTOBER.since && row["Time.day"] <= OCTOBER.until)).toBe(true);
    for (const r of [byMonth, bySource, byDay]) {
      expect(r.data.totals.success.order_count).toBe(t.sales.length);
      expect(r.data.dated_by).toEqual({ sales: "created", returns: "last status change" });
      expect(r.data.totals.returned).toMatchObject({ order_count: back.length, price: sum(back, price) });
      expect(r.data.note).toBe(`${late} returns of these sales, dated outside the range (dated_by.returns), are left out.`);
    }
    expect(bySource.data.rows.reduce((n: number, row: Row) => n + (row.returned?.order_count ?? 0), 0)).toBe(back.length);
  });
});

describe("6b. A list of customers with unknown ones answers the known and names every unknown", () => {
  it("by id, phone or name, in one call", async () => {
    const [a, b] = h.sandbox.pos.customers;
    const r = await ask("search_customers", { customer_ids: [a!.id, "0900000000", b!.phone_numbers[0]!, "Nobody Anywhere"] });
    expect(r.data.customers.map((c: Row) => c.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(r.data.not_found).toEqual([
      { value: "0900000000", why: 'no customer has the id, phone or name "0900000000"' },
      { value: "Nobody Anywhere", why: 'no customer has the id, phone or name "Nobody Anywhere"' },
    ]);
    const none = await ask("search_customers", { customer_ids: ["nobody-1", "nobody-2"] });
    expect(none.data).toMatchObject({ customers: [], total: 0 });
    expect(none.data.not_found.map((n: Row) => n.value)).toEqual(["nobody-1", "nobody-2"]);
  });
});

describe("8a. Sorting both ways", () => {
  it("search_products by stock, sold and days of cover, highest or lowest first", async () => {
    const pos = h.sandbox.pos;
    const most = await ask("search_products", { sort_by: "stock", ascending: false, limit: 5 });
    const stocks = pos.variations.map((v) => v.remain_quantity).sort((x, y) => y - x);
    expect(most.data.variations.map((v: Row) => v.stock_available)).toEqual(stocks.slice(0, 5));
    const least = await ask("search_products", { sort_by: "stock", limit: 5 });
    expect(least.data.variations.map((v: Row) => v.stock_available)).toEqual([...stocks].reverse().slice(0, 5));
    const slow = await ask("search_products", { sort_by: "sold", ascending: true, sold_since: NOVEMBER.since, limit: 5 });
    expect(slow.data.variations.map((v: Row) => v.sold)).toEqual([0, 0, 0, 0, 0].slice(0, slow.data.variations.length));
    const long = await ask("search_products", { sort_by: "days_of_cover", ascending: false, sold_since: NOVEMBER.since, limit: 50 });
    const covers = long.data.variations.map((v: Row) => v.days_of_cover ?? Number.POSITIVE_INFINITY);
    expect(covers).toEqual([...covers].sort((x, y) => y - x));
    const bad = await h.call("search_products", { ascending: false });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("ascending: orders a sort");
  });

  it("search_customers and get_sales_analytics, smallest first", async () => {
    const spend = await ask("search_customers", { sort_by: "purchased_amount", ascending: true, limit: 5 });
    const amounts = h.sandbox.pos.customers.map((c) => c.purchased_amount).sort((x, y) => x - y);
    expect(spend.data.customers.map((c: Row) => c.purchased_amount ?? 0)).toEqual(amounts.slice(0, 5));
    const sources = await ask("get_sales_analytics", { ...OCTOBER, split_by: ["Order.source"], sort_by: "price", ascending: true });
    const prices = sources.data.rows.map((r: Row) => r.price);
    expect(prices).toEqual([...prices].sort((x, y) => x - y));
  });
});

describe("what a model sends, and what it reads back", () => {
  it("a status filter by name or code counts the canceled orders it names, and says so", async () => {
    const t = truthOf(h.sandbox.pos, OCTOBER);
    const byName = await ask("get_sales_analytics", { ...OCTOBER, filter: { "Order.status": ["canceled"] } });
    const byCode = await ask("get_sales_analytics", { ...OCTOBER, filter: { "Order.status": [6] } });
    expect(byCode.data.totals).toEqual(byName.data.totals);
    expect(byName.data.totals.success.order_count).toBe(t.canceled.length);
    expect(byName.data.figures).toContain("canceled and deleted counted in");
    // success_status in the API's own words (a code), as in the OpenAPI a model may have read.
    const confirmed = await ask("get_sales_analytics", { ...OCTOBER, success_status: 1 });
    expect(confirmed.data.totals).toEqual((await ask("get_sales_analytics", { ...OCTOBER, success_status: "confirmed" })).data.totals);
    expect(confirmed.data.figures).toMatch(/^success: orders once confirmed, canceled and deleted left out/);
  });

  it("names it does not take are refused with the one it does", async () => {
    const typo = await h.call("get_sales_analytics", { ...OCTOBER, include_cancelled: true });
    expect(typo.isError).toBe(true);
    expect(typo.text).toContain("include_canceled");
    const order = await h.call("search_products", { sort_by: "stock", ascending: "false" });
    expect(order.isError).toBe(true);
    expect(order.text).toContain("ascending");
  });

  it("every figure comes with the line that says what it counts", async () => {
    const [orders, grouped, products, analytics, customers] = await Promise.all([
      ask("search_orders", { ...OCTOBER, limit: 0 }),
      ask("search_orders", { ...OCTOBER, group_by: ["source"] }),
      ask("search_products", { search: "áo thun", sold_since: OCTOBER.since, sold_until: OCTOBER.until, limit: 3 }),
      ask("get_sales_analytics", OCTOBER),
      ask("search_customers", { search: h.sandbox.pos.customers[0]!.phone_numbers[0]! }),
    ]);
    expect(orders.data.figures).toBe(
      "total: every match, canceled and deleted included; excluding_canceled_deleted: the sales among them (amount: goods after discounts, excl. shipping); totals: per status. Orders erased from the list (is_removed): not counted unless include_removed.",
    );
    expect(grouped.data.figures).toMatch(/^orders, amount \(goods after discounts, excl\. shipping\), cod, shipping_fee: sales, canceled and deleted orders counted apart/);
    expect(products.data.figures).toContain("sold: units on orders created within sold_span, canceled and deleted ones left out");
    expect(analytics.data.figures).toBe(
      'success: every order, canceled and deleted left out (totals.canceled, totals.deleted); returned: of those, the orders now returned whole (every unit, the order\'s amount), dated by the sale\'s date (dated_by.sales), not the day it came back; orders partly returned stay in success and net (totals.partly_returned; what came back of them, and return orders: search_orders statuses ["returned","partly_returned"]); net = success - returned; amount = price - discount.',
    );
    expect(customers.data.figures).toMatch(/^As the POS keeps them, all time, not the sales of the other tools: order_count: every order, canceled and deleted ones included/);
  });
});
