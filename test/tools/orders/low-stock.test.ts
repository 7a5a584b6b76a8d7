import { describe, expect, it } from "vitest";
import type { VariationRecord } from "../../../src/sandbox/pos/index.js";
import { allPages } from "../../helpers/all-pages.js";
import { useHarness } from "../../helpers/harness.js";

// "What is running low?": variations at or below a stock level, in one warehouse or in all.
// Expectations are read from the seeded variations, in the list's own order.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;

type Row = { variation_id: string; stock_available: number; stock_by_warehouse?: Record<string, number>; warehouse?: string };

const all = async (args: Record<string, unknown>) => ({ rows: (await allPages(h, "search_products", "variations", args)) as Row[] });

const inWarehouse = (v: VariationRecord, id: string) => v.variations_warehouses.find((s) => s.warehouse_id === id)?.remain_quantity ?? 0;

describe("search_products by stock level", () => {
  it("without a warehouse, lists variations at or below N in any warehouse and names those warehouses", async () => {
    const n = 5;
    const low = (v: VariationRecord) => v.variations_warehouses.filter((s) => s.remain_quantity <= n).map((s) => s.warehouse_id);
    const expected = pos().variations.filter((v) => low(v).length > 0);
    expect(expected.length).toBeGreaterThan(3);
    // The case the total hid: low in one warehouse while the total is well above N.
    expect(expected.some((v) => v.remain_quantity > n)).toBe(true);
    const first = await h.call("search_products", { max_stock: n, limit: 3 });
    expect(first.data.variations).toHaveLength(3);
    expect(first.data.total).toBeUndefined();
    expect(first.data.next_cursor).toBeDefined();
    const { rows } = await all({ max_stock: n, limit: 3 });
    expect(rows.map((r) => r.variation_id)).toEqual(expected.map((v) => v.id));
    const names = new Map(pos().warehouses.map((w) => [w.id, w.name]));
    for (const [i, r] of rows.entries()) {
      const where = low(expected[i]!).map((id) => names.get(id));
      expect((r as Row & { low_in: string[] }).low_in).toEqual(where);
      for (const name of where) expect(r.stock_by_warehouse![name!]).toBeLessThanOrEqual(n);
    }
  });

  it("reads one warehouse given by name, and shows only its stock, named", async () => {
    const hcm = pos().warehouses.find((w) => w.name === "Kho Hồ Chí Minh")!;
    const expected = pos().variations.filter((v) => inWarehouse(v, hcm.id) <= 5);
    expect(expected.length).toBeGreaterThan(0);
    const { rows } = await all({ max_stock: 5, warehouse_id: "kho ho chi minh", limit: 50 });
    expect(rows.map((r) => r.variation_id)).toEqual(expected.map((v) => v.id));
    for (const [i, r] of rows.entries()) {
      // That warehouse's units, not the shop's sum.
      expect([r.warehouse, r.stock_available]).toEqual([hcm.name, inWarehouse(expected[i]!, hcm.id)]);
      expect(r.stock_by_warehouse).toBeUndefined();
    }
  });

  it("finds low items within a product search, by warehouse id", async () => {
    const first = pos().warehouses[0]!.id;
    const expected = pos().variations.filter((v) => v.product.name.startsWith("Đầm") && inWarehouse(v, first) <= 10);
    expect(expected.length).toBeGreaterThan(0);
    const { rows } = await all({ search: "dam", max_stock: 10, warehouse_id: first, limit: 50 });
    expect(rows.map((r) => r.variation_id)).toEqual(expected.map((v) => v.id));
  });

  it("rejects an unknown warehouse with the shop's list", async () => {
    const r = await h.call("search_products", { max_stock: 3, warehouse_id: "Kho Cần Thơ" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("warehouse_id: unknown value");
    expect(r.text).toContain("Kho Hà Nội");
  });

  it("names the new parameter when called with the old one (warehouse, query)", async () => {
    const old = await h.call("search_products", { max_stock: 3, warehouse: "Kho Hà Nội" });
    expect(old.isError).toBe(true);
    expect(old.text).toContain("unknown parameter `warehouse`; did you mean `warehouse_id`?");
    const query = await h.call("search_products", { query: "dam" });
    expect(query.isError).toBe(true);
    expect(query.text).toMatch(/unknown parameter `query`; did you mean `search`\?.*valid: shop_id, search,/);
  });
});

describe("search_products by stock summed over every warehouse", () => {
  // "Which variants have fewer than 5 units in total?" and "the 10 lowest-stock variants": over the
  // whole catalog (more than one upstream page), from the raw warehouse rows.
  const big = useHarness({ sandbox: { ratePerSecond: 10_000 } });
  const catalog = () => big.sandbox.pos.variations;
  const total = (v: VariationRecord) => v.variations_warehouses.reduce((t, s) => t + s.remain_quantity, 0);
  /** Sets a variation's units per warehouse (and its total, as the POS keeps it). */
  const stock = (v: VariationRecord, units: number[]) => {
    v.variations_warehouses.forEach((s, i) => {
      s.remain_quantity = units[i] ?? 0;
    });
    v.remain_quantity = total(v);
  };
  type Row = { variation_id: string; stock_available: number; stock_by_warehouse: Record<string, number> };

  it("lists the variations with at most N units in all warehouses together, past the first page, in one call", async () => {
    expect(catalog().length).toBeGreaterThan(100);
    // Low in total on both sides of the first upstream page; 5 in total is not "fewer than 5";
    // 0 in one warehouse but plenty in all is low there, not in total.
    for (const [i, units] of [[3, [1, 0, 2]], [60, [0, 0, 0]], [104, [4, 0, 0]], [117, [0, 3, 1]], [40, [2, 2, 1]], [80, [0, 30, 12]]] as const) stock(catalog()[i]!, [...units]);
    const expected = catalog().filter((v) => total(v) <= 4);
    expect(expected.some((v) => catalog().indexOf(v) >= 100)).toBe(true);
    const r = await big.call("search_products", { max_total_stock: 4, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.total).toBe(expected.length);
    expect(r.data.next_cursor).toBeUndefined();
    expect(r.data.complete).toBeUndefined();
    const rows = r.data.variations as Row[];
    expect(rows.map((x) => x.variation_id)).toEqual(expected.map((v) => v.id));
    const names = new Map(big.sandbox.pos.warehouses.map((w) => [w.id, w.name]));
    for (const [i, row] of rows.entries()) {
      // The figure it was chosen by is the one it shows, with each warehouse's beside it.
      expect(row.stock_available).toBe(total(expected[i]!));
      expect(row.stock_by_warehouse).toEqual(Object.fromEntries(expected[i]!.variations_warehouses.map((s) => [names.get(s.warehouse_id), s.remain_quantity])));
    }
    expect(r.data.figures).toContain("stock_available:");
  });

  it("ranks the lowest totals first over the whole catalog, ties in catalog order, and pages on from the same order", async () => {
    const order = catalog()
      .map((v, i) => ({ v, i }))
      .sort((a, b) => total(a.v) - total(b.v) || a.i - b.i)
      .map(({ v }) => v);
    const first = await big.call("search_products", { sort_by: "stock", limit: 10 });
    expect(first.isError, first.text).toBe(false);
    expect((first.data.variations as Row[]).map((x) => [x.variation_id, x.stock_available])).toEqual(order.slice(0, 10).map((v) => [v.id, total(v)]));
    expect(first.data.total).toBe(catalog().length);
    const next = await big.call("search_products", { sort_by: "stock", limit: 10, cursor: first.data.next_cursor });
    expect((next.data.variations as Row[]).map((x) => x.variation_id)).toEqual(order.slice(10, 20).map((v) => v.id));
    // Within a product search and below a total, lowest first.
    const dresses = order.filter((v) => v.product.name.startsWith("Đầm") && total(v) <= 60);
    expect(dresses.length).toBeGreaterThan(1);
    const within = await big.call("search_products", { search: "dam", max_total_stock: 60, sort_by: "stock", limit: 50 });
    expect((within.data.variations as Row[]).map((x) => x.variation_id)).toEqual(dresses.map((v) => v.id));
  });

  it("sums the stock of every match (limit 0: the totals alone), per warehouse by name", async () => {
    const names = new Map(big.sandbox.pos.warehouses.map((w) => [w.id, w.name]));
    const sums = (vs: VariationRecord[]) => {
      const per = (figure: "remain_quantity" | "actual_remain_quantity" | "pending_quantity") => {
        const out: Record<string, number> = {};
        for (const s of vs.flatMap((v) => v.variations_warehouses)) out[names.get(s.warehouse_id)!] = (out[names.get(s.warehouse_id)!] ?? 0) + (s[figure] ?? 0);
        return out;
      };
      // On the shelf where it differs from what can be sold; incoming where any.
      const [available, shelf] = [per("remain_quantity"), per("actual_remain_quantity")];
      const incoming = Object.fromEntries(Object.entries(per("pending_quantity")).filter(([, n]) => n > 0));
      return {
        variations: vs.length,
        stock_available: vs.reduce((t, v) => t + total(v), 0),
        stock_by_warehouse: available,
        physical_by_warehouse: JSON.stringify(shelf) === JSON.stringify(available) ? undefined : shelf,
        incoming_by_warehouse: Object.keys(incoming).length ? incoming : undefined,
      };
    };
    const whole = await big.call("search_products", { limit: 0 });
    expect(whole.isError, whole.text).toBe(false);
    expect(whole.data.variations).toEqual([]);
    expect(whole.data.next_cursor).toBeUndefined();
    expect(whole.data.total).toBe(catalog().length);
    expect(whole.data.stock_totals).toMatchObject(sums(catalog()));
    expect(whole.data.stock_totals.physical_by_warehouse).toBeDefined();
    expect(whole.data.stock_totals.incoming_by_warehouse).toBeDefined();
    expect(whole.data.stock_totals.stock_available).toBe(catalog().reduce((t, v) => t + v.remain_quantity, 0));
    const physical = catalog().flatMap((v) => v.variations_warehouses.map((s) => s.actual_remain_quantity));
    expect(whole.data.stock_totals.stock_physical).toBe(physical.reduce((t, n) => t + n, 0));
    expect(whole.data.figures).toContain("stock_available:");
    // With the lowest listed, the totals are still every match's, and within a search its matches'.
    const lowest = await big.call("search_products", { sort_by: "stock", limit: 3 });
    expect(lowest.data.variations).toHaveLength(3);
    expect(lowest.data.stock_totals).toEqual(whole.data.stock_totals);
    const dresses = await big.call("search_products", { search: "dam", limit: 0 });
    expect(dresses.data.stock_totals).toMatchObject(sums(catalog().filter((v) => v.product.name.startsWith("Đầm"))));
    // One warehouse's, named as the rows name it.
    const hanoi = big.sandbox.pos.warehouses.find((w) => w.name === "Kho Hà Nội")!;
    const one = await big.call("search_products", { limit: 0, warehouse_id: "kho ha noi" });
    expect(one.data.stock_totals).toMatchObject({ warehouse: "Kho Hà Nội", stock_available: catalog().reduce((t, v) => t + (v.variations_warehouses.find((s) => s.warehouse_id === hanoi.id)?.remain_quantity ?? 0), 0) });
    expect(one.data.stock_totals.stock_by_warehouse).toBeUndefined();
    const resumed = await big.call("search_products", { limit: 0, cursor: lowest.data.next_cursor });
    expect(resumed.isError).toBe(true);
    expect(resumed.text).toMatch(/cursor/);
  });

  it("refuses a total with one warehouse, and an unknown order, naming the valid ones", async () => {
    const both = await big.call("search_products", { max_total_stock: 3, warehouse_id: "Kho Hà Nội" });
    expect(both.isError).toBe(true);
    expect(both.text).toContain("max_total_stock");
    expect(both.text).toContain("max_stock");
    const bad = await big.call("search_products", { sort_by: "price" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("sort_by");
    expect(bad.text).toContain("stock");
  });

  it("says complete: false, with no total, when the catalog is longer than one call reads", async () => {
    const base = catalog()[0]!;
    for (let i = 0; i < 3000; i++) catalog().push({ ...structuredClone(base), id: `bulk-${i}`, display_id: `BULK${i}` });
    const r = await big.call("search_products", { max_total_stock: 4, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.complete).toBe(false);
    expect(r.data.total).toBeUndefined();
    expect(r.data.note).toContain(`of ${catalog().length} variations`);
  });
});
