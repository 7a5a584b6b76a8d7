import { describe, expect, it } from "vitest";
import type { VariationRecord } from "../../../src/sandbox/pos/index.js";
import { useHarness } from "../../helpers/harness.js";

// "How many Áo thun Hàn Quốc nâu M are left in Hà Nội?": a variation found by its product's name
// and its variant's words, and stock figures that say what they count, per warehouse when asked.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;

type Row = {
  variation_id: string;
  warehouse?: string;
  stock_available: number;
  stock_physical?: number;
  stock_incoming?: number;
  stock_by_warehouse?: Record<string, number>;
};

const variant = (v: VariationRecord) => v.fields.map((f) => f.value).join(" ");
const ascii = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/đ/g, "d").replace(/Đ/g, "D");
const ids = (rows: Row[]) => rows.map((r) => r.variation_id);
/** Units of a variation in a warehouse on purchases not yet received. */
const incoming = (v: VariationRecord, warehouseId?: string) =>
  pos()
    .purchases.filter((p) => p.status === 0 && (warehouseId === undefined || p.warehouse_id === warehouseId))
    .flatMap((p) => p.items as { variation_id: string; quantity: number }[])
    .filter((it) => it.variation_id === v.id)
    .reduce((t, it) => t + it.quantity, 0);

/** Every variation a search lists, following next_cursor from the first call, and the first call's total. */
async function walk(harness: typeof h, args: Record<string, unknown>) {
  const first = await harness.call("search_products", args);
  expect(first.isError, first.text).toBe(false);
  const seen = ids(first.data.variations);
  for (let cursor = first.data.next_cursor; cursor; ) {
    const next = await harness.call("search_products", { ...args, cursor });
    seen.push(...ids(next.data.variations));
    cursor = next.data.next_cursor;
  }
  return { total: first.data.total as number | undefined, seen };
}

describe("search_products by product name and variant words", () => {
  it("finds the one variation a name and its variant's words designate, accents optional", async () => {
    for (const v of [pos().variations.find((x) => x.product.name === "Áo thun Hàn Quốc" && variant(x) === "Nâu M")!, pos().variations.find((x) => variant(x).startsWith("Xanh navy"))!]) {
      const named = `${v.product.name} ${variant(v).toLowerCase()}`;
      for (const search of [named, ascii(named)]) {
        const r = await h.call("search_products", { search });
        expect(r.isError, r.text).toBe(false);
        expect(ids(r.data.variations), search).toEqual([v.id]);
      }
    }
  });

  it("pages the variations of several products a short name and a size designate", async () => {
    const expected = pos().variations.filter((v) => v.product.name.startsWith("Áo thun") && v.fields.some((f) => f.value === "M"));
    expect(expected.length).toBeGreaterThan(1);
    const { total, seen } = await walk(h, { search: "ao thun M", limit: 1 });
    expect(total).toBe(expected.length);
    expect(seen).toEqual(expected.map((v) => v.id));
  });

  it("says when the product has no such variant, rather than an empty list that reads as none", async () => {
    const r = await h.call("search_products", { search: "Áo thun Hàn Quốc tím XXL" });
    expect(r.data.variations).toEqual([]);
    expect(r.data.note).toContain('"Áo thun Hàn Quốc"');
    expect(r.data.note).toContain('"tím XXL"');
  });
});

