import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const pos = () => h.sandbox.pos;
const posts = (path: string) => h.sandbox.server.count("POST", `/shops/${pos().shop.id}${path}`);

describe("promotions", () => {
  it("lists promotions and searches them by name", async () => {
    const all = await h.call("list_promotions");
    expect(all.isError, all.text).toBe(false);
    expect(all.data.total).toBe(pos().promotions.length);
    const found = await h.call("list_promotions", { search: "freeship" });
    const expected = pos().promotions.filter((p) => String(p.name).toLowerCase().includes("freeship"));
    expect(found.data.promotions.map((p: { id: string }) => p.id)).toEqual(expected.map((p) => p.id));
    const info = expected[0]!.promo_code_info as { discount: number };
    expect(found.data.promotions[0]).toMatchObject({ type: expected[0]!.type, active: expected[0]!.is_activated, discount: { discount: info.discount } });
  });

  it("creates a promotion, then updates only the fields given", async () => {
    const v = pos().variations[0]!;
    const created = await h.call("save_promotion", {
      name: "Giảm 10% áo thun",
      type: "discount_by_product",
      is_activated: true,
      start_time: "2026-12-01",
      end_time: "2026-12-31",
      fields: { items: [{ variation_id: v.id, level_info: [{ from_quantity: 1, discount: 10, is_percent: true }] }] },
    });
    expect(created.isError, created.text).toBe(false);
    expect(created.data.created).toBe(true);
    const stored = pos().promotions.find((p) => p.id === created.data.id)!;
    expect(stored).toMatchObject({ name: "Giảm 10% áo thun", type: "discount_by_product", start_time: Date.parse("2026-12-01T00:00:00+07:00") / 1000 });
    expect((stored.items as { variation_id: string }[])[0]!.variation_id).toBe(v.id);

    const updated = await h.call("save_promotion", { promotion_id: created.data.id, is_activated: false, end_time: "2027-01-15" });
    expect(updated.isError, updated.text).toBe(false);
    expect(stored).toMatchObject({ is_activated: false, name: "Giảm 10% áo thun" });
    // Read back from the list, every field held: nothing to report.
    expect(updated.data).toMatchObject({ id: created.data.id, created: false });
    expect(updated.data.not_applied).toBeUndefined();
    expect(updated.data.unverified).toBeUndefined();
  });

  it("names an update field the POS answered success to but did not keep", async () => {
    const promotion = pos().promotions[0]!;
    const before = h.sandbox.server.requests.length;
    h.sandbox.server.injectFault({ method: "PUT", path: `/promotion_advance/${promotion.id}`, kind: "status", status: 200, body: { success: true } });
    const r = await h.call("save_promotion", { promotion_id: promotion.id, name: "Tên khuyến mãi mới" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.not_applied).toEqual([{ field: "name", sent: "Tên khuyến mãi mới", holds: promotion.name, fix: expect.stringContaining("POS app") }]);
    const sent = h.sandbox.server.requests.slice(before).map((q) => `${q.method} ${q.path.replace(/.*\/shops\/\d+/, "")}`);
    expect(sent).toEqual([`PUT /promotion_advance/${promotion.id}`, "GET /promotion_advance"]);
  });

  it("names what a new promotion lacks before calling", async () => {
    const before = posts("/promotion_advance");
    for (const [args, field] of [
      [{ type: "coupon" }, /name/],
      [{ name: "Sale" }, /type/],
      [{ name: "Sale", type: "bogus" }, /type/],
      [{ name: "Sale", type: "coupon", start_time: "2026-12-10", end_time: "2026-12-01" }, /end_time/],
    ] as const) {
      const r = await h.call("save_promotion", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(field);
    }
    expect(posts("/promotion_advance")).toBe(before);
  });
});

describe("combos", () => {
  it("lists combos with their parts", async () => {
    const r = await h.call("list_combos");
    expect(r.isError, r.text).toBe(false);
    expect(h.sandbox.pos.shop).not.toHaveProperty("currency");
    expect(r.data.currency).toBe("VND");
    expect(r.data.total).toBe(pos().combos.length);
    const row = r.data.combos.find((c: { id: string }) => c.id === pos().combos[0]!.id);
    const record = pos().combos[0]!;
    expect(row).toMatchObject({ name: record.name, discount_amount: record.discount_amount });
    expect(row.variations).toEqual((record.variations as { variation_id: string; product_id: string; count: number }[]).map((v) => ({ variation_id: v.variation_id, product_id: v.product_id, count: v.count })));
  });

  it("creates a combo with the flags the API requires derived", async () => {
    const [a, b] = [pos().variations[0]!, pos().variations[10]!];
    const r = await h.call("create_combo", {
      name: "Combo áo + quần",
      variations: [
        { product_id: a.product_id, variation_id: a.id, count: 1 },
        { product_id: b.product_id, variation_id: b.id, count: 1 },
      ],
      discount_by_percent: 10,
      max_discount_by_percent: 100_000,
    });
    expect(r.isError, r.text).toBe(false);
    const post = h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/combo_products")).at(-1);
    expect(post?.body).toMatchObject({ combo_product: { currency: "VND" } });
    const stored = pos().combos.find((c) => c.id === r.data.id)!;
    expect(stored).toMatchObject({ is_use_percent: true, is_value_combo: false, is_variation: true, order_types: ["all"], discount_by_percent: 10 });
    const listed = await h.call("list_combos", { limit: 100 });
    expect(listed.data.combos.some((c: { id: string }) => c.id === r.data.id)).toBe(true);
  });

  it("takes the parts as people name them: a variant's SKU or barcode, a product's SKU", async () => {
    const a = pos().variations.find((v) => v.barcode)!;
    const b = pos().variations.find((v) => v.product_id !== a.product_id)!;
    const product = pos().products.find((p) => p.id === b.product_id)!;
    const r = await h.call("create_combo", {
      name: "Combo theo SKU",
      variations: [
        { variation_id: a.barcode, count: 1 },
        { product_id: product.display_id, count: 2 },
      ],
      discount_amount: 20_000,
    });
    expect(r.isError, r.text).toBe(false);
    const stored = pos().combos.find((c) => c.id === r.data.id)!;
    expect(stored.variations).toEqual([
      { variation_id: a.id, product_id: a.product_id, count: 1 },
      { product_id: product.id, count: 2 },
    ]);
    const unknown = await h.call("create_combo", { name: "X", variations: [{ variation_id: "KHONG-CO", count: 1 }], discount_amount: 1 });
    expect(unknown.text).toContain('variations[0].variation_id: no variation has the id, SKU or barcode "KHONG-CO"');
  });

  it("names missing combo fields before calling", async () => {
    const before = posts("/combo_products");
    const part = { product_id: "p", count: 1 };
    for (const [args, field] of [
      [{ variations: [part], discount_amount: 1 }, /name/],
      [{ name: "C", discount_amount: 1 }, /variations/],
      [{ name: "C", variations: [{ product_id: "p" }], discount_amount: 1 }, /variations\[0\]\.count/],
      [{ name: "C", variations: [part] }, /discount_amount/],
      [{ name: "C", variations: [part], discount_amount: 1, value_combo: 5 }, /only one/],
    ] as const) {
      const r = await h.call("create_combo", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(field);
    }
    expect(posts("/combo_products")).toBe(before);
  });
});
