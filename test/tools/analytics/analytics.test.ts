import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/types.js";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
// biome-ignore lint/suspicious/noExplicitAny: rows are read by their split names
type Row = Record<string, any>;

const pos = () => h.sandbox.pos;
const SHOP_OFFSET_MS = 7 * 3_600_000;
const at = (recordTime: string) => Date.parse(`${recordTime}Z`);
const shopDay = (recordTime: string) => new Date(at(recordTime) + SHOP_OFFSET_MS).toISOString().slice(0, 10);
const sum = (orders: OrderRecord[], pick: (o: OrderRecord) => number) => orders.reduce((total, o) => total + pick(o), 0);
const price = (o: OrderRecord) => o.items.reduce((total, it) => total + it.variation_info.retail_price * it.quantity, 0);
const units = (o: OrderRecord) => o.items.reduce((total, it) => total + it.quantity, 0);

/**
 * Orders counted as sales: created inside [since, until] shop days, neither canceled nor deleted
 * (whenever that happened); with `status` (success_status), those that reached it.
 */
function sales(since: string, until: string, status?: number): OrderRecord[] {
  const from = Date.parse(`${since}T00:00:00+07:00`);
  const to = Date.parse(`${until}T23:59:59+07:00`);
  return pos().orders.filter(
    (o) =>
      !o.is_removed &&
      o.status !== 6 &&
      o.status !== 7 &&
      (status === undefined || o.status_history.some((s) => s.status === status)) &&
      at(o.inserted_at) >= from &&
      at(o.inserted_at) <= to,
  );
}

function groupBy<K>(orders: OrderRecord[], key: (o: OrderRecord) => K): Map<K, OrderRecord[]> {
  const groups = new Map<K, OrderRecord[]>();
  for (const o of orders) groups.set(key(o), [...(groups.get(key(o)) ?? []), o]);
  return groups;
}

