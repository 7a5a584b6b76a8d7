import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";
import { amount, asking, buyerOf, countBy, discount, isVoid, price, type Row, type Span, shippingFee, shopDay, sum, truthOf, units, unitsPerVariation } from "./truth.js";

// Issue 39, "One meaning per word": every figure search_orders, search_products,
// get_sales_analytics, get_daily_report and search_customers give for the same span, checked
// against the sandbox's raw records and against each other. October is past (every order in it
// confirmed or canceled); November to date also holds orders not yet confirmed, sales all the same.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const ask = asking(h);

/** Every row of a search_products answer, its cursor followed. */
async function allVariations(args: Record<string, unknown>): Promise<{ first: Row; rows: Row[] }> {
  const first = (await ask("search_products", { ...args, limit: 50 })).data;
  const rows: Row[] = [...first.variations];
  for (let cursor = first.next_cursor; cursor; ) {
    const next = (await ask("search_products", { ...args, limit: 50, cursor })).data;
    rows.push(...next.variations);
    cursor = next.next_cursor;
  }
  return { first, rows };
}

const sumOf = (rows: Row[], figure: string) => rows.reduce((n, r) => n + (r[figure] ?? 0), 0);
const byKey = (rows: Row[], key: string, figure: string) => Object.fromEntries(rows.map((r) => [r[key], r[figure]]));
const fromMap = (map: Map<string, number>) => Object.fromEntries(map);

/** The answers of every tool for one span, asked once. */
async function answersFor(span: Span) {
  const [counts, rows, byStatus, byCustomer, byDay, returning, analytics, byVariation, byBuyer] = await Promise.all([
    ask("search_orders", { ...span, limit: 0 }),
    ask("search_orders", { ...span, fields: ["id", "status"], limit: 5 }),
    ask("search_orders", { ...span, group_by: ["status"], limit: 100 }),
    ask("search_orders", { ...span, group_by: ["customer"], limit: 100 }),
    ask("search_orders", { ...span, group_by: ["day"], limit: 40 }),
    ask("search_orders", { ...span, group_by: ["customer"], buyers: "returning", limit: 100 }),
    ask("get_sales_analytics", { ...span }),
    ask("get_sales_analytics", { ...span, split_by: ["Variation.id"], limit: 500 }),
    ask("get_sales_analytics", { ...span, split_by: ["Customer.id"], limit: 500 }),
  ]);
  const products = await allVariations({ sold_since: span.since, sold_until: span.until });
  return { counts, rows, byStatus, byCustomer, byDay, returning, analytics, byVariation, byBuyer, products };
}

const SPANS: Span[] = [
  { since: "2026-10-01", until: "2026-10-31" },
  { since: "2026-11-01", until: "2026-11-22" },
];

