import { z } from "zod";

// Lenient schemas of POS records: unknown fields pass through (looseObject), every field may be
// null or missing, ids may be strings or numbers. The client falls back to the raw body when a
// record still does not match, so a schema never loses upstream data.

const id = z.union([z.string(), z.number()]);
const str = z.string().nullish();
const num = z.number().nullish();
const bool = z.boolean().nullish();
const ids = z.array(id).nullish();
const list = z.array(z.unknown()).nullish();
const record = z.looseObject({});

export const PosShop = z.looseObject({
  id,
  name: str,
  avatar_url: str,
  pages: z
    .array(z.looseObject({ id: id.nullish(), name: str, platform: str, shop_id: id.nullish() }))
    .nullish(),
  link_post_marketer: list,
});

export const PosProvince = z.looseObject({ id, name: str, name_en: str, new_id: str });
export const PosDistrict = z.looseObject({ id, name: str, name_en: str, province_id: id.nullish() });
export const PosCommune = z.looseObject({
  id,
  name: str,
  name_en: str,
  new_id: str,
  district_id: id.nullish(),
  province_id: id.nullish(),
  postcode: z.union([z.string(), z.number()]).nullish(),
});

const address = z.looseObject({
  address: str,
  full_address: str,
  full_name: str,
  phone_number: str,
  province_id: id.nullish(),
  district_id: id.nullish(),
  commune_id: id.nullish(),
  province_name: str,
  district_name: str,
  commune_name: str,
  // Beside the old fields since the reform of 1 July 2025 (the vendor's order examples).
  new_province_id: id.nullish(),
  new_full_address: str,
  render_type: str,
});

const variationInfo = z.looseObject({
  name: str,
  detail: str,
  display_id: id.nullish(),
  product_display_id: id.nullish(),
  barcode: str,
  retail_price: num,
  weight: num,
});

export const PosOrderItem = z.looseObject({
  id: id.nullish(),
  product_id: id.nullish(),
  variation_id: id.nullish(),
  quantity: num,
  discount_each_product: num,
  is_bonus_product: bool,
  returned_count: num,
  note: str,
  variation_info: variationInfo.nullish(),
});

const statusChange = z.looseObject({
  status: num,
  old_status: num,
  name: str,
  editor_id: id.nullish(),
  updated_at: str,
});

export const PosOrder = z.looseObject({
  id,
  system_id: id.nullish(),
  display_id: id.nullish(),
  shop_id: id.nullish(),
  page_id: id.nullish(),
  post_id: str,
  custom_id: str,
  bill_full_name: str,
  bill_phone_number: str,
  status: num,
  status_name: str,
  sub_status: num,
  status_history: z.array(statusChange).nullish(),
  inserted_at: str,
  updated_at: str,
  items: z.array(PosOrderItem).nullish(),
  shipping_address: address.nullish(),
  shipping_fee: num,
  total_discount: num,
  total_price: num,
  total_price_after_sub_discount: num,
  money_to_collect: num,
  cod: num,
  cash: num,
  transfer_money: num,
  total_quantity: num,
  note: str,
  note_print: str,
  warehouse_id: id.nullish(),
  partner: z.looseObject({ partner_id: num, extend_code: str, cod: num, total_fee: num }).nullish(),
  tags: list,
  creator: record.nullish(),
  customer: z.looseObject({ id: id.nullish(), name: str, fb_id: str }).nullish(),
  order_sources: id.nullish(),
  order_sources_name: str,
  account: id.nullish(),
  order_currency: str,
});

export const PosReturnOrder = z.looseObject({
  id,
  display_id: id.nullish(),
  status: num,
  shop_customer_id: id.nullish(),
  warehouse_id: id.nullish(),
  bill_full_name: str,
  bill_phone_number: str,
  order_id: id.nullish(),
  order_id_to_returned: id.nullish(),
  order: PosOrder.nullish(),
  order_to_returned: PosOrder.nullish(),
  returned_items: z
    .array(z.looseObject({ variation_id: id.nullish(), product_id: id.nullish(), returned_quantity: num }))
    .nullish(),
  inserted_at: str,
  updated_at: str,
});

export const PosWarehouse = z.looseObject({
  id,
  name: str,
  custom_id: str,
  phone_number: str,
  address: str,
  full_address: str,
  province_id: id.nullish(),
  district_id: id.nullish(),
  commune_id: id.nullish(),
  allow_create_order: bool,
});

export const PosVariation = z.looseObject({
  id,
  product_id: id.nullish(),
  display_id: id.nullish(),
  barcode: str,
  retail_price: num,
  remain_quantity: num,
  fields: list,
  product: z.looseObject({ name: str, display_id: id.nullish() }).nullish(),
  variations_warehouses: z
    .array(z.looseObject({ warehouse_id: id.nullish(), remain_quantity: num, actual_remain_quantity: num, pending_quantity: num }))
    .nullish(),
});

export const PosProduct = z.looseObject({
  id: id.nullish(),
  name: str,
  display_id: id.nullish(),
  custom_id: str,
  variations: z.array(PosVariation).nullish(),
});

export const PosCustomer = z.looseObject({
  id,
  customer_id: id.nullish(),
  name: str,
  gender: str,
  phone_numbers: z.array(z.string()).nullish(),
  emails: z.array(z.string()).nullish(),
  date_of_birth: str,
  reward_point: num,
  level_id: id.nullish(),
  tags: list,
  shop_customer_address: z.array(address.extend({ id: id.nullish() })).nullish(),
  order_count: num,
  succeed_order_count: num,
  purchased_amount: num,
});

export const PosPointLog = z.looseObject({
  amount: num,
  current_point: num,
  note: str,
  inserted_at: str,
  creator: record.nullish(),
});

