import type { Random } from "../random.js";
import type { PosState } from "./state.js";
import { DAY, iso } from "./time.js";
import type { BackOfficeRecord, OrderRecord, VariationRecord } from "./types.js";

const suppliers = [
  { id: 301, name: "Xưởng may Tân Phú", custom_id: "NCC01" },
  { id: 302, name: "Vải sợi Nam Định", custom_id: "NCC02" },
  { id: 303, name: "Phụ kiện Sài Gòn", custom_id: "NCC03" },
];
const expenseNames = ["Tiền thuê mặt bằng", "Tiền điện nước", "Lương nhân viên", "Mua túi đóng hàng", "Chạy quảng cáo Facebook"];

function user(state: PosState, rng: Random) {
  const u = rng.pick(state.users);
  return { id: u.id, name: u.name, fb_id: u.fb_id, avatar_url: null };
}

function stockLines(rng: Random, variations: VariationRecord[], count: number) {
  return Array.from({ length: count }, (_, i) => {
    const v = rng.pick(variations);
    return { index: i, v, quantity: rng.int(5, 40) };
  });
}

/**
 * The order a customer's debt is for, as the OpenAPI's Debt carries it (`order_id` and a short
 * `order`): what the customer has not paid of it. No order: both null.
 */
function debtOrder(order: OrderRecord | undefined) {
  if (!order) return { order_id: null, order: null };
  const { id, display_id, custom_id, total_price, cod, assigning_seller_id, assigning_seller, items } = order;
  return { order_id: id, order: { id, display_id, custom_id, total_price, cod, assigning_seller_id, assigning_seller, items } };
}

