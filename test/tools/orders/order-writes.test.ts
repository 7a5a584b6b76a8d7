import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const pos = () => h.sandbox.pos;

describe("search_products", () => {
  it("finds a variation by SKU with price and stock per warehouse", async () => {
    const v = pos().variations[7]!;
    const r = await h.call("search_products", { search: v.display_id });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.variations).toHaveLength(1);
    const row = r.data.variations[0];
    expect(row).toMatchObject({ variation_id: v.id, sku: v.display_id, price: v.retail_price, stock_available: v.remain_quantity });
    const names = new Map(pos().warehouses.map((w) => [w.id, w.name]));
    expect(row.stock_by_warehouse).toEqual(Object.fromEntries(v.variations_warehouses.map((s) => [names.get(s.warehouse_id), s.remain_quantity])));
  });

  it("finds variations by name without diacritics, paged", async () => {
    const expected = pos().variations.filter((v) => v.product.name.startsWith("Áo thun"));
    const first = await h.call("search_products", { search: "ao thun", limit: 5 });
    expect(first.data.total).toBe(expected.length);
    const second = await h.call("search_products", { search: "ao thun", limit: 5, cursor: first.data.next_cursor });
    const seen = [...first.data.variations, ...second.data.variations].map((v: { variation_id: string }) => v.variation_id);
    expect(seen).toEqual(expected.slice(0, 10).map((v) => v.id));
  });
});

