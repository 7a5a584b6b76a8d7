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
