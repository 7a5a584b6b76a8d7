// Records of the simulated POS, in the upstream's own shape: routes serve them as they are.
// Times are UTC ISO strings without a zone suffix, as the live service writes them.

export interface ProvinceRecord {
  id: string;
  name: string;
  name_en: string;
  new_id: string | null;
}

export interface NewProvinceRecord {
  id: string;
  name: string;
  name_en: string;
  is_new: true;
}

export interface DistrictRecord {
  id: string;
  name: string;
  name_en: string;
  province_id: string;
}

export interface CommuneRecord {
  id: string;
  name: string;
  name_en: string;
  new_id: string | null;
  district_id: string;
  province_id: string;
  postcode: string | null;
}

/** A post-2025 ward or commune: two tiers, so no district. */
export interface WardRecord {
  id: string;
  name: string;
  name_en: string;
  district_id: null;
  province_id: string;
  postcode: string | null;
}

export interface GeoData {
  provinces: ProvinceRecord[];
  newProvinces: NewProvinceRecord[];
  districts: DistrictRecord[];
  communes: CommuneRecord[];
  wards: WardRecord[];
}

export interface PageRecord {
  id: string;
  name: string;
  platform: string;
  settings: { auto_create_order: boolean };
  shop_id: number;
}

export interface ShopRecord {
  id: number;
  name: string;
  avatar_url: string;
  pages: PageRecord[];
  link_post_marketer: Record<string, unknown>[];
}

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  fb_id: string;
  phone_number: string | null;
  department: { id: number; name: string };
}

export interface PartnerRecord {
  id: number;
  name: string;
}

export interface OrderSourceRecord {
  id: number | string;
  name: string;
  parent_id?: number;
  shop_id: number;
  inserted_at: string;
  updated_at: string;
}

export interface ShippingAddress {
  address: string;
  commune_id: string;
  commune_name: string;
  /** null in a two-tier (post-2025) address. */
  district_id: string | null;
  district_name: string | null;
  province_id: string;
  province_name: string;
  country_code: string;
  post_code: string | null;
  full_address: string;
  full_name: string;
  phone_number: string;
  /** Written orders carry both forms, as the vendor's order examples show: `old` or `new`. */
  render_type?: "old" | "new";
  new_province_id?: string | null;
  new_full_address?: string;
}

export interface WarehouseRecord {
  id: string;
  name: string;
  custom_id: string | null;
  phone_number: string;
  address: string;
  full_address: string;
  country_code: string;
  province_id: string;
  district_id: string;
  commune_id: string;
  shop_id: number;
  allow_create_order: boolean;
  shelf_config: unknown;
  [extra: string]: unknown;
}

export interface StockRecord {
  warehouse_id: string;
  remain_quantity: number;
  actual_remain_quantity: number;
  total_quantity: number;
  pending_quantity: number;
  waitting_quantity: number;
  returning_quantity: number;
  selling_avg: number;
}

export interface FieldValue {
  id: string;
  keyValue: string;
  name: string;
  value: string;
}

export interface VariationRecord {
  id: string;
  product_id: string;
  display_id: string;
  barcode: string;
  fields: FieldValue[];
  images: string[];
  retail_price: number;
  price_at_counter?: number;
  last_imported_price: number;
  average_imported_price: number;
  weight: number;
  is_hidden: boolean;
  is_locked: boolean;
  remain_quantity: number;
  variations_warehouses: StockRecord[];
  inserted_at: string;
  product: { name: string; display_id: string; custom_id: string; category_ids: number[]; image: string };
}

export interface OrderTagRecord {
  id: number;
  name: string;
  color: string;
  is_system_tag: boolean;
  groups: { id: number; name: string }[];
}

/** A product category; `nodes` hold its sub-categories (the list is a tree). */
export interface CategoryRecord {
  id: number;
  text: string;
  parent_id: number | null;
  nodes: CategoryRecord[];
}

export interface ProductRecord {
  id: string;
  name: string;
  display_id: string;
  custom_id: string;
  category_ids: number[];
  image: string;
  weight: number;
  is_published: boolean;
  inserted_at: string;
  note?: string | null;
}

export interface OrderItem {
  id: number;
  product_id: string;
  variation_id: string;
  quantity: number;
  discount_each_product: number;
  is_bonus_product: boolean;
  is_discount_percent: boolean;
  is_wholesale: boolean;
  is_composite: boolean;
  one_time_product: boolean;
  note: string | null;
  returned_count: number;
  variation_info: {
    name: string;
    detail: string;
    display_id: string;
    product_display_id: string;
    barcode: string;
    retail_price: number;
    weight: number;
    fields: FieldValue[];
  };
}

export interface StatusChange {
  editor_id: string;
  editor: { id: string; name: string };
  name: string;
  old_status: number | null;
  status: number;
  updated_at: string;
}

export interface OrderPartner {
  partner_id: number;
  cod: number;
  extend_code: string;
  total_fee: number;
  is_returned: boolean;
  paid_at: string | null;
  picked_up_at: string | null;
  first_delivery_at: string | null;
  updated_at: string;
  system_created: boolean;
  delivery_name: string | null;
  delivery_tel: string | null;
  /** The carrier's status updates, oldest first. */
  extend_update?: { key: string; status: string; tracking_id: string; note: string; update_at: string }[];
}

