import { describe, expect, it } from "vitest";
import { useHarness } from "../helpers/harness.js";

// Every POS parameter that holds an id of a customer, warehouse or variation takes what people
// say instead (a name, a phone, a SKU) and resolves it, or refuses: a name sent upstream as an id
// matches nothing and reads as "no orders", "owes nothing", "no movements".

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;
const plain = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").replace(/đ/g, "d").replace(/Đ/g, "D");
/** A customer whose name no other customer shares, with at least one record `has` finds. */
const uniqueCustomer = (has: (id: string) => boolean) =>
  pos().customers.find((c) => has(c.id) && pos().customers.filter((o) => plain(o.name) === plain(c.name)).length === 1)!;

describe("customers by name or phone", () => {
  it("search_orders customer_id: a name finds the customer's orders, as the id does", async () => {
    const customer = uniqueCustomer((id) => pos().orders.filter((o) => o.shop_customer_id === id && !o.is_removed).length > 2);
    const expected = pos().orders.filter((o) => !o.is_removed && (o.shop_customer_id === customer.id || o.customer?.customer_id === customer.id));
    const byName = await h.call("search_orders", { customer_id: plain(customer.name), limit: 100 });
    expect(byName.isError, byName.text).toBe(false);
    expect(byName.data.total).toBe(expected.length);
    expect(byName.data.orders.map((o: { id: string }) => o.id).sort()).toEqual(expected.map((o) => String(o.id)).sort());
  });

  it("list_debts customer_id: a name reads that customer's debts, not an empty list", async () => {
    const customer = uniqueCustomer((id) => pos().debts.some((d) => d.shop_customer_id === id && d.type === 1));
    const debts = pos().debts.filter((d) => d.shop_customer_id === customer.id && d.type === 1);
    const due = debts.reduce((sum, d) => sum + (d.money_must_pay_or_collect as number), 0);
    const r = await h.call("list_debts", { customer_id: customer.name.toLowerCase(), direction: "receivable" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.total).toBe(debts.length);
    expect(r.data.totals.receivable).toMatchObject({ count: debts.length, due });
  });

  it("takes a phone in another form, and lists the candidates when a name fits several", async () => {
    const customer = uniqueCustomer((id) => pos().pointLogs.some((l) => l.shop_customer_id === id));
    const phone = customer.phone_numbers[0]!;
    const r = await h.call("list_customer_point_logs", { customer_id: `+84 ${phone.slice(1, 4)} ${phone.slice(4, 7)} ${phone.slice(7)}`, limit: 100 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.total).toBe(pos().pointLogs.filter((l) => l.shop_customer_id === customer.id).length);

    const shared = pos().customers.map((c) => c.name.split(" ").at(-1)!).find((last, _, all) => all.filter((x) => x === last).length > 1)!;
    const many = await h.call("list_customer_notes", { customer_id: shared });
    expect(many.isError).toBe(true);
    expect(many.text).toMatch(new RegExp(`customer_id: "${shared}" matches \\d+ customers`));
    const none = await h.call("list_debts", { customer_id: "Không Có Ai" });
    expect(none.isError).toBe(true);
    expect(none.text).toContain('customer_id: no customer has the id, phone or name "Không Có Ai"');
  });
});

describe("warehouses by name, variations by SKU", () => {
  it("list_inventory_history: a warehouse name and a SKU filter as their ids do", async () => {
    const warehouse = pos().warehouses[0]!;
    const moves = pos().inventoryHistories.filter((m) => (m.warehouse as { id: string }).id === warehouse.id);
    expect(moves.length).toBeGreaterThan(0);
    const byName = await h.call("list_inventory_history", { warehouse_id: plain(warehouse.name), limit: 100 });
    expect(byName.isError, byName.text).toBe(false);
    expect(byName.data.total).toBe(moves.length);

    const variationId = String(moves[0]!.variation_id);
    const sku = pos().variations.find((v) => v.id === variationId)!.display_id;
    const bySku = await h.call("list_inventory_history", { variation_ids: [sku], limit: 100 });
    expect(bySku.data.total).toBe(pos().inventoryHistories.filter((m) => String(m.variation_id) === variationId).length);
    const unknown = await h.call("list_inventory_history", { variation_ids: ["NO-SUCH-SKU"] });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('variation_ids[0]: no variation has the id, SKU or barcode "NO-SUCH-SKU"');
  });

  it("create_stock_export and create_stock_transfer take warehouse names and SKUs, refusing unknown ones before writing", async () => {
    const [from, to] = [pos().warehouses[1]!, pos().warehouses[2]!];
    const v = pos().variations[11]!;
    const exported = await h.call("create_stock_export", {
      warehouse_id: plain(from.name),
      status: "new",
      items: [{ variation_id: v.display_id, quantity: 1, imported_price: 10_000 }],
    });
    expect(exported.isError, exported.text).toBe(false);
    const slip = pos().stockExports.find((e) => e.id === exported.data.id)!;
    expect(slip).toMatchObject({ warehouse_id: from.id });
    expect((slip.export_items as { variation_id: string }[])[0]!.variation_id).toBe(v.id);

    const writes = () => h.sandbox.server.requests.filter((q) => q.method !== "GET").length;
    const before = writes();
    const bad = await h.call("create_stock_transfer", { from_warehouse_id: from.name, to_warehouse_ids: ["Kho Vũng Tàu"], items: [{ variation_id: v.id, quantity: 1 }] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('to_warehouse_ids[0]: unknown value "Kho Vũng Tàu"');
    const same = await h.call("create_stock_transfer", { from_warehouse_id: from.name, to_warehouse_ids: [from.id], items: [{ variation_id: v.id, quantity: 1 }] });
    expect(same.text).toContain("to_warehouse_ids: contains the source warehouse");
    expect(writes()).toBe(before);
    const moved = await h.call("create_stock_transfer", { from_warehouse_id: from.name, to_warehouse_ids: [plain(to.name)], items: [{ variation_id: v.barcode, quantity: 1 }] });
    expect(moved.isError, moved.text).toBe(false);
    expect(moved.data.transfers).toEqual([expect.objectContaining({ to_warehouse_id: to.id })]);
  });

  it("get_sales_analytics filters by a product's SKU as by its id", async () => {
    const product = pos().products[6]!;
    const args = { since: "2026-09-01", until: "2026-11-22", split_by: ["Variation.product_id"] };
    const byId = await h.call("get_sales_analytics", { ...args, filter: { "Variation.product_id": [product.id] } });
    const bySku = await h.call("get_sales_analytics", { ...args, filter: { "Variation.product_id": [product.display_id] } });
    expect(bySku.isError, bySku.text).toBe(false);
    expect(bySku.data.totals).toEqual(byId.data.totals);
    expect(bySku.data.totals.success.product_count).toBeGreaterThan(0);
  });
});