/** Finance, inventory, promotion and analytics records so the back-office routes have data. */
export function seedBackOffice(state: PosState, rng: Random): void {
  const now = state.now.getTime();
  const day = (n: number) => iso(now - n * DAY);

  for (let i = 1; i <= 80; i++) {
    const creator = user(state, rng);
    const income = rng.chance(0.35);
    const at = day(rng.int(0, 89));
    state.transactions.push({
      id: rng.uuid(),
      display_id: `GD${1000 + i}`,
      name: income ? "Thu tiền bán hàng tại quầy" : rng.pick(expenseNames),
      note: null,
      amount: (income ? 1 : -1) * rng.int(2, 200) * 10_000,
      status: rng.pick([0, 1, 1, 1, 1, 2, 3]),
      is_locked: false,
      is_canceled: false,
      is_accounting: true,
      payment_debts_to_suppliers: false,
      payments: [rng.pick(["cash", "transfer_money", "charged_by_card"])],
      tag_ids: [],
      images: [],
      supplier_products_id: null,
      advertising_cost_id: null,
      table_name: "transactions",
      shop_id: state.shop.id,
      creator_id: creator.id,
      creator,
      inserted_at: at,
      time_incurred: at,
    });
  }

  const delivered = state.orders.filter((o) => o.transfer_money > 0);
  delivered.forEach((order, i) => {
    state.paymentHistories.push({
      id: 7000 + i,
      amount: order.transfer_money,
      date: Math.floor(Date.parse(`${order.inserted_at}Z`) / 1000) + 600,
      inserted_at: order.inserted_at,
      order: {
        id: order.id,
        display_id: order.display_id,
        custom_id: order.custom_id,
        name: order.bill_full_name,
        phone: order.bill_phone_number,
        email: null,
        warehouse_id: order.warehouse_id,
      },
      partner_code: `970436${rng.int(1_000_000, 9_999_999)}`,
      payment_content: `THANH TOAN DON ${order.display_id}`,
      result_code: "00",
      trans_id: `FT${rng.int(10_000_000, 99_999_999)}`,
      type: "qrpay",
    });
  });

  for (let i = 1; i <= 30; i++) {
    const customer = rng.pick(state.customers);
    const due = rng.int(2, 50) * 50_000;
    const status = rng.pick([0, 0, 1, 1, 2]);
    const at = day(rng.int(1, 89));
    const id = rng.uuid();
    const type = rng.chance(0.7) ? 1 : 0;
    // Owed to the shop (1): a customer who has not paid. Owed by the shop (0): a supplier's
    // goods not yet paid for, or a refund due to a customer; taken in turn, not at random, so
    // the rest of the data set stays as it was.
    const supplier = type === 0 && i % 2 === 0 ? suppliers[i % suppliers.length]! : undefined;
    const counterpart = supplier
      ? { name_debt: "Công nợ nhà cung cấp", description: `Shop còn nợ ${supplier.name} tiền nhập hàng`, supplier_products_id: supplier.id }
      : type === 0
        ? { name_debt: "Công nợ khách hàng", description: `Shop nợ khách ${customer.name} tiền hoàn đơn` }
        : { name_debt: "Công nợ khách hàng", description: `Khách ${customer.name} còn nợ` };
    state.debts.push({
      id,
      display_id: 3000 + i,
      name_debt: counterpart.name_debt,
      description: counterpart.description,
      type,
      status,
      money_must_pay_or_collect: due,
      money_payed_or_collected: status === 1 ? due : status === 0 ? Math.floor(due / 2) : 0,
      currency: "VND",
      shop_id: state.shop.id,
      shop_customer_id: supplier ? null : customer.id,
      shop_customer: supplier ? null : { id: customer.id, name: customer.name, phone_numbers: customer.phone_numbers },
      supplier_products_id: counterpart.supplier_products_id ?? null,
      ...debtOrder(type === 1 ? state.orders.find((o) => o.shop_customer_id === customer.id && !o.is_removed) : undefined),
      inserted_at: at,
      updated_at: at,
      expired_at: iso(Date.parse(`${at}Z`) + 30 * DAY),
      is_locked: false,
    });
  }

  for (let i = 1; i <= 15; i++) {
    const warehouse = rng.pick(state.warehouses);
    const lines = stockLines(rng, state.variations, rng.int(2, 6));
    const at = day(90 - i * 6);
    const items = lines.map(({ v, quantity }, j) => ({
      id: i * 100 + j,
      variation_id: v.id,
      product_name: v.product.name,
      imported_price: v.last_imported_price,
      gross_price: v.last_imported_price * quantity,
      discount: 0,
      quantity,
      note_purchase: null,
      selling_status: null,
      variation: { id: v.id, display_id: v.display_id, fields: v.fields },
    }));
    const purchase: BackOfficeRecord = {
      id: rng.uuid(),
      display_id: 500 + i,
      status: i > 13 ? 0 : 1,
      created_type: "manual",
      warehouse_id: warehouse.id,
      supplier: rng.pick(suppliers),
      user_id: state.users[3]!.id,
      items,
      images: [],
      bill_images: [],
      tags: [],
      note: null,
      discount: 0,
      transport_fee: 50_000,
      prepaid_debt: 0,
      total_price: items.reduce((sum, it) => sum + it.gross_price, 0),
      total_quantity: items.reduce((sum, it) => sum + it.quantity, 0),
      received_at: Math.floor(Date.parse(`${at}Z`) / 1000),
      inserted_at: at,
      updated_at: at,
    };
    purchase.supplier_products_id = (purchase.supplier as { id: number }).id;
    state.purchases.push(purchase);
    lines.forEach(({ v, quantity }) => {
      const stock = v.variations_warehouses.find((s) => s.warehouse_id === warehouse.id)!;
      state.inventoryHistories.push({
        id: state.inventoryHistories.length + 1,
        inserted_at: at,
        quantity,
        remain_quantity: stock.remain_quantity,
        avg_price: v.average_imported_price,
        current_inventory: [{ id: warehouse.id, name: warehouse.name, remain_quantity: stock.remain_quantity }],
        editor_id: purchase.user_id,
        ref_display_id: String(purchase.display_id),
        table_name: "Purchase",
        type: "import",
        variation_id: v.id,
        variation_now: { id: v.id, display_id: v.display_id, barcode: v.barcode, retail_price: v.retail_price },
        warehouse: { id: warehouse.id, name: warehouse.name },
      });
    });
  }

  for (let i = 1; i <= 8; i++) {
    const warehouse = rng.pick(state.warehouses);
    state.stockExports.push({
      id: rng.uuid(),
      display_id: 800 + i,
      status: rng.pick([0, 1]),
      type: rng.pick([0, 1]),
      warehouse_id: warehouse.id,
      note: "Xuất hàng lỗi trả nhà cung cấp",
      supplier_products_id: rng.pick(suppliers).id,
      export_items: stockLines(rng, state.variations, 2).map(({ v, quantity }) => ({
        variation_id: v.id,
        quantity: Math.ceil(quantity / 5),
        imported_price: v.last_imported_price,
      })),
      inserted_at: day(rng.int(1, 80)),
    });
    const [from, to] = [state.warehouses[i % 3]!, state.warehouses[(i + 1) % 3]!];
    state.transfers.push({
      id: rng.uuid(),
      display_id: 900 + i,
      status: rng.pick([0, 1, 2]),
      from_warehouse_id: from.id,
      to_warehouse_id: to.id,
      shipping_fee: 30_000,
      items: stockLines(rng, state.variations, 3).map(({ v, quantity }) => ({ variation_id: v.id, quantity })),
      note: `Chuyển hàng ${from.name} -> ${to.name}`,
      images: [],
      inserted_at: day(rng.int(1, 80)),
    });
  }

  for (let i = 1; i <= 5; i++) {
    const warehouse = state.warehouses[i % 3]!;
    const at = day(i * 15);
    state.stocktakings.push({
      id: rng.uuid(),
      display_id: 40 + i,
      creator_id: state.users[3]!.id,
      warehouse_id: warehouse.id,
      shop_id: state.shop.id,
      note: "Kiểm kho định kỳ",
      status: i === 1 ? 0 : 1,
      progress: i === 1 ? 50 : 100,
      stocktaking_at: Math.floor(Date.parse(`${at}Z`) / 1000),
      stocktaking_by: "category",
      stocktaking_by_value: [101 + i],
      inserted_at: at,
      updated_at: at,
      updated_status_at: at,
      items: stockLines(rng, state.variations, 4).map(({ v }, j) => ({
        id: `${i}-${j}`,
        variation_id: v.id,
        changed_quantity: rng.int(-2, 2),
        current_quantity: v.remain_quantity,
        note: null,
        variation: { id: v.id, display_id: v.display_id },
        shop_id: state.shop.id,
        inserted_at: at,
        updated_at: at,
      })),
    });
  }

  const promos: [string, string, number, boolean][] = [
    ["Giảm 10% mùa hè", "discount_by_product", 10, true],
    ["Mã FREESHIP50", "coupon", 50_000, true],
    ["Sale 12.12", "discount_by_product", 15, false],
    ["Tri ân khách VIP", "discount_by_coupon_id", 100_000, true],
    ["Mua 2 giảm 5%", "discount_by_product", 5, true],
    ["Black Friday", "discount_by_product", 30, false],
  ];
  promos.forEach(([name, type, discount, active], i) => {
    const percent = discount <= 100;
    state.promotions.push({
      id: rng.uuid(),
      display_id: 60 + i,
      name,
      type,
      group_name: null,
      priority_level: i,
      is_activated: active,
      is_free_shipping: name.includes("FREESHIP"),
      start_time: day(60 - i * 5),
      end_time: day(-30 + i * 5),
      coupon_info: { discount, is_percent: percent },
      promo_code_info: { discount, is_percent: percent, max_discount_by_percent: percent ? 100_000 : null },
      items: [],
      warehouse_ids: [],
      customer_tags: [],
      shop_id: state.shop.id,
      creator_id: state.users[0]!.id,
      inserted_at: day(60 - i * 5),
      updated_at: day(60 - i * 5),
    });
  });

  ["Combo áo + quần", "Combo 3 áo thun", "Combo đi biển", "Combo công sở"].forEach((name, i) => {
    const parts = stockLines(rng, state.variations, 2);
    state.combos.push({
      id: rng.uuid(),
      name,
      custom_id: `CB${i + 1}`,
      currency: "VND",
      discount_amount: 50_000 + i * 10_000,
      discount_by_percent: 0,
      is_use_percent: false,
      is_free_shipping: false,
      is_value_combo: false,
      is_variation: true,
      order_sources: [{ key: "-1", account: null }],
      order_types: ["all"],
      variations: parts.map(({ v }) => ({ count: 1, product_id: v.product_id, variation_id: v.id })),
      start_time: Math.floor((now - 30 * DAY) / 1000),
      end_time: Math.floor((now + 30 * DAY) / 1000),
      shop_id: state.shop.id,
      inserted_at: day(30 + i),
      updated_at: day(30 + i),
    });
  });

  state.formulas.push(
    { id: "0ea7-bc72-ae51-0769-a7c9-ca34-fff6", name: "Tiền hàng - phí ship", formula: "{price} - {shipping_fee}", unit: "currency" },
    { id: "3db3-72a7-c426-066a-4eed-a63b-be49", name: "Giá trị trung bình mỗi sản phẩm", formula: "{price} / {product_count}", unit: "currency" },
  );
  state.analyticFields.push(
    { id: "price", name: "Giá hàng" },
    { id: "avg_price", name: "Giá trung bình" },
    { id: "cod", name: "Tiền thu hộ" },
    { id: "discount", name: "Chiết khấu" },
    { id: "order_count", name: "Số đơn" },
    { id: "total_order_count", name: "Tổng số đơn" },
    { id: "product_count", name: "Số sản phẩm" },
    { id: "shipping_fee", name: "Phí vận chuyển" },
    { id: "partner_fee", name: "Phí đối tác" },
    { id: "surcharge", name: "Phụ thu" },
    { id: "fee_marketplace", name: "Phí sàn" },
  );
  for (const kind of ["transaction", "debt", "purchase", "export", "transfer", "stocktaking", "promotion"]) {
    state.sequences[kind] = 1000;
  }
  stockInFlight(state);
}