export interface OrderRecord {
  id: number;
  system_id: number;
  tracking_link: string;
  display_id: number;
  shop_id: number;
  page_id: string | null;
  post_id: string | null;
  /** The inbox thread the order was made from (the OpenAPI's order field). */
  conversation_id: string | null;
  custom_id: string | null;
  bill_full_name: string;
  bill_phone_number: string;
  creator: { id: string; fb_id: string; name: string; avatar_url: string | null };
  inserted_at: string;
  updated_at: string;
  last_update_status_at: string;
  status: number;
  status_name: string;
  sub_status: number | null;
  status_history: StatusChange[];
  tags: { id: number; name: string }[];
  items: OrderItem[];
  shipping_address: ShippingAddress;
  shipping_fee: number;
  partner_fee: number;
  total_discount: number;
  total_price: number;
  total_price_after_sub_discount: number;
  money_to_collect: number;
  cod: number;
  cash: number;
  transfer_money: number;
  total_quantity: number;
  is_free_shipping: boolean;
  received_at_shop: boolean;
  note: string | null;
  note_print: string | null;
  returned_reason: number | null;
  warehouse_id: string;
  warehouse_info: Record<string, unknown>;
  partner: OrderPartner | null;
  partner_inserted_at: string | null;
  estimate_delivery_date: string | null;
  transfer_proof: string | null;
  order_sources: string;
  order_sources_name: string;
  account: string | null;
  account_name: string | null;
  ad_id: string | null;
  ads_source: string | null;
  assigning_seller_id: string | null;
  assigning_seller: { id: string; name: string } | null;
  assigning_care_id: string | null;
  marketer: { id: string; name: string } | null;
  time_assign_seller: string | null;
  time_assign_care: string | null;
  time_assign_marketer: string | null;
  customer: { id: string; customer_id: string; fb_id: string | null; name: string; page_id: string | null } | null;
  shop_customer_id: string | null;
  order_currency: string;
  is_removed: boolean;
  change_by_orders?: number[];
  [extra: string]: unknown;
}

export interface ReturnedItem {
  id: number;
  product_id: string;
  variation_id: string;
  returned_quantity: number;
  discount_each_product: number;
  variation_info: OrderItem["variation_info"];
}

export interface ReturnOrderRecord {
  id: number;
  display_id: number;
  status: number;
  shop_id: number;
  shop_customer_id: string | null;
  warehouse_id: string;
  creator_id: string;
  bill_full_name: string;
  bill_phone_number: string;
  custom_id: string | null;
  discount: number;
  discount_from_order_to_returned: number;
  returned_fee: number;
  inserted_at: string;
  updated_at: string;
  tags: unknown[];
  order: OrderRecord | null;
  order_id: number | null;
  order_id_to_returned: number;
  order_to_returned: OrderRecord;
  returned_items: ReturnedItem[];
  status_histories: { id: number; editor_id: string; inserted_at: string; old_status: number | null; status: number; updated_at: string }[];
}

export interface CustomerAddress {
  id: string;
  country_code: number;
  province_id: string;
  /** null in a two-tier (post-2025) address. */
  district_id: string | null;
  commune_id: string;
  address: string;
  full_address: string;
  full_name: string;
  phone_number: string;
}

export interface CustomerNote {
  id: string;
  message: string;
  images: { url: string }[];
  order_id: string | null;
  created_at: number;
  updated_at: number | null;
  created_by: { uid: string; fb_id: string; fb_name: string };
  edit_history: unknown[];
}

export interface CustomerRecord {
  id: string;
  customer_id: string;
  name: string;
  gender: string | null;
  emails: string[];
  phone_numbers: string[];
  date_of_birth: string | null;
  reward_point: number;
  is_discount_by_level: boolean;
  tags: string[];
  is_block: boolean;
  assigned_user_id: string | null;
  level_id: string | null;
  shop_customer_address: CustomerAddress[];
  order_count: number;
  succeed_order_count: number;
  purchased_amount: number;
  last_order_at: string | null;
  fb_id: string | null;
  pages_customers: { id: string; name: string; platform: string }[];
  conversation_link: string | null;
  inserted_at: string;
  updated_at: string;
  [extra: string]: unknown;
}

export interface PointLogRecord {
  shop_customer_id: string;
  amount: number;
  current_point: number;
  creator: { id: string; name: string; fb_id: string; avatar_url: null };
  inserted_at: string;
  note: string;
}

export interface CustomerLevelRecord {
  id: string;
  name: string;
  color_customer_level: string;
  discount: number;
  discount_type: number;
  upgrade_by_order_count: number;
  upgrade_by_point: number;
  upgrade_by_total_purchase: number;
  shop_id: number;
}

/** Back-office records (finance, inventory, promotions) are served as stored; `id` is their key. */
export type BackOfficeRecord = { id: string | number; inserted_at: string; [field: string]: unknown };

export interface FormulaRecord {
  id: string;
  name: string;
  formula: string;
  unit: string;
}