describe.each(SPANS)("the figures of $since to $until", (span) => {
  let answers: Awaited<ReturnType<typeof answersFor>> | undefined;
  const asked = async () => (answers ??= await answersFor(span));
  const truth = () => truthOf(h.sandbox.pos, span);

  it("search_orders: total, sales, per status, per day, per buyer, returning buyers", async () => {
    const t = truth();
    const { counts, rows, byStatus, byCustomer, byDay, returning } = await asked();
    expect(t.canceled.length + t.deleted.length).toBeGreaterThan(0);
    const sales = { orders: t.sales.length, amount: sum(t.sales, amount) };
    for (const answer of [counts, rows, byStatus, byCustomer, byDay]) {
      expect(answer.data.total).toBe(t.placed.length);
      expect(answer.data.excluding_canceled_deleted).toEqual(sales);
      expect(answer.data.range).toMatchObject({ by: "created" });
    }
    // Per status, from the list of rows (its fields hold no price) as from the counts.
    const perStatus = Object.fromEntries(
      [...countBy(t.placed, (o) => o.status_name)].map(([status, list]) => [status, { orders: list.length, amount: sum(list, amount), cod: sum(list, (o) => o.cod), shipping_fee: sum(list, shippingFee) }]),
    );
    expect(counts.data.totals).toMatchObject(perStatus);
    expect(rows.data.totals).toMatchObject(perStatus);
    expect(Object.fromEntries(byStatus.data.groups.map((g: Row) => [g.status, { orders: g.orders, amount: g.amount, cod: g.cod, shipping_fee: g.shipping_fee }]))).toEqual(perStatus);
    // Per day: the sales, canceled and deleted apart.
    const days = countBy(t.sales, (o) => shopDay(o.inserted_at));
    expect(byKey(byDay.data.groups, "day", "orders")).toEqual(Object.fromEntries([...days].map(([d, list]) => [d, list.length])));
    expect(byDay.data.canceled ?? { orders: 0, amount: 0 }).toEqual({ orders: t.canceled.length, amount: sum(t.canceled, amount) });
    // Per buyer: every buyer of a sale, and no one else (the rows past limit summed in "other").
    expect(byCustomer.data.group_count).toBe(t.buyers.size);
    expect(sumOf(byCustomer.data.groups, "orders")).toBe(t.sales.length);
    expect(sumOf(byCustomer.data.groups, "amount")).toBe(sales.amount);
    for (const g of byCustomer.data.groups.filter((row: Row) => row.customer_id)) expect(g.orders, g.customer).toBe(t.buyers.get(g.customer_id)!.length);
    expect(returning.data.group_count).toBe(t.returning.length);
    expect(returning.data.groups.every((g: Row) => g.orders > 0)).toBe(true);
  });

  it("search_products: units sold per variant and summed, and what sold nothing", async () => {
    const t = truth();
    const { products } = await asked();
    const sold = unitsPerVariation(t.sales);
    const catalog = h.sandbox.pos.variations.length;
    expect(products.rows).toHaveLength(catalog);
    expect(Object.fromEntries(products.rows.filter((v) => v.sold > 0).map((v) => [v.variation_id, v.sold]))).toEqual(fromMap(sold));
    expect(products.first.sold_totals).toMatchObject({ sold: sum(t.sales, units), variations_sold: sold.size, variations_unsold: catalog - sold.size });
    expect(products.first.sold_span).toMatchObject({ by: "created" });
    expect(products.first.figures).toContain("canceled and deleted ones left out");
  });

  it("get_sales_analytics: totals, rows by day, by variant and by buyer", async () => {
    const t = truth();
    const { analytics, byVariation, byBuyer } = await asked();
    const success = {
      order_count: t.sales.length,
      price: sum(t.sales, price),
      discount: sum(t.sales, discount),
      amount: sum(t.sales, amount),
      product_count: sum(t.sales, units),
      cod: sum(t.sales, (o) => o.cod),
      shipping_fee: sum(t.sales, shippingFee),
    };
    expect(analytics.data.totals.success).toMatchObject(success);
    expect(analytics.data.totals.canceled).toMatchObject({ order_count: t.canceled.length, amount: sum(t.canceled, amount) });
    expect(analytics.data.totals.deleted).toMatchObject({ order_count: t.deleted.length, amount: sum(t.deleted, amount) });
    expect(analytics.data.totals.returned).toMatchObject({ order_count: t.returned.length, price: sum(t.returned, price) });
    expect(analytics.data.totals.net).toMatchObject({ order_count: t.sales.length - t.returned.length, amount: success.amount - sum(t.returned, amount) });
    expect(analytics.data.dated_by).toEqual({ sales: "created", returns: "sale date" });
    // The rows are the span's days, and add up to the totals.
    const days = countBy(t.sales, (o) => shopDay(o.inserted_at));
    expect(byKey(analytics.data.rows, "Time.day", "order_count")).toEqual(Object.fromEntries([...days].map(([d, list]) => [d, list.length])));
    expect(sumOf(analytics.data.rows, "price")).toBe(success.price);
    expect(byKey(byVariation.data.rows, "Variation.id", "product_count")).toEqual(fromMap(unitsPerVariation(t.sales)));
    expect(byVariation.data.totals.success.product_count).toBe(success.product_count);
    expect(byKey(byBuyer.data.rows, "Customer.id", "order_count")).toEqual(Object.fromEntries([...t.buyers].map(([b, list]) => [b, list.length])));
  });

  it("agree with each other, read off the answers alone", async () => {
    const { counts, byStatus, byCustomer, byDay, analytics, byVariation, byBuyer, products } = await asked();
    const sales = counts.data.excluding_canceled_deleted;
    const live = byStatus.data.groups.filter((g: Row) => g.status !== "canceled" && g.status !== "deleted");
    // Orders: the same number whichever tool counts them.
    for (const orders of [analytics.data.totals.success.order_count, sumOf(byCustomer.data.groups, "orders"), sumOf(byDay.data.groups, "orders"), sumOf(live, "orders"), sumOf(analytics.data.rows, "order_count")]) {
      expect(orders).toBe(sales.orders);
    }
    // Revenue: search_orders' amount is the statistics' price less discount.
    for (const value of [analytics.data.totals.success.amount, sumOf(byDay.data.groups, "amount"), sumOf(live, "amount")]) expect(value).toBe(sales.amount);
    // Canceled and deleted: apart in both.
    expect(analytics.data.totals.canceled.order_count).toBe(counts.data.totals.canceled?.orders ?? 0);
    expect(analytics.data.totals.deleted.order_count).toBe(counts.data.totals.deleted?.orders ?? 0);
    expect(analytics.data.totals.canceled.amount).toBe(counts.data.totals.canceled?.amount ?? 0);
    // Units sold, per variant and in all; the variants that sold and those that did not make the catalog.
    const sold = Object.fromEntries(products.rows.filter((v) => v.sold > 0).map((v) => [v.variation_id, v.sold]));
    expect(byKey(byVariation.data.rows, "Variation.id", "product_count")).toEqual(sold);
    expect(products.first.sold_totals.sold).toBe(analytics.data.totals.success.product_count);
    expect(byVariation.data.row_count + products.first.sold_totals.variations_unsold).toBe(products.first.total);
    // Buyers: the customers the statistics split by are search_orders' buyers.
    expect(byBuyer.data.row_count).toBe(byCustomer.data.group_count);
    const listed = byCustomer.data.groups.filter((g: Row) => g.customer_id);
    const statistics = byKey(byBuyer.data.rows, "Customer.id", "order_count");
    for (const g of listed) expect(statistics[g.customer_id], g.customer).toBe(g.orders);
  });
});