/** Order statuses whose units are off sale but still on the shelf: placed, not yet shipped. */
const RESERVED = new Set([0, 17, 1, 12, 13, 8, 9]);
/** Waiting for goods, ordered from the supplier: the units are not there yet. */
const AWAITING_GOODS = new Set([11, 20]);

/**
 * Stock on its way in or out, as the VariationWarehouse fields of the POS OpenAPI count it:
 * units of orders placed and not yet shipped are still on the shelf (in actual_remain_quantity,
 * no longer in the sellable remain_quantity), units of orders waiting for goods are
 * waitting_quantity, units on purchases not yet received are pending_quantity. Sellable stock
 * stays as seeded.
 */
function stockInFlight(state: PosState): void {
  const stockOf = (variationId: string, warehouseId: string) =>
    state.variations.find((v) => v.id === variationId)?.variations_warehouses.find((s) => s.warehouse_id === warehouseId);
  for (const order of state.orders) {
    if (order.is_removed) continue;
    for (const item of order.items) {
      const stock = stockOf(item.variation_id, order.warehouse_id);
      if (stock && RESERVED.has(order.status)) stock.actual_remain_quantity += item.quantity;
      if (stock && AWAITING_GOODS.has(order.status)) stock.waitting_quantity += item.quantity;
    }
  }
  for (const purchase of state.purchases.filter((p) => p.status === 0)) {
    for (const item of purchase.items as { variation_id: string; quantity: number }[]) {
      const stock = stockOf(item.variation_id, String(purchase.warehouse_id));
      if (stock) stock.pending_quantity += item.quantity;
    }
  }
}
