import { describe, expect, it } from "vitest";
import { formatMoney } from "../../src/format/money.js";
import { useAcceptingHarness } from "../helpers/harness.js";

// A write the user confirms is resolved first (products to variations, the address to places,
// warehouse, source and staff names to ids), once: the dialog names what will be written, and
// a name that does not resolve is an error before anyone is asked, never after their yes.

const { h, asked } = useAcceptingHarness();
const pos = () => h.sandbox.pos;
const variationSearches = () => h.sandbox.server.requests.filter((q) => q.method === "GET" && q.path.endsWith("/products/variations")).length;

describe("create_order", () => {
  it("asks with the resolved product, variant, address and then writes what was shown, resolving once", async () => {
    const v = pos().variations.find((x) => x.product.name === "Áo sơ mi form rộng" && x.fields.some((f) => f.value === "Xanh navy"))!;
    const size = v.fields.find((f) => f.name === "Size")!.value;
    const [searches, count] = [variationSearches(), asked.length];
    const r = await h.call("create_order", {
      items: [{ product: "ao so mi form rong", variant: `xanh navy ${size}`, quantity: 1 }],
      customer_name: "Phan Ngọc Vy",
      phone: "0944189208",
      shipping_address: { address: "12 Nguyen Hue, ben nghe, q1, tp hcm" },
      warehouse_id: "kho ho chi minh",
    });
    expect(r.isError, r.text).toBe(false);
    expect(asked).toHaveLength(count + 1);
    const dialog = asked.at(-1)!;
    expect(dialog).toContain(`Sản phẩm: Áo sơ mi form rộng (${v.fields.map((f) => f.value).join(" - ")}) × 1`);
    expect(dialog).toContain("Địa chỉ: 12 Nguyen Hue, Phường Bến Nghé, Quận 1, Hồ Chí Minh");
    expect(variationSearches() - searches).toBe(1);
    const stored = pos().orders.find((o) => String(o.id) === r.data.id)!;
    expect(stored.items.map((it) => it.variation_id)).toEqual([v.id]);
  });

  it("refuses a product that does not resolve before asking the user", async () => {
    const [count, orders] = [asked.length, pos().orders.length];
    const r = await h.call("create_order", { items: [{ product: "Áo", quantity: 1 }], shipping_address: { address: "5 Nguyễn Trãi, Phường 1, hcm" } });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/matches \d+ places|matches \d+ variations/);
    expect(asked).toHaveLength(count);
    expect(pos().orders).toHaveLength(orders);
  });
});

describe("record_ad_cost", () => {
  const post = (items: Record<string, unknown>[]) => h.call("record_ad_cost", { cost_date: "2026-11-20", transaction: { name: "QC", status: "new" }, items });

  it("asks with the source, warehouse, product and marketer by name", async () => {
    const product = pos().products[4]!;
    const count = asked.length;
    const r = await post([{ cost: 200_000, source: { key: "facebook", account: "may kids" }, warehouse_id: "kho ho chi minh", product: product.display_id, marketer: "Tâm" }]);
    expect(r.isError, r.text).toBe(false);
    expect(asked).toHaveLength(count + 1);
    const kids = pos().shop.pages.find((p) => p.name.startsWith("Mây Kids"))!;
    expect(asked.at(-1)).toContain(`Chi tiết: ${formatMoney(200_000, "VND")}: Facebook/${kids.name}, Kho Hồ Chí Minh, ${product.name}, Võ Thanh Tâm`);
  });

  it("refuses an unknown source before asking", async () => {
    const count = asked.length;
    const r = await post([{ cost: 1000, source: { key: "Myspace" } }]);
    expect(r.isError).toBe(true);
    expect(r.text).toContain('items[0].source: unknown value "Myspace"');
    expect(asked).toHaveLength(count);
  });
});

describe("create_transaction and create_return_order", () => {
  it("name the order by its shop number, and refuse a missing one before asking", async () => {
    const order = pos().orders.find((o) => !o.is_removed && o.display_id > 200)!;
    const count = asked.length;
    const r = await h.call("create_transaction", { name: "Thu", amount: 100_000, order_id: String(order.display_id) });
    expect(r.isError, r.text).toBe(false);
    expect(asked.at(-1)).toContain(`Đơn hàng: #${order.display_id} (id ${order.id})`);
    const none = await h.call("create_return_order", { order_id: "#99999", items: [{ variation_id: "x", quantity: 1 }], warehouse_id: "Kho Hà Nội" });
    expect(none.isError).toBe(true);
    expect(none.text).toContain("no order numbered #99999");
    expect(asked).toHaveLength(count + 1);
  });
});