export const PosCustomerNote = z.looseObject({
  id: id.nullish(),
  message: str,
  images: list,
  order_id: id.nullish(),
  created_at: num,
  updated_at: num,
  created_by: record.nullish(),
});

export const PosCustomerLevel = z.looseObject({
  id,
  name: str,
  color_customer_level: str,
  discount: num,
  discount_type: num,
  upgrade_by_order_count: num,
  upgrade_by_point: num,
  upgrade_by_total_purchase: num,
});

export const PosTransaction = z.looseObject({
  id,
  display_id: id.nullish(),
  name: str,
  note: str,
  amount: num,
  status: num,
  payments: z.array(z.string()).nullish(),
  tag_ids: ids,
  inserted_at: str,
  time_incurred: str,
});

export const PosPaymentHistory = z.looseObject({
  id,
  amount: num,
  date: z.union([z.string(), z.number()]).nullish(),
  order: record.nullish(),
  type: str,
  result_code: str,
  trans_id: str,
});

export const PosDebt = z.looseObject({
  id,
  display_id: id.nullish(),
  name_debt: str,
  type: num,
  status: num,
  money_must_pay_or_collect: num,
  money_payed_or_collected: num,
  shop_customer_id: id.nullish(),
  order_id: id.nullish(),
  expired_at: str,
  inserted_at: str,
});

export const PosSaleRow = z.looseObject({
  returned: record.nullish(),
  success: record.nullish(),
});

export const PosFormula = z.looseObject({ id, name: str, formula: str, unit: str });
export const PosAnalyticField = z.looseObject({ id, name: str });

export const PosPurchase = z.looseObject({
  id,
  display_id: id.nullish(),
  status: num,
  warehouse_id: id.nullish(),
  supplier: record.nullish(),
  items: list,
  total_price: num,
  total_quantity: num,
  inserted_at: str,
});

export const PosInventoryHistory = z.looseObject({
  id,
  quantity: num,
  remain_quantity: num,
  type: str,
  table_name: str,
  ref_display_id: id.nullish(),
  inserted_at: str,
});

export const PosStockExport = z.looseObject({ id, display_id: id.nullish(), status: num, warehouse_id: id.nullish() });
export const PosTransfer = z.looseObject({
  id,
  display_id: id.nullish(),
  status: num,
  from_warehouse_id: id.nullish(),
  to_warehouse_id: id.nullish(),
});
export const PosStocktaking = z.looseObject({
  id,
  display_id: id.nullish(),
  warehouse_id: id.nullish(),
  status: num,
  items: list,
});

export const PosPromotion = z.looseObject({
  id,
  display_id: id.nullish(),
  name: str,
  type: str,
  is_activated: bool,
  start_time: z.union([z.string(), z.number()]).nullish(),
  end_time: z.union([z.string(), z.number()]).nullish(),
});

export const PosCombo = z.looseObject({
  id,
  name: str,
  discount_amount: num,
  discount_by_percent: num,
  variations: list,
});

export const PosUser = z.looseObject({
  user_id: id.nullish(),
  user: z.looseObject({ id: id.nullish(), name: str, email: str }).nullish(),
  department: record.nullish(),
});

export const PosOrderSource = z.looseObject({ id, name: str, parent_id: id.nullish() });
export const PosPartner = z.looseObject({ id, name: str });
/** A write whose answer the document does not show: whatever record came back. */
export const PosOrderTag = z.looseObject({ id, name: str, color: str });
export const PosCategory = z.looseObject({ id, text: str, nodes: list });

export const PosRecord = record;

export type PosShop = z.infer<typeof PosShop>;
export type PosProvince = z.infer<typeof PosProvince>;
export type PosDistrict = z.infer<typeof PosDistrict>;
export type PosCommune = z.infer<typeof PosCommune>;
export type PosOrderItem = z.infer<typeof PosOrderItem>;
export type PosOrder = z.infer<typeof PosOrder>;
export type PosReturnOrder = z.infer<typeof PosReturnOrder>;
export type PosWarehouse = z.infer<typeof PosWarehouse>;
export type PosVariation = z.infer<typeof PosVariation>;
export type PosProduct = z.infer<typeof PosProduct>;
export type PosCustomer = z.infer<typeof PosCustomer>;
export type PosPointLog = z.infer<typeof PosPointLog>;
export type PosCustomerNote = z.infer<typeof PosCustomerNote>;
export type PosCustomerLevel = z.infer<typeof PosCustomerLevel>;
export type PosTransaction = z.infer<typeof PosTransaction>;
export type PosPaymentHistory = z.infer<typeof PosPaymentHistory>;
export type PosDebt = z.infer<typeof PosDebt>;
export type PosSaleRow = z.infer<typeof PosSaleRow>;
export type PosFormula = z.infer<typeof PosFormula>;
export type PosAnalyticField = z.infer<typeof PosAnalyticField>;
export type PosPurchase = z.infer<typeof PosPurchase>;
export type PosInventoryHistory = z.infer<typeof PosInventoryHistory>;
export type PosStockExport = z.infer<typeof PosStockExport>;
export type PosTransfer = z.infer<typeof PosTransfer>;
export type PosStocktaking = z.infer<typeof PosStocktaking>;
export type PosPromotion = z.infer<typeof PosPromotion>;
export type PosCombo = z.infer<typeof PosCombo>;
export type PosUser = z.infer<typeof PosUser>;
export type PosOrderSource = z.infer<typeof PosOrderSource>;
export type PosOrderTag = z.infer<typeof PosOrderTag>;
export type PosCategory = z.infer<typeof PosCategory>;
export type PosPartner = z.infer<typeof PosPartner>;
export type PosRecord = z.infer<typeof PosRecord>;