describe("one day, and a customer's own figures", () => {
  it("get_daily_report's sales are the day's in search_orders and get_sales_analytics", async () => {
    // The day with the most canceled or deleted orders of the last weeks: the figure that used to differ.
    const recent = h.sandbox.pos.orders.filter((o) => !o.is_removed && o.inserted_at >= "2026-11-01");
    const [day] = [...countBy(recent.filter(isVoid), (o) => shopDay(o.inserted_at))].sort((a, b) => b[1].length - a[1].length)[0]!;
    const t = truthOf(h.sandbox.pos, { since: day, until: day });
    const [report, orders, analytics] = await Promise.all([
      ask("get_daily_report", { date: day }),
      ask("search_orders", { since: day, until: day, limit: 0 }),
      ask("get_sales_analytics", { since: day, until: day }),
    ]);
    const sales = report.data.sales;
    expect(sales).toMatchObject({
      order_count: t.sales.length,
      amount: sum(t.sales, amount),
      price: sum(t.sales, price),
      product_count: sum(t.sales, units),
      canceled_orders: t.canceled.length + t.deleted.length,
      returned_orders: t.returned.length,
    });
    expect(sales.canceled_orders).toBeGreaterThan(0);
    expect({ orders: sales.order_count, amount: sales.amount }).toEqual(orders.data.excluding_canceled_deleted);
    expect(sales).toMatchObject({ order_count: analytics.data.totals.success.order_count, amount: analytics.data.totals.success.amount });
    expect(sales.figures).toContain("canceled and deleted left out");
    expect(sales.figures).toContain("returned_orders: of the day's orders, those returned whole since (counted on the order's day, not the day they came back;");
  });

  it("search_customers' POS-held order figures count what their glossary says, as search_orders counts them", async () => {
    const pos = h.sandbox.pos;
    // Customers with a canceled or deleted order: where "every order" and "sales" differ.
    const withVoid = [...new Set(pos.orders.filter((o) => !o.is_removed && isVoid(o) && o.shop_customer_id).map((o) => o.shop_customer_id!))].slice(0, 3);
    expect(withVoid.length).toBeGreaterThan(1);
    const r = await ask("search_customers", { customer_ids: withVoid });
    expect(r.data.figures).toMatch(/order_count: every order, canceled and deleted ones included/);
    expect(r.data.figures).toContain("purchased_amount: the POS's own field, the goods of those delivered orders (their total_price: after item discounts, before order discounts, shipping excluded)");
    for (const id of withVoid) {
      const theirs = pos.orders.filter((o) => !o.is_removed && buyerOf(o) === id);
      const row = r.data.customers.find((c: Row) => c.id === id);
      const delivered = theirs.filter((o) => o.status === 3 || o.status === 16);
      expect(row, id).toMatchObject({ order_count: theirs.length, succeeded_orders: delivered.length });
      expect(row.purchased_amount ?? 0, id).toBe(delivered.reduce((n, o) => n + o.total_price, 0));
      // search_orders all time: total is the POS's order_count, the sales leave the canceled and deleted out.
      const orders = await ask("search_orders", { customer_id: id, limit: 0 });
      expect(orders.data.total).toBe(row.order_count);
      expect(orders.data.excluding_canceled_deleted.orders).toBe(theirs.filter((o) => !isVoid(o)).length);
      expect(orders.data.excluding_canceled_deleted.orders).toBeLessThan(row.order_count);
    }
  });
});