describe("a name and variant words over a catalog larger than one page", () => {
  const big = useHarness({ sandbox: { ratePerSecond: 10_000 } });
  const base = () => big.sandbox.pos.variations.find((v) => v.product.name === "Áo thun Hàn Quốc")!;
  /** Copies of a variation under another product name and variant, first in the catalog. */
  const add = (from: number, count: number, name: (i: number) => string, values: [string, string]) => {
    for (let i = from; i < from + count; i++) {
      const copy = structuredClone(base());
      copy.id = `extra-${i}`;
      copy.display_id = `EX${i}`;
      copy.barcode = `BC${i}`;
      copy.product = { ...copy.product, name: name(i), display_id: `EXP${i}` };
      copy.fields = [
        { ...copy.fields[0]!, value: values[0] },
        { ...copy.fields[1]!, value: values[1] },
      ];
      big.sandbox.pos.variations.unshift(copy);
    }
  };
  /** What the catalog's search finds for a word (name, SKU, barcode, product SKU; accents and case aside). */
  const found = (word: string) =>
    big.sandbox.pos.variations.filter((v) => [v.product.name, v.display_id, v.barcode, v.product.display_id].some((t) => ascii(t).toLowerCase().includes(word)));
  const brownM = (v: VariationRecord) => variant(v) === "Nâu M";

  it("create_order refuses to pick one of several products past the first 50 read, and lists them", async () => {
    add(0, 49, (i) => `Áo thun mẫu ${i}`, ["Trắng", "S"]);
    add(99, 1, () => "Áo thun mẫu 99", ["Nâu", "M"]);
    const both = found("ao thun").filter(brownM);
    expect(both.map((v) => v.product.name).sort()).toEqual(["Áo thun Hàn Quốc", "Áo thun mẫu 99"]);
    const posts = big.sandbox.server.count("POST", `/pos/api/v1/shops/${big.sandbox.pos.shop.id}/orders`);
    const r = await big.call("create_order", { items: [{ product: "Áo thun nâu M", quantity: 1 }], phone: "0912345678" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("matches 2 variations");
    for (const v of both) expect(r.text).toContain(v.display_id);
    expect(big.sandbox.server.count("POST", `/pos/api/v1/shops/${big.sandbox.pos.shop.id}/orders`)).toBe(posts);
  });

  it("search_products reads every variation of a name up to 200 and counts the matches among all of them", async () => {
    add(100, 60, (i) => `Áo sơ mi mẫu ${i}`, ["Nâu", "M"]);
    const expected = found("ao").filter(brownM);
    expect(found("ao").length).toBeGreaterThan(100);
    expect(found("ao").length).toBeLessThanOrEqual(200);
    const { total, seen } = await walk(big, { search: "Áo nâu M", limit: 50 });
    expect(total).toBe(expected.length);
    expect(seen.sort()).toEqual(expected.map((v) => v.id).sort());
  });

  it("past 200 variations of a name, gives no total and says it read only some; create_order refuses to choose", async () => {
    add(200, 150, (i) => `Áo sơ mi mẫu ${i}`, ["Nâu", "M"]);
    const all = found("ao");
    expect(all.length).toBeGreaterThan(200);
    const r = await big.call("search_products", { search: "Áo nâu M", limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.total).toBeUndefined();
    expect(r.data.note).toContain(`among the first 200 of ${all.length} of "Áo"`);
    for (const v of r.data.variations as Row[]) expect(brownM(big.sandbox.pos.variations.find((x) => x.id === v.variation_id)!)).toBe(true);
    // Read on with the cursor, the note and the missing total stay.
    const next = await big.call("search_products", { search: "Áo nâu M", limit: 50, cursor: r.data.next_cursor });
    expect(next.data.total).toBeUndefined();
    expect(next.data.note).toBe(r.data.note);

    const order = await big.call("create_order", { items: [{ product: "Áo nâu M", quantity: 1 }], phone: "0912345678" });
    expect(order.isError).toBe(true);
    expect(order.text).toContain(`"Áo" finds ${all.length} variations, of several products: too many to choose one from`);
  });
});

describe("search_products stock figures", () => {
  it("tells units it can sell from units on the shelf, and reports one warehouse's stock when given one", async () => {
    // A warehouse holding units of orders placed and not yet shipped: on the shelf, no longer for sale.
    const v = pos().variations.find((x) => x.variations_warehouses.some((s) => s.actual_remain_quantity > s.remain_quantity))!;
    const held = v.variations_warehouses.find((s) => s.actual_remain_quantity > s.remain_quantity)!;
    const warehouse = pos().warehouses.find((w) => w.id === held.warehouse_id)!;
    const reserved = pos()
      .orders.filter((o) => !o.is_removed && o.warehouse_id === warehouse.id && [0, 17, 1, 12, 13, 8, 9].includes(o.status))
      .flatMap((o) => o.items)
      .filter((it) => it.variation_id === v.id)
      .reduce((t, it) => t + it.quantity, 0);
    expect(reserved).toBeGreaterThan(0);

    const one = await h.call("search_products", { variation_ids: [v.id], warehouse_id: ascii(warehouse.name) });
    expect(one.data.variations).toEqual([
      expect.objectContaining({ warehouse: warehouse.name, stock_available: held.remain_quantity, stock_physical: held.remain_quantity + reserved }),
    ]);
    expect(one.data.variations[0].stock_by_warehouse).toBeUndefined();

    const all = (await h.call("search_products", { variation_ids: [v.id] })).data.variations[0] as Row;
    const names = new Map(pos().warehouses.map((w) => [w.id, w.name]));
    expect(all.stock_available).toBe(v.variations_warehouses.reduce((t, s) => t + s.remain_quantity, 0));
    expect(all.stock_physical).toBe(v.variations_warehouses.reduce((t, s) => t + s.actual_remain_quantity, 0));
    expect(all.stock_by_warehouse).toEqual(Object.fromEntries(v.variations_warehouses.map((s) => [names.get(s.warehouse_id), s.remain_quantity])));
  });

  it("counts units on purchases not yet received as incoming, in the warehouse they go to", async () => {
    const v = pos().variations.find((x) => incoming(x) > 0)!;
    const to = pos().warehouses.find((w) => incoming(v, w.id) > 0)!;
    const all = (await h.call("search_products", { variation_ids: [v.id] })).data.variations[0] as Row;
    expect(all.stock_incoming).toBe(incoming(v));
    const there = (await h.call("search_products", { variation_ids: [v.id], warehouse_id: to.id })).data.variations[0] as Row;
    expect(there.stock_incoming).toBe(incoming(v, to.id));
    const elsewhere = pos().warehouses.find((w) => incoming(v, w.id) === 0)!;
    const none = (await h.call("search_products", { variation_ids: [v.id], warehouse_id: elsewhere.id })).data.variations[0] as Row;
    expect(none.stock_incoming).toBeUndefined();
  });

  it("says in the answer what each stock figure its rows carry counts, and not to add them up", async () => {
    const v = pos().variations.find((x) => incoming(x) > 0 && x.variations_warehouses.some((s) => s.actual_remain_quantity > s.remain_quantity))!;
    const r = await h.call("search_products", { variation_ids: [v.id] });
    const row = r.data.variations[0] as Row;
    const shown = Object.keys(row).filter((k) => k.startsWith("stock_"));
    expect(shown.sort()).toEqual(["stock_available", "stock_by_warehouse", "stock_incoming", "stock_physical"]);
    for (const figure of shown) expect(r.data.figures).toContain(`${figure}:`);
    expect(r.data.figures).toContain("never add them up");
    // Raw records carry none of these names, and an empty answer no line.
    expect((await h.call("search_products", { variation_ids: [v.id], detail: "full" })).data.figures).toBeUndefined();
    expect((await h.call("search_products", { search: "zzzz-no-such" })).data.figures).toBeUndefined();
  });
});
