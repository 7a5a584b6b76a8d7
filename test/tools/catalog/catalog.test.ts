import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;

describe("create_product", () => {
  it("adds a product with its variants in a category named in words", async () => {
    const r = await h.call("create_product", {
      name: "Áo polo basic",
      weight: 250,
      category: "ao thun",
      sku: "PL001",
      variants: [
        { options: { Màu: "Trắng", Size: "M" }, price: 250_000, cost: 110_000, sku: "PL001-TR-M" },
        { options: { Màu: "Đen", Size: "L" }, price: 260_000 },
      ],
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({ sku: "PL001", currency: "VND" });
    expect(r.data.variants).toMatchObject([
      { sku: "PL001-TR-M", variant: "Trắng - M", price: 250_000 },
      { variant: "Đen - L", price: 260_000 },
    ]);
    const product = pos().products.find((p) => p.id === r.data.product_id)!;
    expect(product).toMatchObject({ name: "Áo polo basic", weight: 250, category_ids: [101] });
    const search = await h.call("search_products", { search: "PL001-TR-M" });
    expect(search.data.variations[0]).toMatchObject({ sku: "PL001-TR-M", price: 250_000 });
  });

  it("names the categories when one is unknown, before sending anything", async () => {
    const before = pos().products.length;
    const r = await h.call("create_product", { name: "Mũ", weight: 100, category: "Mũ nón", variants: [{ price: 90_000 }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("category: unknown value");
    expect(r.text).toContain("Áo thun (101)");
    expect(pos().products).toHaveLength(before);
  });
});

describe("update_product_prices", () => {
  it("changes one variant's price by its words, sending the others back as they were", async () => {
    const product = pos().products[4]!;
    const variants = pos().variations.filter((v) => v.product_id === product.id);
    const target = variants[1]!;
    const words = target.fields.map((f) => f.value).join(" ");
    const others = variants.filter((v) => v !== target).map((v) => v.retail_price);
    const r = await h.call("update_product_prices", { product: product.display_id, prices: [{ variant: words, price: 199_000, cost: 90_000 }] });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.changed).toEqual([expect.objectContaining({ variation_id: target.id, old_price: expect.any(Number), price: 199_000, cost: 90_000 })]);
    expect(target).toMatchObject({ retail_price: 199_000, last_imported_price: 90_000 });
    expect(variants.filter((v) => v !== target).map((v) => v.retail_price)).toEqual(others);
    const put = h.sandbox.server.requests.filter((q) => q.method === "PUT" && q.path.endsWith(`/products/${product.id}`)).at(-1)!;
    expect((put.body as { product: { name: string; variations: unknown[] } }).product).toMatchObject({ name: product.name, weight: product.weight });
    expect((put.body as { product: { variations: unknown[] } }).product.variations).toHaveLength(variants.length);
  });

  it("changes only the variant whose SKU names the product, and every variant with variant \"all\"", async () => {
    const variation = pos().variations[20]!;
    const siblings = pos().variations.filter((v) => v.product_id === variation.product_id);
    expect(siblings.length).toBeGreaterThan(1);
    const before = new Map(siblings.map((v) => [v.id, v.retail_price]));
    const r = await h.call("update_product_prices", { product: variation.display_id, prices: JSON.stringify([{ price: 359_000 }]) });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.changed).toEqual([expect.objectContaining({ variation_id: variation.id, sku: variation.display_id, price: 359_000 })]);
    expect(variation.retail_price).toBe(359_000);
    for (const v of siblings.filter((s) => s !== variation)) expect(v.retail_price).toBe(before.get(v.id));

    const all = await h.call("update_product_prices", { product: variation.display_id, prices: [{ variant: "all", counter_price: 150_000 }] });
    expect(all.isError, all.text).toBe(false);
    expect(all.data.changed).toHaveLength(siblings.length);
    for (const v of siblings) expect(v.price_at_counter).toBe(150_000);
  });

  it("finds a product by its barcode's variant and by its name typed without accents", async () => {
    const product = pos().products[2]!;
    const variants = pos().variations.filter((v) => v.product_id === product.id);
    const target = variants.find((v) => v.barcode)!;
    const byBarcode = await h.call("update_product_prices", { product: target.barcode, prices: [{ cost: 77_000 }] });
    expect(byBarcode.isError, byBarcode.text).toBe(false);
    expect(byBarcode.data.changed.map((c: { variation_id: string }) => c.variation_id)).toEqual([target.id]);

    const plain = product.name.normalize("NFD").replace(/\p{M}/gu, "").replace(/đ/g, "d").replace(/Đ/g, "D").toLowerCase();
    const byName = await h.call("update_product_prices", { product: plain, prices: [{ cost: 78_000 }] });
    expect(byName.isError, byName.text).toBe(false);
    expect(byName.data).toMatchObject({ product_id: product.id, name: product.name });
    expect(byName.data.changed).toHaveLength(variants.length);
    for (const v of variants) expect(v.last_imported_price).toBe(78_000);
  });

  it("lists the products when a name fits several, changing nothing", async () => {
    const [first, second] = pos().products.filter((p) => p.name.startsWith("Áo"));
    expect(first && second).toBeTruthy();
    const prices = pos().variations.map((v) => v.retail_price);
    const r = await h.call("update_product_prices", { product: "Áo", prices: [{ price: 1 }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("product: \"Áo\" matches");
    expect(r.text).toContain(first!.name);
    expect(pos().variations.map((v) => v.retail_price)).toEqual(prices);
  });

  it("reads the product back once after the write and names a price the POS did not take", async () => {
    const variation = pos().variations[30]!;
    const old = variation.retail_price;
    const path = `/pos/api/v1/shops/${pos().shop.id}/products/${variation.product_id}`;
    const seen = h.sandbox.server.requests.length;
    // The POS answers success without changing anything.
    h.sandbox.server.injectFault({ method: "PUT", path: `/products/${variation.product_id}`, kind: "status", status: 200, body: { success: true } });
    const r = await h.call("update_product_prices", { product: variation.display_id, prices: [{ price: old + 1000 }] });
    expect(r.isError, r.text).toBe(false);
    const sent = h.sandbox.server.requests.slice(seen).filter((q) => q.path === path).map((q) => q.method);
    // Read to find it, written once, read back once.
    expect(sent).toEqual(["GET", "PUT", "GET"]);
    expect(variation.retail_price).toBe(old);
    expect(r.data.changed).toEqual([expect.objectContaining({ variation_id: variation.id, old_price: old, price: old })]);
    expect(r.data.not_applied).toEqual([{ field: `${variation.display_id} price`, sent: old + 1000, holds: old, fix: expect.stringContaining("POS app") }]);
  });

  it("lists the variants when the words match none", async () => {
    const product = pos().products[0]!;
    const r = await h.call("update_product_prices", { product: product.id, prices: [{ variant: "Tím XXL", price: 1 }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("prices[0].variant: no variation");
    expect(r.text).toContain("Its variations:");
  });
});