describe("create_order, get_order, update_order", () => {
  it("creates an order from a SKU and a variation id, finds it by search and reads it back", async () => {
    const [a, b] = [pos().variations[0]!, pos().variations[5]!];
    const commune = pos().geo.communes.find((c) => c.district_id === "70101")!;
    const phone = "0987000111";
    const created = await h.call("create_order", {
      items: [
        { product: a.display_id, quantity: 2 },
        { variation_id: b.id, quantity: 1, price: 100_000 },
      ],
      customer_name: "Chị Lan",
      phone,
      shipping_address: JSON.stringify({ address: "12 Lê Lợi", commune_id: commune.id }),
      warehouse_id: pos().warehouses[1]!.id,
      shipping_fee: 30_000,
      note: "Giao giờ hành chính",
    });
    expect(created.isError, created.text).toBe(false);
    const id = created.data.id;
    const stored = pos().orders.find((o) => String(o.id) === id)!;
    expect(stored.items.map((it) => [it.variation_id, it.quantity])).toEqual([
      [a.id, 2],
      [b.id, 1],
    ]);

    const found = await h.call("search_orders", { search: phone });
    expect(found.data.orders.map((o: { id: string }) => o.id)).toContain(id);

    const read = await h.call("get_order", { order_id: id });
    expect(read.isError, read.text).toBe(false);
    const order = read.data.order;
    expect(order).toMatchObject({ id, status_name: "new", customer_name: "Chị Lan", phone, shipping_fee: 30_000 });
    expect(order.items.map((it: Record<string, unknown>) => [it.variation_id, it.quantity, it.price])).toEqual([
      [a.id, 2, a.retail_price],
      [b.id, 1, 100_000],
    ]);
    // The subtotal is only listed when it differs from the total.
    expect(order.subtotal ?? order.amount).toBe(a.retail_price * 2 + 100_000);
    expect(order.address.full_address).toBeTruthy();
    expect(order.warehouse).toBe(pos().warehouses[1]!.name);
    expect(order.staff_note).toBe("Giao giờ hành chính");
    expect(order.status_history[0].status_name).toBe("new");

    const full = await h.call("get_order", { order_id: id, detail: "full" });
    expect(full.data.order.items).toHaveLength(2);
    expect(full.data.order.warehouse_info).toBeDefined();
    expect(full.data.order.shipping_address).toMatchObject({ commune_id: commune.id, district_id: "70101", province_id: "701" });
  });

  it("echoes what it resolved (lines, address, warehouse) and states the defaults it took", async () => {
    const v = pos().variations.find((x) => x.product.name === "Áo sơ mi form rộng")!;
    const hcm = pos().warehouses.find((w) => w.name === "Kho Hồ Chí Minh")!;
    // In stock in the delivery's city: shipped from there (create-order-defaults.test.ts: when not).
    v.variations_warehouses.find((s) => s.warehouse_id === hcm.id)!.remain_quantity = 5;
    const r = await h.call("create_order", {
      items: [{ product: v.display_id, quantity: 1 }],
      customer_name: "Phan Ngọc Vy",
      phone: "0944189208",
      shipping_address: { address: "12 Nguyen Hue, ben nghe, q1, tp hcm" },
    });
    expect(r.isError, r.text).toBe(false);
    const stored = pos().orders.find((o) => String(o.id) === r.data.id)!;
    expect(r.data.order.items).toEqual([expect.objectContaining({ variation_id: v.id, name: v.product.name, sku: v.display_id, quantity: 1 })]);
    expect(r.data.order.address.full_address).toBe(stored.shipping_address!.full_address);
    expect(r.data.order.warehouse).toBe(hcm.name);
    expect(r.data.defaults).toEqual([
      `warehouse: ${hcm.name}, in the delivery's province with every item in stock (none given)`,
      `source: ${stored.order_sources_name}, the POS's default (none given; pass source, e.g. the page the customer wrote on)`,
      "shipping_fee: 0 (none given); the POS keeps an order's fees, so update_order cannot add one later",
      'payment: cash on delivery (none given; payment "prepaid" if the customer paid by transfer)',
    ]);
  });

  it("takes the source as a page name, and states no default when warehouse, source and payment are given", async () => {
    const page = pos().shop.pages.find((p) => p.platform === "facebook")!;
    const r = await h.call("create_order", {
      items: [{ variation_id: pos().variations[1]!.id, quantity: 1 }],
      warehouse_id: "Kho Ha Noi",
      source: page.name.toLowerCase(),
      payment: "cod",
    });
    expect(r.isError, r.text).toBe(false);
    const stored = pos().orders.find((o) => String(o.id) === r.data.id)!;
    expect(stored).toMatchObject({ order_sources: "-1", order_sources_name: "Facebook", page_id: page.id });
    expect(r.data.defaults).toEqual([
      "no receiver phone or address given or on record: set it with update_order before the order ships",
      "shipping_fee: 0 (none given); the POS keeps an order's fees, so update_order cannot add one later",
    ]);
    const charged = await h.call("create_order", { items: [{ variation_id: pos().variations[1]!.id, quantity: 1 }], warehouse_id: "Kho Ha Noi", source: page.name, shipping_fee: 30_000, payment: "cod" });
    expect(charged.data.defaults).toEqual(["no receiver phone or address given or on record: set it with update_order before the order ships"]);
    const unknown = await h.call("create_order", { items: [{ variation_id: pos().variations[1]!.id, quantity: 1 }], source: "Myspace" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('source: unknown value "Myspace"');
  });

  it("for a customer given by phone, takes the receiver's name, phone and address from the record and says so", async () => {
    const customer = pos().customers.find((c) => c.phone_numbers.length > 0 && c.shop_customer_address.some((a) => a.commune_id))!;
    const saved = customer.shop_customer_address.find((a) => a.commune_id)!;
    const phone = customer.phone_numbers[0]!;
    const spaced = `${phone.slice(0, 4)} ${phone.slice(4, 7)} ${phone.slice(7)}`;
    const r = await h.call("create_order", { customer_id: spaced, items: [{ variation_id: pos().variations[1]!.id, quantity: 1 }] });
    expect(r.isError, r.text).toBe(false);
    const stored = pos().orders.find((o) => String(o.id) === r.data.id)!;
    expect(stored).toMatchObject({ bill_full_name: customer.name, bill_phone_number: phone, shop_customer_id: customer.id });
    expect(stored.shipping_address).toMatchObject({ commune_id: saved.commune_id, full_name: customer.name, phone_number: phone });
    expect(r.data.order).toMatchObject({ customer_name: customer.name, phone });
    expect(r.data.defaults[0]).toBe(`receiver's name, phone, address from the customer's record (${customer.name})`);
    // The phone alone finds the same customer; what the call gives wins over the record.
    const byPhone = await h.call("create_order", { phone, customer_name: "Người nhận khác", items: [{ variation_id: pos().variations[1]!.id, quantity: 1 }] });
    const other = pos().orders.find((o) => String(o.id) === byPhone.data.id)!;
    expect(other).toMatchObject({ bill_full_name: "Người nhận khác", shop_customer_id: customer.id });
    expect(byPhone.data.defaults[0]).toBe(`receiver's address from the customer's record (${customer.name})`);
  });

  it("takes a SKU or barcode where a variation id goes, and a customer by phone or name", async () => {
    const [a, b] = [pos().variations.find((v) => v.barcode)!, pos().variations[12]!];
    const customer = pos().customers.find((c) => c.phone_numbers[0] && pos().customers.filter((x) => x.name === c.name).length === 1)!;
    const r = await h.call("create_order", { items: [{ variation_id: b.display_id, quantity: 1 }, { variation_id: a.barcode, quantity: 2 }], customer_id: customer.name });
    expect(r.isError, r.text).toBe(false);
    const stored = pos().orders.find((o) => String(o.id) === r.data.id)!;
    expect(stored.items.map((it) => [it.variation_id, it.quantity])).toEqual([
      [b.id, 1],
      [a.id, 2],
    ]);
    expect(stored.shop_customer_id).toBe(customer.id);
    const unknown = await h.call("create_order", { items: [{ variation_id: "AT999-XX-M", quantity: 1 }] });
    expect(unknown.text).toContain('items[0].variation_id: no variation has the id, SKU or barcode "AT999-XX-M"');
  });

  it("lists the customers a name fits when it fits several, creating nothing", async () => {
    const shared = pos().customers.find((c) => pos().customers.filter((x) => x.name === c.name).length > 1);
    const name = shared?.name ?? pos().customers[0]!.name.split(" ")[0]!;
    const before = pos().orders.length;
    const r = await h.call("create_order", { items: [{ variation_id: pos().variations[1]!.id, quantity: 1 }], customer_id: name });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/customer_id: ".*" matches \d+ customers: .*id /);
    expect(pos().orders).toHaveLength(before);
  });

  it("lists candidates when a product name is ambiguous, and narrows with variant", async () => {
    const r = await h.call("create_order", { items: [{ product: "Áo thun cotton", quantity: 1 }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("items[0].product");
    const skus = pos().variations.filter((v) => v.product.name === "Áo thun cotton").map((v) => v.display_id);
    for (const sku of skus) expect(r.text).toContain(sku);

    const target = pos().variations.find((v) => v.product.name === "Áo thun cotton")!;
    const variant = target.fields.map((f) => f.value).join(" ");
    const ok = await h.call("create_order", { items: [{ product: "ao thun cotton", variant, quantity: 1 }], phone: "0987000222" });
    expect(ok.isError, ok.text).toBe(false);
    expect(pos().orders.find((o) => String(o.id) === ok.data.id)!.items[0]!.variation_id).toBe(target.id);
    // The variant's words after the product's name, in one text, as people say it.
    const said = await h.call("create_order", { items: [{ product: `Áo thun cotton ${variant}`, quantity: 1 }], phone: "0987000222" });
    expect(said.isError, said.text).toBe(false);
    expect(pos().orders.find((o) => String(o.id) === said.data.id)!.items[0]!.variation_id).toBe(target.id);

    // A variant the product does not have: its variants are offered, nothing is written.
    const before = pos().orders.length;
    const none = await h.call("create_order", { items: [{ product: "ao thun cotton", variant: "tím XXXL", quantity: 1 }] });
    expect(none.isError).toBe(true);
    expect(none.text).toContain("Its variants:");
    for (const sku of skus) expect(none.text).toContain(sku);
    expect(pos().orders.length).toBe(before);
  });

  it("names the missing or invalid field before any write", async () => {
    const path = `/pos/api/v1/shops/${pos().shop.id}/orders`;
    const before = h.sandbox.server.count("POST", path);
    const noVariation = await h.call("create_order", { items: [{ quantity: 1 }] });
    expect(noVariation.isError).toBe(true);
    expect(noVariation.text).toContain("items[0].variation_id");
    const noQuantity = await h.call("create_order", { items: [{ variation_id: pos().variations[0]!.id }] });
    expect(noQuantity.isError).toBe(true);
    expect(noQuantity.text).toContain("quantity");
    const noItems = await h.call("create_order", { customer_name: "x" });
    expect(noItems.isError).toBe(true);
    expect(noItems.text).toContain("items");
    const unknown = await h.call("create_order", { items: [{ variation_id: "no-such-variation", quantity: 1 }] });
    expect(unknown.text).toContain("items[0].variation_id");
    const badStatus = await h.call("create_order", { items: [{ variation_id: pos().variations[0]!.id, quantity: 1 }], status: "teleported" });
    expect(badStatus.text).toContain("status");
    expect(badStatus.text).toContain("money_collected");
    expect(h.sandbox.server.count("POST", path)).toBe(before);
  });

  it("updates with PUT: items while new, status by name or code, note", async () => {
    const order = pos().orders.find((o) => o.status === 0 && !o.is_removed)!;
    const noteBefore = order.note || undefined;
    const v = pos().variations[9]!;
    const items = await h.call("update_order", { order_id: order.id, items: [{ product: v.display_id, quantity: 3 }] });
    expect(items.isError, items.text).toBe(false);
    expect(items.data.previous_status).toBeUndefined();
    expect(order.items.map((it) => [it.variation_id, it.quantity])).toEqual([[v.id, 3]]);
    const byName = await h.call("update_order", { order_id: order.id, status: "confirmed", note: "Đã gọi xác nhận" });
    expect(byName.isError, byName.text).toBe(false);
    expect(order.status).toBe(1);
    expect(order.note).toBe("Đã gọi xác nhận");
    expect(byName.data.replaced_note).toBe(noteBefore);
    expect(byName.data.previous_status).toBe("new");
    expect(byName.data.order.status_history.slice(-2).map((e: { status_name: string }) => e.status_name)).toEqual(["new", "confirmed"]);
    const byCode = await h.call("update_order", { order_id: String(order.id), status: 12 });
    expect(byCode.data.order.status_name).toBe("waiting_to_print");
    expect(byCode.data.previous_status).toBe("confirmed");
    const bad = await h.call("update_order", { order_id: order.id, items: [{ product: v.display_id }] });
    expect(bad.text).toContain("items[0].quantity");
    const nothing = await h.call("update_order", { order_id: order.id });
    expect(nothing.isError).toBe(true);
    expect(h.sandbox.server.requests.filter((r) => r.method === "PUT").length).toBe(3);
  });

  it("gives back the staff note a new note replaced", async () => {
    const order = pos().orders.find((o) => !o.is_removed && o.note)!;
    const old = order.note;
    const r = await h.call("update_order", { order_id: `#${order.display_id}`, note: "Khách hẹn giao sau 17h" });
    expect(r.isError, r.text).toBe(false);
    expect(order.note).toBe("Khách hẹn giao sau 17h");
    expect(r.data.replaced_note).toBe(old);
  });

  it("refuses an unknown key in update_order's items or a return's exchange_items, as create_order does, before any write", async () => {
    const order = pos().orders.find((o) => o.status === 0 && !o.is_removed)!;
    const lines = JSON.stringify(order.items);
    const v = pos().variations[3]!;
    const writes = () => h.sandbox.server.requests.filter((q) => q.method !== "GET").length;
    const before = writes();
    const created = await h.call("create_order", { items: [{ variation_id: v.id, quantity: 1, discount: 50_000 }] });
    const updated = await h.call("update_order", { order_id: order.id, items: [{ variation_id: v.id, quantity: 1, discount: 50_000 }] });
    const asText = await h.call("update_order", { order_id: order.id, items: JSON.stringify([{ variation_id: v.id, quantity: 1, discount: 50_000 }]) });
    for (const r of [created, updated, asText]) {
      expect(r.isError, r.text).toBe(true);
      expect(r.text).toContain("unknown parameter `discount` in items[0]; did you mean `discount_each`?");
    }
    const original = pos().orders.find((o) => o.status === 3 && !o.is_removed && o.items.some((it) => it.quantity > it.returned_count))!;
    const line = original.items.find((it) => it.quantity > it.returned_count)!;
    const exchange = await h.call("create_return_order", {
      order_id: original.id,
      items: [{ variation_id: line.variation_id, quantity: 1 }],
      warehouse_id: original.warehouse_id,
      exchange_items: [{ variation_id: v.id, qty: 1 }],
    });
    expect(exchange.isError).toBe(true);
    expect(exchange.text).toContain("unknown parameter `qty` in exchange_items[0]; did you mean `quantity`?");
    expect(writes()).toBe(before);
    expect(JSON.stringify(order.items)).toBe(lines);
  });

  it("keeps the receiver's name and phone when only the shipping address changes", async () => {
    const order = pos().orders.find((o) => o.status === 0 && !o.is_removed && o.shipping_address?.full_name)!;
    const { full_name, phone_number } = order.shipping_address!;
    const r = await h.call("update_order", { order_id: order.id, shipping_address: { address: "12 Lê Lợi" } });
    expect(r.isError, r.text).toBe(false);
    const put = h.sandbox.server.requests.filter((q) => q.method === "PUT" && q.path.endsWith(`/orders/${order.id}`)).at(-1);
    expect(put?.body).toMatchObject({ shipping_address: { address: "12 Lê Lợi", full_name, phone_number } });
  });

  it("reports a missing order as not found", async () => {
    const r = await h.call("get_order", { order_id: "999999999" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/not.?found/i);
  });
});

describe("return orders", () => {
  it("lists return orders filtered by status name or code", async () => {
    const completed = pos().returnOrders.filter((r) => r.status === 1);
    const byName = await h.call("list_return_orders", { status: "completed", limit: 100 });
    const byCode = await h.call("list_return_orders", { status: 1, limit: 100 });
    expect(byName.data.total).toBe(completed.length);
    expect(byName.data.return_orders.map((r: { id: string }) => r.id).sort()).toEqual(completed.map((r) => String(r.id)).sort());
    expect(byCode.data.return_orders).toEqual(byName.data.return_orders);
    const row = byName.data.return_orders[0];
    const stored = completed.find((r) => String(r.id) === row.id)!;
    expect(row.original_order_id).toBe(String(stored.order_id_to_returned));
  });

  it("creates a return linked to its original, with an exchange order", async () => {
    const original = pos().orders.find((o) => o.status === 3 && !o.is_removed && o.items.some((it) => it.quantity > it.returned_count))!;
    const line = original.items.find((it) => it.quantity > it.returned_count)!;
    const swap = pos().variations[20]!;
    const stockBefore = pos().variations.find((v) => v.id === line.variation_id)!.remain_quantity;
    const r = await h.call("create_return_order", {
      order_id: original.id,
      items: [{ product: line.variation_info.display_id, quantity: 1 }],
      warehouse_id: original.warehouse_id,
      exchange_items: [{ variation_id: swap.id, quantity: 1 }],
    });
    expect(r.isError, r.text).toBe(false);
    const stored = pos().returnOrders.find((x) => String(x.id) === r.data.id)!;
    expect(stored.order_id_to_returned).toBe(original.id);
    expect(stored.returned_items.map((it) => [it.variation_id, it.returned_quantity])).toEqual([[line.variation_id, 1]]);
    expect(r.data.return_order).toMatchObject({ original_order_id: String(original.id), status_name: "new" });
    expect(r.data.return_order.exchange_order_id).toBe(String(stored.order_id));
    expect(pos().variations.find((v) => v.id === line.variation_id)!.remain_quantity).toBe(stockBefore + 1);

    const listed = await h.call("list_return_orders", { limit: 5 });
    expect(listed.data.return_orders[0].id).toBe(r.data.id);
    const exchange = await h.call("get_order", { order_id: stored.order_id! });
    expect(exchange.data.order.items[0].variation_id).toBe(swap.id);
    const back = await h.call("get_order", { order_id: original.id });
    expect(back.data.order.exchange_order_ids).toContain(String(stored.order_id));
    // Both by the number the shop shows them by.
    const made = pos().orders.find((o) => o.id === stored.order_id)!;
    expect(back.data.order.exchange_orders).toContain(`#${made.display_id}`);
    expect(r.data.return_order).toMatchObject({ original_order: `#${original.display_id}`, exchange_order: `#${made.display_id}` });
  });

  it("names required and invalid fields of a return", async () => {
    const original = pos().orders.find((o) => o.status === 3 && !o.is_removed)!;
    const line = original.items[0]!;
    const noWarehouse = await h.call("create_return_order", { order_id: original.id, items: [{ variation_id: line.variation_id, quantity: 1 }] });
    expect(noWarehouse.isError).toBe(true);
    expect(noWarehouse.text).toContain("warehouse_id");
    const noQuantity = await h.call("create_return_order", { order_id: original.id, items: [{ variation_id: line.variation_id }], warehouse_id: original.warehouse_id });
    expect(noQuantity.text).toContain("quantity");
    const tooMany = await h.call("create_return_order", {
      order_id: original.id,
      items: [{ variation_id: line.variation_id, quantity: line.quantity + 5 }],
      warehouse_id: original.warehouse_id,
    });
    expect(tooMany.text).toContain("items[0].quantity");
    const notInOrder = await h.call("create_return_order", {
      order_id: original.id,
      items: [{ variation_id: pos().variations.find((v) => !original.items.some((it) => it.variation_id === v.id))!.id, quantity: 1 }],
      warehouse_id: original.warehouse_id,
    });
    expect(notInOrder.text).toContain("items[0].variation_id");
    const badStatus = await h.call("create_return_order", {
      order_id: original.id,
      items: [{ variation_id: line.variation_id, quantity: 1 }],
      warehouse_id: original.warehouse_id,
      status: "lost",
    });
    expect(badStatus.text).toContain("completed");
  });
});
