import { describe, expect, it } from "vitest";
import type { VariationRecord } from "../../../src/sandbox/pos/index.js";
import { allPages } from "../../helpers/all-pages.js";
import { useHarness } from "../../helpers/harness.js";

// "What is running low?": variations at or below a stock level, in one warehouse or in all.
// Expectations are read from the seeded variations, in the list's own order.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;

type Row = { variation_id: string; stock: number; stock_by_warehouse: Record<string, number>; available_by_warehouse?: Record<string, number> };

const all = async (args: Record<string, unknown>) => ({ rows: (await allPages(h, "search_products", "variations", args)) as Row[] });

const inWarehouse = (v: VariationRecord, id: string) => v.variations_warehouses.find((s) => s.warehouse_id === id)?.remain_quantity ?? 0;

describe("search_products by stock level", () => {
  it("lists variations whose total stock is at or below N", async () => {
    const n = 60;
    const expected = pos().variations.filter((v) => v.remain_quantity <= n).map((v) => v.id);
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.length).toBeLessThan(pos().variations.length);
    const first = await h.call("search_products", { max_stock: n, limit: 3 });
    expect(first.data.variations).toHaveLength(3);
    expect(first.data.total).toBeUndefined();
    expect(first.data.next_cursor).toBeDefined();
    const { rows } = await all({ max_stock: n, limit: 3 });
    expect(rows.map((r) => r.variation_id)).toEqual(expected);
    for (const r of rows) expect(r.stock).toBeLessThanOrEqual(n);
  });

  it("reads one warehouse given by name, and shows only its stock, named", async () => {
    const hcm = pos().warehouses.find((w) => w.name === "Kho Hồ Chí Minh")!;
    const expected = pos().variations.filter((v) => inWarehouse(v, hcm.id) <= 5);
    expect(expected.length).toBeGreaterThan(0);
    const { rows } = await all({ max_stock: 5, warehouse_id: "kho ho chi minh", limit: 50 });
    expect(rows.map((r) => r.variation_id)).toEqual(expected.map((v) => v.id));
    for (const [i, r] of rows.entries()) {
      expect(r.stock_by_warehouse).toEqual({ [hcm.name]: inWarehouse(expected[i]!, hcm.id) });
      expect(r.available_by_warehouse).toBeUndefined();
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
    expect(query.text).toMatch(/unknown parameter `query`.*valid: shop_id, search,/);
  });
});
