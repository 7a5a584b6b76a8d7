import { describe, expect, it } from "vitest";
import { formatMoney } from "../../../src/format/money.js";
import type { VariationRecord } from "../../../src/sandbox/pos/types.js";
import { useAcceptingHarness } from "../../helpers/harness.js";

// create_order's choices where the call says nothing, made to match the delivery: the warehouse
// in the delivery's province when it holds every line, else the POS's default with what the
// nearby one lacked; and cash on delivery or prepaid as the call says, shown in the dialog and
// landing in the order's cod and transfer_money. Expectations come from the sandbox's records.

const { h, asked } = useAcceptingHarness();
const pos = () => h.sandbox.pos;
const ordersPath = () => `/pos/api/v1/shops/${pos().shop.id}/orders`;
const lastPost = () => h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path === ordersPath()).at(-1)!;
const warehouse = (name: string) => pos().warehouses.find((w) => w.name === name)!;
const stored = (id: string) => pos().orders.find((o) => String(o.id) === id)!;
/** Sets a variation's available units in one warehouse. */
const stock = (v: VariationRecord, warehouseName: string, units: number) => {
  v.variations_warehouses.find((s) => s.warehouse_id === warehouse(warehouseName).id)!.remain_quantity = units;
};
const HCM_OLD_FORM = "12 Nguyen Hue, ben nghe, q1, tp hcm";
const HCM_NEW_FORM = "12 Lê Lợi, Phường Sài Gòn, TP Hồ Chí Minh";
const money = (n: number) => formatMoney(n, "VND");

describe("create_order ships from the delivery's province", () => {
  it("ships an order to Hồ Chí Minh City from the warehouse there when it holds every line, in either address form", async () => {
    const hcm = warehouse("Kho Hồ Chí Minh");
    for (const address of [HCM_OLD_FORM, HCM_NEW_FORM]) {
      const [a, b] = [pos().variations[10]!, pos().variations[11]!];
      stock(a, hcm.name, 3);
      stock(b, hcm.name, 1);
      const r = await h.call("create_order", { items: [{ variation_id: a.id, quantity: 3 }, { variation_id: b.id, quantity: 1 }], phone: "0912345678", shipping_address: { address } });
      expect(r.isError, r.text).toBe(false);
      expect((lastPost().body as Record<string, unknown>).warehouse_id).toBe(hcm.id);
      expect(stored(r.data.id).warehouse_id).toBe(hcm.id);
      expect(r.data.order.warehouse).toBe(hcm.name);
      expect(r.data.defaults).toContain(`warehouse: ${hcm.name}, in the delivery's province with every item in stock (none given)`);
      expect(asked.at(-1)).toContain(`Kho: ${hcm.name}`);
    }
  });

  it("falls back to the POS's default when the warehouse there lacks a line, saying what it lacks", async () => {
    const hcm = warehouse("Kho Hồ Chí Minh");
    const v = pos().variations[12]!;
    // Two lines of one variation need the units of both.
    stock(v, hcm.name, 3);
    const fallback = pos().warehouses.find((w) => w.allow_create_order)!;
    const r = await h.call("create_order", { items: [{ variation_id: v.id, quantity: 2 }, { variation_id: v.id, quantity: 2 }], phone: "0912345678", shipping_address: { address: HCM_OLD_FORM } });
    expect(r.isError, r.text).toBe(false);
    expect(lastPost().body as Record<string, unknown>).not.toHaveProperty("warehouse_id");
    expect(stored(r.data.id).warehouse_id).toBe(fallback.id);
    const variant = v.fields.map((f) => f.value).join(" - ");
    expect(r.data.defaults).toContain(
      `warehouse: ${fallback.name}, the POS's default (none given); in the delivery's province, ${hcm.name} has ${v.product.name} (${variant}): 3 of 4`,
    );
  });

  it("passes over a warehouse in the province that does not ship orders", async () => {
    const danang = pos().warehouses.find((w) => !w.allow_create_order)!;
    const province = pos().geo.provinces.find((p) => p.id === danang.province_id)!;
    const v = pos().variations[13]!;
    stock(v, danang.name, 50);
    const r = await h.call("create_order", { items: [{ variation_id: v.id, quantity: 1 }], phone: "0912345678", shipping_address: { address: `5 Bạch Đằng, ${province.name}`, province_id: province.id } });
    expect(r.isError, r.text).toBe(false);
    const fallback = pos().warehouses.find((w) => w.allow_create_order)!;
    expect(stored(r.data.id).warehouse_id).toBe(fallback.id);
    expect(r.data.defaults).toContain(`warehouse: ${fallback.name}, the POS's default (none given)`);
  });

  it("ships from the warehouse the call names, whatever the delivery", async () => {
    const v = pos().variations[14]!;
    const r = await h.call("create_order", { items: [{ variation_id: v.id, quantity: 1 }], phone: "0912345678", shipping_address: { address: HCM_OLD_FORM }, warehouse_id: "Kho Hà Nội" });
    expect(r.isError, r.text).toBe(false);
    expect(stored(r.data.id).warehouse_id).toBe(warehouse("Kho Hà Nội").id);
    expect(r.data.defaults.some((d: string) => d.startsWith("warehouse:"))).toBe(false);
  });
});

