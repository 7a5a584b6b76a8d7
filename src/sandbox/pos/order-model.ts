import { ORDER_STATUSES, PAYMENT_TYPES } from "../../clients/pos-codes.js";
import { type PosState, tell, writeTime } from "./state.js";
import { iso } from "./time.js";
import type {
  CustomerRecord,
  GeoData,
  OrderItem,
  OrderRecord,
  ShippingAddress,
  StatusChange,
  StockRecord,
  UserRecord,
  VariationRecord,
  WardRecord,
  WarehouseRecord,
} from "./types.js";

/** Order ids start above this; display ids count from 1. */
export const FIRST_ORDER_ID = 58_000;

export function statusName(code: number): string {
  return ORDER_STATUSES.find((s) => s.code === code)?.name ?? String(code);
}

export function shippingAddress(
  geo: GeoData,
  communeId: string,
  street: string,
  fullName: string,
  phone: string,
): ShippingAddress {
  const commune = geo.communes.find((c) => c.id === communeId) ?? geo.communes[0]!;
  const district = geo.districts.find((d) => d.id === commune.district_id)!;
  const province = geo.provinces.find((p) => p.id === commune.province_id)!;
  return {
    address: street,
    commune_id: commune.id,
    commune_name: commune.name,
    district_id: district.id,
    district_name: district.name,
    province_id: province.id,
    province_name: province.name,
    country_code: "84",
    post_code: commune.postcode,
    full_address: `${street}, ${commune.name}, ${district.name}, ${province.name}`,
    full_name: fullName,
    phone_number: phone,
  };
}

/**
 * A two-tier (post-2025) address: province and ward, no district, rendered in the new form. How
 * the live service fills full_address for such a record is not shown anywhere; here it is the
 * same text as new_full_address, so readers of either field see the address that was written.
 */
export function wardAddress(geo: GeoData, ward: WardRecord, street: string, fullName: string, phone: string): ShippingAddress {
  const province = geo.newProvinces.find((p) => p.id === ward.province_id)!;
  const text = [street, ward.name, province.name].filter(Boolean).join(", ");
  return {
    address: street,
    commune_id: ward.id,
    commune_name: ward.name,
    district_id: null,
    district_name: null,
    province_id: province.id,
    province_name: province.name,
    country_code: "84",
    post_code: ward.postcode,
    full_address: text,
    full_name: fullName,
    phone_number: phone,
    render_type: "new",
    new_province_id: province.id,
    new_full_address: text,
  };
}

/**
 * A written three-tier address as the vendor's order examples echo it: render_type `old`, the
 * province's post-2025 id beside the old one, and a new_full_address of the street and the
 * province ("123, Hà Nội"; an old ward without a new id has no new name to give).
 */
export function renderedOld(geo: GeoData, address: ShippingAddress): ShippingAddress {
  const province = geo.provinces.find((p) => p.id === address.province_id);
  return {
    ...address,
    render_type: "old",
    new_province_id: province?.new_id ?? null,
    new_full_address: [address.address, address.province_name].filter(Boolean).join(", "),
  };
}

export function variationInfo(v: VariationRecord): OrderItem["variation_info"] {
  return {
    name: v.product.name,
    detail: v.fields.map((f) => f.value).join(" - "),
    display_id: v.display_id,
    product_display_id: v.product.display_id,
    barcode: v.barcode,
    retail_price: v.retail_price,
    weight: v.weight,
    fields: v.fields,
  };
}

export function orderItem(id: number, v: VariationRecord, quantity: number, discount = 0): OrderItem {
  return {
    id,
    product_id: v.product_id,
    variation_id: v.id,
    quantity,
    discount_each_product: discount,
    is_bonus_product: false,
    is_discount_percent: false,
    is_wholesale: false,
    is_composite: false,
    one_time_product: false,
    note: null,
    returned_count: 0,
    variation_info: variationInfo(v),
  };
}

export function statusChange(editor: UserRecord, oldStatus: number | null, status: number, at: string): StatusChange {
  return {
    editor_id: editor.id,
    editor: { id: editor.id, name: editor.name },
    name: editor.name,
    old_status: oldStatus,
    status,
    updated_at: at,
  };
}

export function warehouseInfo(w: WarehouseRecord): Record<string, unknown> {
  return {
    name: w.name,
    phone_number: w.phone_number,
    address: w.address,
    full_address: w.full_address,
    province_id: w.province_id,
    district_id: w.district_id,
    commune_id: w.commune_id,
    custom_id: w.custom_id,
    affiliate_id: null,
    ffm_id: null,
    has_snappy_service: false,
  };
}

/** Recomputes the money and quantity fields of an order from its items and fees. */
export function applyTotals(order: OrderRecord): void {
  const gross = order.items.reduce(
    (sum, it) => sum + (it.variation_info.retail_price - it.discount_each_product) * it.quantity,
    0,
  );
  order.total_quantity = order.items.reduce((sum, it) => sum + it.quantity, 0);
  order.total_price = gross;
  order.total_price_after_sub_discount = gross - order.total_discount;
  const due = order.total_price_after_sub_discount + (order.is_free_shipping ? 0 : order.shipping_fee);
  // Every payment channel (cash, bank transfer, card, e-wallets, pay-later, QR) counts as paid.
  const paid = PAYMENT_TYPES.reduce((sum, field) => sum + (Number(order[field]) || 0), 0);
  order.money_to_collect = Math.max(0, due - paid);
  order.cod = order.money_to_collect;
}

export interface OrderDraft {
  id: number;
  displayId: number;
  at: string;
  creator: UserRecord;
  warehouse: WarehouseRecord;
  customer: CustomerRecord | null;
  billName: string;
  billPhone: string;
  address: ShippingAddress;
  items: OrderItem[];
  source: { id: string; name: string; account: string | null; accountName: string | null };
}