describe("get_sales_analytics", () => {
  it("gives per-day figures and totals equal to what the orders imply", async () => {
    const r = await h.call("get_sales_analytics", { since: "2026-10-01", until: "2026-10-14" });
    expect(r.isError, r.text).toBe(false);
    const orders = sales("2026-10-01", "2026-10-14");
    expect(orders.length).toBeGreaterThan(10);
    const days = groupBy(orders, (o) => shopDay(o.inserted_at));
    expect(r.data.rows.map((row: Row) => row["Time.day"])).toEqual([...days.keys()].sort());
    for (const [day, list] of days) {
      expect(r.data.rows.find((row: Row) => row["Time.day"] === day), day).toMatchObject({
        order_count: list.length,
        price: sum(list, price),
        product_count: sum(list, units),
        cod: sum(list, (o) => o.cod),
        shipping_fee: sum(list, (o) => o.shipping_fee),
        discount: sum(list, (o) => o.total_discount),
      });
    }
    expect(r.data.totals.success).toMatchObject({
      order_count: orders.length,
      price: sum(orders, price),
      cod: sum(orders, (o) => o.cod),
      avg_price: Math.round(sum(orders, price) / orders.length),
    });
    expect(Object.keys(r.data)[0]).not.toBe("rows");
    expect(Object.keys(r.data).indexOf("totals")).toBeLessThan(Object.keys(r.data).indexOf("rows"));
    expect(r.data.since).toBe("2026-10-01T00:00:00+07:00");
    expect(r.data.currency).toBe("VND");
  });

  it("states the net figures: every order but canceled and deleted ones, returned ones deducted", async () => {
    const r = await h.call("get_sales_analytics", { since: "2026-09-01", until: "2026-11-22", split_by: ["Order.source"] });
    expect(r.isError, r.text).toBe(false);
    const orders = sales("2026-09-01", "2026-11-22");
    // Not yet confirmed: a sale all the same, as search_orders counts it.
    expect(orders.some((o) => o.status === 0)).toBe(true);
    expect(r.data.dated_by).toEqual({ sales: "created", returns: "sale date" });
    const returned = orders.filter((o) => o.status === 5);
    expect(returned.length).toBeGreaterThan(0);
    const kept = orders.filter((o) => o.status !== 5);
    expect(r.data.totals.success).toMatchObject({ order_count: orders.length, price: sum(orders, price) });
    expect(r.data.totals.returned).toMatchObject({ order_count: returned.length, price: sum(returned, price) });
    expect(r.data.totals.net).toMatchObject({
      order_count: kept.length,
      price: sum(kept, price),
      cod: sum(kept, (o) => o.cod),
      avg_price: Math.round(sum(kept, price) / kept.length),
    });
  });

  it("explains the metrics, and gives the shop's formulas when select_fields names them", async () => {
    const formula = pos().formulas[0]!;
    const field = `custom_formula_${formula.id}`;
    const plain = await h.call("get_sales_analytics", { since: "2026-10-01", until: "2026-10-03" });
    expect(plain.data.metrics.price).toBe(pos().analyticFields.find((f) => f.id === "price")!.name);
    // Left out unless asked: a 50-character key on every row, mostly restating the other figures.
    expect(plain.text).not.toContain("custom_formula_");
    const r = await h.call("get_sales_analytics", { since: "2026-10-01", until: "2026-10-03", select_fields: ["price", "shipping_fee", field] });
    expect(r.data.metrics[field]).toBe(`${formula.name} = ${formula.formula}`);
    const day = r.data.rows[0] as Record<string, number>;
    expect(day[field]).toBe(day.price! - day.shipping_fee!);
  });

  it("splits by source with success_status, select_fields and returned figures", async () => {
    const r = await h.call("get_sales_analytics", {
      since: "2026-09-01",
      until: "2026-10-31",
      split_by: ["Order.source"],
      success_status: "send_to_partner",
      returned_status: "returning",
      select_fields: '["order_count","price"]',
    });
    expect(r.isError, r.text).toBe(false);
    const orders = sales("2026-09-01", "2026-10-31", 9);
    for (const [source, list] of groupBy(orders, (o) => o.order_sources_name)) {
      const returned = list.filter((o) => o.status === 4 || o.status === 5);
      const row = r.data.rows.find((x: Row) => x["Order.source"] === source);
      expect(row, source).toEqual({
        "Order.source": source,
        order_count: list.length,
        price: sum(list, price),
        ...(returned.length ? { returned: { order_count: returned.length, price: sum(returned, price) } } : {}),
      });
    }
    const returnedAll = orders.filter((o) => o.status === 4 || o.status === 5);
    expect(returnedAll.length).toBeGreaterThan(0);
    expect(r.data.totals.returned.order_count).toBe(returnedAll.length);
  });

  it("filters to products and splits by product", async () => {
    const product = pos().products[0]!;
    const r = await h.call("get_sales_analytics", {
      since: "2026-08-25",
      until: "2026-11-22",
      split_by: ["Variation.product_id"],
      filter: { "Variation.product_id": [String(product.id)] },
    });
    expect(r.isError, r.text).toBe(false);
    const lines = sales("2026-08-25", "2026-11-22").flatMap((o) => o.items.filter((it) => it.product_id === product.id));
    expect(lines.length).toBeGreaterThan(0);
    expect(r.data.rows.map((row: Row) => row["Variation.product_id"])).toEqual([String(product.id)]);
    expect(r.data.rows[0].product_count).toBe(lines.reduce((t, it) => t + it.quantity, 0));
    expect(r.data.totals.success.order_count).toBeUndefined();
  });

  it("names the variations of a Variation.id split with their product and variant", async () => {
    const r = await h.call("get_sales_analytics", { since: "2026-11-01", until: "2026-11-22", split_by: ["Variation.id"], limit: 50 });
    expect(r.isError, r.text).toBe(false);
    const ids: string[] = r.data.rows.map((row: Row) => row["Variation.id"]);
    expect(ids.length).toBeGreaterThan(1);
    const products = await h.call("search_products", { variation_ids: ids, limit: 50 });
    const named = new Map<string, { name: string; variant?: string }>(products.data.variations.map((v: { variation_id: string }) => [v.variation_id, v]));
    for (const id of ids) {
      const v = named.get(id)!;
      expect(r.data.rows.find((row: Row) => row["Variation.id"] === id).name).toBe(v.variant ? `${v.name} (${v.variant})` : v.name);
    }
  });

  it("splits by seller as search_orders means it (the assigned seller), the API's word understood too", async () => {
    const since = shopDay(new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 19));
    const until = shopDay(new Date().toISOString().slice(0, 19));
    const counts = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r["User.id"], r.order_count]));
    const bySeller = await h.call("get_sales_analytics", { since, until, split_by: ["User.id"], user_type: "seller" });
    expect(bySeller.isError, bySeller.text).toBe(false);
    const sent = h.sandbox.server.requests.filter((q) => q.path.endsWith("/analytics/sale")).at(-1)!;
    expect(sent.query.user_type).toEqual(["assign"]);
    const truth = groupBy(sales(since, until), (o) => o.assigning_seller_id ?? "");
    expect(counts(bySeller.data.rows)).toEqual(Object.fromEntries([...truth].map(([k, v]) => [k || "(none)", v.length])));
    const byApiWord = await h.call("get_sales_analytics", { since, until, split_by: ["User.id"], user_type: "assign" });
    expect(byApiWord.data.rows).toEqual(bySeller.data.rows);
  });

  it("names products and staff in Variation.product_id and User.id rows", async () => {
    const byProduct = await h.call("get_sales_analytics", { since: "2026-09-01", until: "2026-11-22", split_by: ["Variation.product_id"] });
    expect(byProduct.isError, byProduct.text).toBe(false);
    expect(byProduct.data.rows.length).toBeGreaterThan(5);
    for (const row of byProduct.data.rows) expect(row.name).toBe(pos().products.find((p) => p.id === row["Variation.product_id"])!.name);
    const byStaff = await h.call("get_sales_analytics", { since: "2026-09-01", until: "2026-11-22", split_by: ["User.id", "Order.source"], limit: 5 });
    expect(byStaff.isError, byStaff.text).toBe(false);
    for (const row of byStaff.data.rows) expect(row.name).toBe(pos().users.find((u) => u.id === row["User.id"])!.name);
  });

  it("names the splits of the shop's lists in place, provinces as since 2025 (merged rows summed), customers beside their ids", async () => {
    const [since, until] = ["2026-09-01", "2026-11-22"];
    const orders = sales(since, until);
    const carrier = (o: OrderRecord) => pos().partners.find((p) => p.id === o.partner?.partner_id)?.name ?? "(none)";
    const province = (o: OrderRecord) => {
      const id = o.shipping_address.province_id;
      const now = pos().geo.newProvinces.find((p) => p.id === id) ?? pos().geo.newProvinces.find((p) => p.id === pos().geo.provinces.find((old) => old.id === id)?.new_id);
      return now!.name;
    };
    const cases: [string, (o: OrderRecord) => string][] = [
      ["Order.status", (o) => o.status_name],
      ["Order.partner_id", carrier],
      ["Order.warehouse_id", (o) => pos().warehouses.find((w) => w.id === o.warehouse_id)!.name],
      ["Order.province_id", province],
      ["Order.source", (o) => o.order_sources_name],
      ["Time.month", (o) => shopDay(o.inserted_at).slice(0, 7)],
    ];
    for (const [split, label] of cases) {
      const r = await h.call("get_sales_analytics", { since, until, split_by: [split], limit: 500 });
      expect(r.isError, r.text).toBe(false);
      const expected = Object.fromEntries([...groupBy(orders, label)].map(([name, list]) => [name, { order_count: list.length, price: sum(list, price) }]));
      expect(Object.fromEntries(r.data.rows.map((row: Row) => [row[split], { order_count: row.order_count, price: row.price }])), split).toEqual(expected);
      expect(r.data.row_count, split).toBe(Object.keys(expected).length);
    }
    // Merged provinces summed: one row of Hồ Chí Minh for its three old provinces.
    const hcm = await h.call("get_sales_analytics", { since, until, split_by: ["Order.province_id"], limit: 500 });
    expect(hcm.data.rows.filter((row: Row) => row["Order.province_id"] === "Thành phố Hồ Chí Minh")).toHaveLength(1);
    const byCustomer = await h.call("get_sales_analytics", { since, until, split_by: ["Customer.id"], limit: 5 });
    for (const row of byCustomer.data.rows) expect(row.name).toBe(pos().customers.find((c) => c.id === row["Customer.id"])!.name);
  });

  it("filters by the splits' keys given names, or all but them with _exclude", async () => {
    const [since, until] = ["2026-09-01", "2026-11-22"];
    const orders = sales(since, until);
    const partner = pos().partners.find((p) => orders.some((o) => o.partner?.partner_id === p.id))!;
    const r = await h.call("get_sales_analytics", {
      since,
      until,
      filter: { "Order.partner_id": [partner.name], "Order.status_exclude": ["returned", "canceled"] },
    });
    expect(r.isError, r.text).toBe(false);
    const kept = orders.filter((o) => o.partner?.partner_id === partner.id && o.status !== 5 && o.status !== 6);
    expect(kept.length).toBeGreaterThan(0);
    expect(r.data.totals.success.order_count).toBe(kept.length);
    // A province of today stands for the old ones merged into it.
    const hcm = await h.call("get_sales_analytics", { since, until, filter: { "Order.province_id": ["Hồ Chí Minh"] } });
    const olds = pos().geo.provinces.filter((p) => p.new_id === "84_VN129").map((p) => p.id);
    expect(hcm.data.totals.success.order_count).toBe(orders.filter((o) => olds.includes(o.shipping_address.province_id)).length);
    const unknown = await h.call("get_sales_analytics", { filter: { "Order.partner_id": ["Pigeon Post"] } });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('filter["Order.partner_id"][0]');
    expect(unknown.text).toContain(partner.name);
  });

  it("gives sanitized split values, \"__proto__\" included", async () => {
    h.sandbox.server.injectFault({
      path: /\/analytics\/sale$/,
      kind: "status",
      status: 200,
      body: {
        success: true,
        data: [
          { "Order.source": "__proto__", success: { order_count: 2 } },
          { "Order.source": "Zalo\u202e\u0007 shop", success: { order_count: 3 } },
        ],
      },
    });
    const r = await h.call("get_sales_analytics", { since: "2026-10-01", until: "2026-10-03", split_by: ["Order.source"] });
    expect(r.isError, r.text).toBe(false);
    const rows = JSON.parse(r.text).rows as Row[];
    // A "__proto__" split value is an ordinary row; rows come largest first.
    expect(rows).toEqual([
      { "Order.source": "Zalo shop", order_count: 3 },
      { "Order.source": "__proto__", order_count: 2 },
    ]);
  });

  it("answers best sellers on the first call: every row ranked by revenue before the cut, the cut said", async () => {
    const r = await h.call("get_sales_analytics", { since: "2026-08-25", until: "2026-11-22", split_by: ["Variation.id"], limit: 10 });
    expect(r.isError, r.text).toBe(false);
    const revenue = new Map<string, number>();
    for (const o of sales("2026-08-25", "2026-11-22")) {
      for (const it of o.items) revenue.set(String(it.variation_id), (revenue.get(String(it.variation_id)) ?? 0) + it.variation_info.retail_price * it.quantity);
    }
    expect(revenue.size).toBeGreaterThan(10);
    const top = [...revenue.values()].sort((a, b) => b - a).slice(0, 10);
    expect(r.data.rows.map((row: Row) => row.price)).toEqual(top);
    expect(r.data).toMatchObject({ truncated: true, row_count: revenue.size });
  });

  it("sorts by any metric it returns, and refuses one it does not", async () => {
    const r = await h.call("get_sales_analytics", { since: "2026-10-01", until: "2026-10-31", split_by: ["Order.source"], sort_by: "order_count" });
    const counts = r.data.rows.map((row: Row) => row.order_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(r.data.truncated).toBeUndefined();
    const bad = await h.call("get_sales_analytics", { split_by: ["Order.source"], sort_by: "revenue" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/sort_by: "revenue" is not a figure.*\n.*price/);
  });

  it("defaults to the last 30 days, today included", async () => {
    const r = await h.call("get_sales_analytics", {});
    const today = new Date(h.sandbox.now.getTime() + SHOP_OFFSET_MS).toISOString().slice(0, 10);
    const first = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    expect(r.data.since).toBe(`${first}T00:00:00+07:00`);
  });

  it("rejects unknown options before calling", async () => {
    const path = `/shops/${pos().shop.id}/analytics/sale`;
    const before = h.sandbox.server.count("GET", path);
    for (const [args, field] of [
      [{ split_by: ["Time.week"] }, /split_by/],
      [{ returned_status: "lost" }, /returned_status/],
      [{ filter: { "Order.id": ["1"] } }, /filter/],
      [{ user_type: "boss" }, /user_type/],
    ] as const) {
      const r = await h.call("get_sales_analytics", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(field);
    }
    expect(h.sandbox.server.count("GET", path)).toBe(before);
  });
});

describe("list_sales_metrics", () => {
  it("lists the fields and the custom formulas", async () => {
    const r = await h.call("list_sales_metrics");
    expect(r.isError, r.text).toBe(false);
    expect(r.data.metrics).toHaveLength(pos().analyticFields.length + pos().formulas.length);
    const formula = pos().formulas[1]!;
    expect(r.data.metrics).toContainEqual({ field: `custom_formula_${formula.id}`, name: formula.name, formula: formula.formula, unit: formula.unit });
  });
});