describe("create_order payment", () => {
  const v = () => pos().variations[20]!;
  const order = (extra: Record<string, unknown>) =>
    h.call("create_order", { items: [{ variation_id: v().id, quantity: 2, discount_each: 10_000 }], phone: "0912345678", shipping_address: { address: HCM_OLD_FORM }, shipping_fee: 30_000, total_discount: 5_000, ...extra });
  const due = () => (v().retail_price - 10_000) * 2 - 5_000 + 30_000;

  it("prepaid: recorded as paid by transfer, nothing to collect, as the dialog said", async () => {
    const r = await order({ payment: "prepaid" });
    expect(r.isError, r.text).toBe(false);
    expect(lastPost().body).toMatchObject({ transfer_money: due() });
    expect(stored(r.data.id)).toMatchObject({ transfer_money: due(), cod: 0, money_to_collect: 0 });
    expect(r.data.order).toMatchObject({ cod: 0, payments: { transfer_money: due() } });
    expect(asked.at(-1)).toContain(`Thanh toán: Đã chuyển khoản ${money(due())}, không thu hộ`);
    expect(r.data.defaults.some((d: string) => d.startsWith("payment:"))).toBe(false);
  });

  it("cod: the whole amount collected on delivery, nothing recorded as paid", async () => {
    const r = await order({ payment: "cod" });
    expect(r.isError, r.text).toBe(false);
    expect(lastPost().body).not.toHaveProperty("transfer_money");
    expect(stored(r.data.id)).toMatchObject({ cod: due(), transfer_money: 0 });
    expect(asked.at(-1)).toContain(`Thanh toán: Thu hộ (COD) ${money(due())}`);
    expect(r.data.defaults.some((d: string) => d.startsWith("payment:"))).toBe(false);
  });

  it("left out: cash on delivery, said as a default", async () => {
    const r = await order({});
    expect(r.isError, r.text).toBe(false);
    expect(stored(r.data.id).cod).toBe(due());
    expect(r.data.defaults).toContain('payment: cash on delivery (none given; payment "prepaid" if the customer paid by transfer)');
  });

  it("refuses a payment it does not know, naming the valid ones, and prepaid beside an amount paid in extra, before asking", async () => {
    const [count, posts] = [asked.length, h.sandbox.server.count("POST", ordersPath())];
    const bad = await order({ payment: "bank" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("payment");
    expect(bad.text).toMatch(/"cod"[\s\S]*"prepaid"/);
    const twice = await order({ payment: "prepaid", extra: { transfer_money: 100_000 } });
    expect(twice.isError).toBe(true);
    expect(twice.text).toContain("extra.transfer_money");
    expect(asked).toHaveLength(count);
    expect(h.sandbox.server.count("POST", ordersPath())).toBe(posts);
  });
});