/** The customer's link to confirm and follow an order (the OpenAPI's "Link confirm order"). */
export const trackingLink = (state: PosState, id: number) => `https://pos.pages.fm/sandbox/confirm/${state.shop.id}-${id.toString(36)}`;

/** A new order (status new) with every field the live service returns, defaults filled. */
export function newOrder(state: PosState, d: OrderDraft): OrderRecord {
  const order: OrderRecord = {
    id: d.id,
    system_id: d.id,
    display_id: d.displayId,
    tracking_link: trackingLink(state, d.id),
    shop_id: state.shop.id,
    page_id: d.source.id === "-1" ? d.source.account : null,
    post_id: null,
    conversation_id: null,
    custom_id: null,
    bill_full_name: d.billName,
    bill_phone_number: d.billPhone,
    creator: { id: d.creator.id, fb_id: d.creator.fb_id, name: d.creator.name, avatar_url: null },
    inserted_at: d.at,
    updated_at: d.at,
    last_update_status_at: d.at,
    status: 0,
    status_name: statusName(0),
    sub_status: null,
    status_history: [statusChange(d.creator, null, 0, d.at)],
    tags: [],
    items: d.items,
    shipping_address: d.address,
    shipping_fee: 0,
    partner_fee: 0,
    total_discount: 0,
    total_price: 0,
    total_price_after_sub_discount: 0,
    money_to_collect: 0,
    cod: 0,
    cash: 0,
    transfer_money: 0,
    total_quantity: 0,
    is_free_shipping: false,
    received_at_shop: false,
    note: null,
    note_print: null,
    returned_reason: null,
    warehouse_id: d.warehouse.id,
    warehouse_info: warehouseInfo(d.warehouse),
    partner: null,
    partner_inserted_at: null,
    estimate_delivery_date: null,
    transfer_proof: null,
    order_sources: d.source.id,
    order_sources_name: d.source.name,
    account: d.source.account,
    account_name: d.source.accountName,
    ad_id: null,
    ads_source: null,
    assigning_seller_id: null,
    assigning_seller: null,
    assigning_care_id: null,
    marketer: null,
    time_assign_seller: null,
    time_assign_care: null,
    time_assign_marketer: null,
    customer: d.customer
      ? {
          id: d.customer.id,
          customer_id: d.customer.customer_id,
          fb_id: d.customer.fb_id,
          name: d.customer.name,
          page_id: d.source.id === "-1" ? d.source.account : null,
        }
      : null,
    shop_customer_id: d.customer?.id ?? null,
    order_currency: "VND",
    is_removed: false,
  };
  applyTotals(order);
  return order;
}

/** Moves an order to `status`, recording who and when, as the status_history of the live service. */
export function moveStatus(order: OrderRecord, editor: UserRecord, status: number, at: string): void {
  if (order.status === status) return;
  order.status_history.push(statusChange(editor, order.status, status, at));
  order.status = status;
  order.status_name = statusName(status);
  order.last_update_status_at = at;
  order.updated_at = at;
}

/** The live service puts a canceled order's units back on sale (only once). */
export function cancelOrder(state: PosState, order: OrderRecord, editor: UserRecord, at: string): void {
  if (order.status === 6) return;
  const shipped = order.status_history.some((h) => h.status === 2);
  if (!shipped) for (const item of order.items) changeStock(state, item.variation_id, order.warehouse_id, item.quantity, 0);
  moveStatus(order, editor, 6, at);
}

/** A shipped order's units leave the shelf (the first time it ships); they were off sale since it was placed. */
export function shipOrder(state: PosState, order: OrderRecord, editor: UserRecord, at: string): void {
  const shipped = order.status_history.some((h) => h.status === 2);
  if (!shipped) for (const item of order.items) changeStock(state, item.variation_id, order.warehouse_id, 0, -item.quantity);
  moveStatus(order, editor, 2, at);
}

/** A variation's stock in a warehouse that holds none of it yet. */
export function emptyStock(warehouseId: string): StockRecord {
  return {
    warehouse_id: warehouseId,
    remain_quantity: 0,
    actual_remain_quantity: 0,
    total_quantity: 0,
    pending_quantity: 0,
    waitting_quantity: 0,
    returning_quantity: 0,
    selling_avg: 0,
  };
}

/**
 * Adds units of a variation to a warehouse: `sellable` to what it can still sell
 * (remain_quantity), `physical` to what is on the shelf (actual_remain_quantity). An order takes
 * its units off sale when placed and off the shelf when shipped; stock moves change both. `type`
 * names the cause as the inventory history does (the vendor documents no values for the
 * webhook's `type`).
 */
export function changeStock(state: PosState, variationId: string, warehouseId: string, sellable: number, physical = sellable, type = "order"): void {
  const variation = state.variations.find((v) => v.id === variationId);
  const stock = variation?.variations_warehouses.find((s) => s.warehouse_id === warehouseId);
  if (!variation || !stock) return;
  stock.remain_quantity += sellable;
  stock.actual_remain_quantity += physical;
  variation.remain_quantity += sellable;
  const onShelfOnly = sellable === 0;
  tell(state, {
    type: "variations_warehouses",
    stock: {
      variation_id: variationId,
      warehouse_id: warehouseId,
      remain_quantity: stock.remain_quantity,
      actual_remain_quantity: stock.actual_remain_quantity,
      change_quantity: onShelfOnly ? physical : sellable,
      is_actual_remain_quantity: onShelfOnly,
      inserted_at: iso(writeTime(state)),
      type,
    },
  });
}
