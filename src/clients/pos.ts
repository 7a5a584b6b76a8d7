import type { z } from "zod";
import { ConfigError, InputError, OutcomeUnknownError } from "./errors.js";
import { type HttpCore, listIn, pathOf, type QueryValue, type RequestOptions } from "./http.js";
import { registerSecret } from "../text/redact.js";
import { MemoryScope } from "../state/memory.js";
import type { StateScope } from "../state/scope.js";
import * as S from "./schemas/pos.js";

export interface PosClientOptions {
  core: HttpCore;
  /** shop_id -> api key. A single key works for any shop. */
  apiKeys: Record<string, string>;
  defaultKey?: string;
  /** The tenant's caches and limiter; default: this client's own memory. */
  state?: StateScope;
}

type Id = string | number;
type Body = Record<string, unknown>;

/** A page of a POS list. Totals are undefined when the upstream does not report them. */
export interface Paged<T> {
  data: T[];
  page_number: number;
  page_size: number;
  total_entries: number | undefined;
  total_pages: number | undefined;
}

/** Lists paged with `page_number` (orders, customers, point logs, variations). */
export interface PageNumberParams {
  page_number?: number;
  page_size?: number;
}
/** Lists paged with `page` (everything else). */
export interface PageParams {
  page?: number;
  page_size?: number;
}

export type OrderSort = `${
  | "inserted_at"
  | "last_updated_order"
  | "last_update_status_at"
  | "order_valuation"
  | "product_quantity"
  | "product_name"
  | "sub_status_sort"
  | "first_undeliverable_at"
  | "customer_sort"
  | "estimate_delivery_date"
  | "order_source"}_${"asc" | "desc"}`;

export interface OrderListParams extends PageNumberParams {
  search?: string;
  /** Sent as repeated `filter_status[]`. */
  filter_status?: readonly number[];
  include_removed?: 0 | 1;
  /** The time field startDateTime/endDateTime apply to: a field name, -1 or an order status code. */
  updateStatus?: string | number;
  startDateTime?: number;
  endDateTime?: number;
  option_sort?: OrderSort;
  /** Sent as repeated `fields[]`. */
  fields?: readonly string[];
  /** Carrier ids, sent as repeated `partner_id[]`. */
  partner_id?: readonly number[];
  shop_partner_account?: number;
  customer_id?: string;
  /** [source id, account id?] pairs; each is sent as one JSON `order_sources[]` value. */
  order_sources?: readonly (readonly string[])[];
  is_filter_exclude_source?: boolean;
  /** Sent as repeated `ad_ids[]`. */
  ad_ids?: readonly string[];
}

export interface ReturnOrderListParams extends PageParams {
  status?: number;
  update_status?: string | number;
  start_time?: number;
  end_time?: number;
}

export interface ProvinceParams {
  country_code?: string | number;
  is_new?: boolean;
  all?: boolean;
}

export interface VariationListParams extends PageNumberParams {
  search?: string;
  selling_status?: string;
  product_status?: string;
  /** Sent as repeated `category_id[]`. */
  category_id?: readonly number[];
  /** Sent as repeated `variation_ids[]`. */
  variation_ids?: readonly string[];
  startDate?: number;
  endDate?: number;
}

export interface CustomerListParams extends PageNumberParams {
  search?: string;
  start_time_inserted_at?: number;
  end_time_inserted_at?: number;
  start_time_updated_at?: number;
  end_time_updated_at?: number;
  /** Comma-separated customer ids. */
  customer_ids?: string;
  /** Level ids, sent as repeated `selectedLevel[]`. */
  selectedLevel?: readonly string[];
}

export interface PointLogParams extends PageNumberParams {
  shop_customer_id: string;
}

export interface StatusPageParams extends PageParams {
  status?: number;
}

export interface TransactionListParams extends StatusPageParams {
  startDateTime?: number;
  endDateTime?: number;
}

export interface PaymentHistoryParams extends PageParams {
  startDate?: number;
  endDate?: number;
}

export interface DebtListParams extends StatusPageParams {
  shop_customer_id?: string;
}

export interface SaleAnalyticsParams {
  /** `YYYY-MM-DD HH:MM:SS` in shop time. */
  since?: string;
  until?: string;
  /** Sent as repeated `split_by[]`. */
  split_by?: readonly string[];
  /** Sent as JSON, e.g. {"Variation.id": ["..."]}. */
  filter?: Record<string, readonly Id[]>;
  success_status?: string;
  success_record?: string;
  user_type?: string;
  returned_status?: string | number;
  returned_record?: string;
  /** Sent as repeated `select_fields[]`. */
  select_fields?: readonly string[];
}

export interface PurchaseListParams extends StatusPageParams {
  type?: string;
  get_time_import?: boolean;
}

export interface InventoryHistoryParams extends PageParams {
  warehouse_id?: string;
  /** Sent as repeated `variation_ids[]`. */
  variation_ids?: readonly string[];
  startDate?: number;
  endDate?: number;
}

export interface StockExportListParams extends StatusPageParams {
  type?: number;
}

export interface TransferListParams extends StatusPageParams {
  startDate?: number;
  endDate?: number;
}

export interface PromotionListParams extends PageParams {
  textSearch?: string;
}

/** Keys whose values are sent as repeated `key[]` parameters. */
const ARRAY_KEYS = new Set([
  "filter_status",
  "fields",
  "partner_id",
  "ad_ids",
  "category_id",
  "variation_ids",
  "selectedLevel",
  "split_by",
  "select_fields",
]);

function toQuery(params: object): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (key === "order_sources") query["order_sources[]"] = (value as string[][]).map((pair) => JSON.stringify(pair));
    else if (ARRAY_KEYS.has(key)) query[`${key}[]`] = value as QueryValue;
    else query[key] = value as QueryValue;
  }
  return query;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses leniently; a record the schema still rejects is returned as received, never dropped. */
function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  return result.success ? result.data : (value as z.infer<T>);
}

function parseList<T extends z.ZodType>(schema: T, value: unknown): z.infer<T>[] {
  return Array.isArray(value) ? value.map((item) => parse(schema, item)) : [];
}

/** The one record of a write or detail answer: `{data: {...}}`, `{<key>: {...}}` or the bare record. */
function unwrap(json: unknown, key?: string): unknown {
  if (!isRecord(json)) return json;
  if (key && isRecord(json[key])) return json[key];
  if (isRecord(json.data)) return json.data;
  const { success: _success, ...rest } = json;
  return rest;
}

/** Shop ids are integers (the OpenAPI's SHOP_ID); anything else would only reach a 404. */
function checkShop(shopId: Id | undefined): Id | undefined {
  if (shopId !== undefined && !/^\d+$/.test(String(shopId))) {
    throw new InputError("shop_id", `${JSON.stringify(String(shopId).slice(0, 40))} is not a shop id (shop ids are numbers)`, "Use list_shops to see the shop ids.");
  }
  return shopId;
}

function optionalNumber(value: unknown): number | undefined {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

/** One method per endpoint of the POS API. Params and bodies use the upstream names. */
export class PosClient {
  private readonly core: HttpCore;
  private readonly apiKeys: Record<string, string>;
  private readonly defaultKey: string | undefined;
  readonly state: StateScope;

  constructor(options: PosClientOptions) {
    this.core = options.core;
    this.state = options.state ?? new MemoryScope();
    this.apiKeys = { ...options.apiKeys };
    this.defaultKey = options.defaultKey;
    for (const key of [...Object.values(this.apiKeys), this.defaultKey]) registerSecret(key);
  }

  /** Whether a key was given for the shop, or one key for every shop. */
  servesShop(shopId: string): boolean {
    return this.apiKeys[shopId] !== undefined || this.defaultKey !== undefined;
  }

  private keyFor(shopId?: Id): string {
    const keys = Object.values(this.apiKeys);
    const key =
      (shopId === undefined ? undefined : this.apiKeys[String(shopId)]) ??
      this.defaultKey ??
      (keys.length === 1 || shopId === undefined ? keys[0] : undefined);
    if (!key) {
      const which = shopId === undefined ? "" : ` for shop ${shopId}`;
      throw new ConfigError(
        `No POS api key${which}: set PANCAKE_POS_API_KEY (one key, or shop_id=key,... for several shops).`,
      );
    }
    return key;
  }

  private call(
    op: string,
    path: string,
    shopId: Id | undefined,
    options: { query?: object; method?: "POST" | "PUT"; body?: unknown; expect?: RequestOptions["expect"] } = {},
  ): Promise<unknown> {
    const shop = checkShop(shopId);
    return this.core.request({
      op,
      method: options.method ?? "GET",
      path,
      query: options.query ? toQuery(options.query) : undefined,
      auth: { api_key: this.keyFor(shop) },
      // Held per shop when PANCAKE_POS_RATE_PER_SECOND sets a limit (the POS documents none).
      rateKey: shop === undefined ? undefined : String(shop),
      body: options.body,
      expect: options.expect,
    });
  }

  private async page<T extends z.ZodType>(
    schema: T,
    op: string,
    path: string,
    shopId: Id,
    params: PageParams & PageNumberParams,
  ): Promise<Paged<z.infer<T>>> {
    const json = await this.call(op, path, shopId, { query: params, expect: listIn("data") });
    return toPaged(schema, json, params);
  }

  private async array<T extends z.ZodType>(schema: T, op: string, path: string, shopId?: Id, query?: object) {
    const json = await this.call(op, path, shopId, { query, expect: listIn("data") });
    return parseList(schema, isRecord(json) ? json.data : undefined);
  }

  private async write<T extends z.ZodType>(
    schema: T,
    op: string,
    method: "POST" | "PUT",
    path: string,
    shopId: Id,
    body: unknown,
  ): Promise<z.infer<T>> {
    return parse(schema, unwrap(await this.call(op, path, shopId, { method, body })));
  }

  // Shops and addresses

  /** With several shop keys and no default key, each key sees its own shops: ask each, merge. */
  async listShops(): Promise<S.PosShop[]> {
    const owners = Object.keys(this.apiKeys);
    const asked = this.defaultKey === undefined && owners.length > 1 ? owners : [undefined];
    const lists = await Promise.all(
      asked.map(async (owner) => {
        const json = await this.call("list shops", "/shops", owner);
        return parseList(S.PosShop, isRecord(json) ? json.shops : undefined);
      }),
    );
    const merged = new Map<string, S.PosShop>();
    for (const shop of lists.flat()) if (!merged.has(String(shop.id))) merged.set(String(shop.id), shop);
    return [...merged.values()];
  }

  listProvinces(params: ProvinceParams = {}): Promise<S.PosProvince[]> {
    const query = { ...params, country_code: params.country_code ?? "84" };
    return this.array(S.PosProvince, "list provinces", "/geo/provinces", undefined, query);
  }

  listDistricts(params: { province_id: string }): Promise<S.PosDistrict[]> {
    return this.array(S.PosDistrict, "list districts", "/geo/districts", undefined, params);
  }

  /** With a post-2025 province id and no district_id: its two-tier wards (reported, see GeoIndex.wards). */
  listCommunes(params: { province_id: string; district_id?: string }): Promise<S.PosCommune[]> {
    return this.array(S.PosCommune, "list communes", "/geo/communes", undefined, params);
  }

  // Orders

  listOrders(shopId: Id, params: OrderListParams = {}) {
    return this.page(S.PosOrder, "search orders", pathOf`/shops/${shopId}/orders`, shopId, params);
  }

  async getOrder(shopId: Id, orderId: Id): Promise<S.PosOrder> {
    const json = await this.call("get order", pathOf`/shops/${shopId}/orders/${orderId}`, shopId);
    return parse(S.PosOrder, unwrap(json));
  }

  async createOrder(shopId: Id, order: Body): Promise<S.PosOrder> {
    const created = await this.write(S.PosOrder, "create order", "POST", pathOf`/shops/${shopId}/orders`, shopId, order);
    // A created order has an id; an answer without one confirms nothing (the order may exist).
    if (created?.id === undefined || created.id === null || created.id === "") throw new OutcomeUnknownError("create order", "the answer carried no order id");
    return created;
  }

  updateOrder(shopId: Id, orderId: Id, changes: Body): Promise<S.PosOrder> {
    const path = pathOf`/shops/${shopId}/orders/${orderId}`;
    return this.write(S.PosOrder, "update order", "PUT", path, shopId, changes);
  }

  listReturnOrders(shopId: Id, params: ReturnOrderListParams = {}) {
    return this.page(S.PosReturnOrder, "list return orders", pathOf`/shops/${shopId}/orders_returned`, shopId, params);
  }

  createReturnOrder(shopId: Id, body: Body): Promise<S.PosReturnOrder> {
    const path = pathOf`/shops/${shopId}/orders_returned`;
    return this.write(S.PosReturnOrder, "create return order", "POST", path, shopId, body);
  }

  listOrderSources(shopId: Id): Promise<S.PosOrderSource[]> {
    return this.array(S.PosOrderSource, "list order sources", pathOf`/shops/${shopId}/order_source`, shopId);
  }

  listPartners(shopId: Id): Promise<S.PosPartner[]> {
    return this.array(S.PosPartner, "list carriers", pathOf`/shops/${shopId}/partners`, shopId);
  }

  listOrderTags(shopId: Id): Promise<S.PosOrderTag[]> {
    return this.array(S.PosOrderTag, "list order tags", pathOf`/shops/${shopId}/orders/tags`, shopId);
  }

  listUsers(shopId: Id): Promise<S.PosUser[]> {
    return this.array(S.PosUser, "list staff", pathOf`/shops/${shopId}/users`, shopId);
  }

  // Warehouses

  listWarehouses(shopId: Id): Promise<S.PosWarehouse[]> {
    return this.array(S.PosWarehouse, "list warehouses", pathOf`/shops/${shopId}/warehouses`, shopId);
  }

  createWarehouse(shopId: Id, warehouse: Body): Promise<S.PosWarehouse> {
    const path = pathOf`/shops/${shopId}/warehouses`;
    return this.write(S.PosWarehouse, "create warehouse", "POST", path, shopId, warehouse);
  }

  updateWarehouse(shopId: Id, warehouseId: string, warehouse: Body): Promise<S.PosWarehouse> {
    const path = pathOf`/shops/${shopId}/warehouses/${warehouseId}`;
    return this.write(S.PosWarehouse, "update warehouse", "PUT", path, shopId, warehouse);
  }

  // Products

  listVariations(shopId: Id, params: VariationListParams = {}) {
    return this.page(S.PosVariation, "search products", pathOf`/shops/${shopId}/products/variations`, shopId, params);
  }

  /** The variations with these ids, asked for 100 at a time (the largest page the list serves). */
  async variationsByIds(shopId: Id, ids: readonly string[]): Promise<S.PosVariation[]> {
    const wanted = [...new Set(ids)];
    const chunks = Array.from({ length: Math.ceil(wanted.length / 100) }, (_, i) => wanted.slice(i * 100, i * 100 + 100));
    const pages = await Promise.all(chunks.map((chunk) => this.listVariations(shopId, { variation_ids: chunk, page_size: chunk.length })));
    return pages.flatMap((page) => page.data);
  }

  async getProduct(shopId: Id, idOrSku: string): Promise<S.PosProduct> {
    const json = await this.call("get product", pathOf`/shops/${shopId}/products/${idOrSku}`, shopId);
    return parse(S.PosProduct, unwrap(json, "product"));
  }

  /** Categories as a tree: each top category's `nodes` hold its children. */
  listCategories(shopId: Id): Promise<S.PosCategory[]> {
    return this.array(S.PosCategory, "list categories", pathOf`/shops/${shopId}/categories`, shopId);
  }

  /** Body `{product: {name, weight, category_ids, variations: [...]}}`. */
  createProduct(shopId: Id, body: Body): Promise<S.PosProduct> {
    return this.write(S.PosProduct, "create product", "POST", pathOf`/shops/${shopId}/products`, shopId, body);
  }

  /** Body `{product: {...}}`: name and weight are required, variations with an id are updated. */
  updateProduct(shopId: Id, productId: string, body: Body): Promise<S.PosProduct> {
    const path = pathOf`/shops/${shopId}/products/${productId}`;
    return this.write(S.PosProduct, "update product", "PUT", path, shopId, body);
  }

  /**
   * Any documented operation (the `api` toolset): the path already filled from the index's
   * template, query and body already checked against it. The api key is the shop's.
   */
  callOperation(op: string, method: "GET" | "POST" | "PUT" | "DELETE", path: string, shopId: Id | undefined, query: Record<string, QueryValue>, body?: unknown) {
    const shop = checkShop(shopId);
    return this.core.request({ op, method, path, query, auth: { api_key: this.keyFor(shop) }, body, rateKey: shop === undefined ? undefined : String(shop) });
  }

  // Customers

  listCustomers(shopId: Id, params: CustomerListParams = {}) {
    return this.page(S.PosCustomer, "search customers", pathOf`/shops/${shopId}/customers`, shopId, params);
  }

  async getCustomer(shopId: Id, customerId: string): Promise<S.PosCustomer> {
    const json = await this.call("get customer", pathOf`/shops/${shopId}/customers/${customerId}`, shopId);
    return parse(S.PosCustomer, unwrap(json, "customer"));
  }

  /**
   * Both forms in one body: the OpenAPI's create (name, phoneNumber, dateOfBirth and addresses as
   * full_address text at the top level) and the seed's `{customer: {...}}`, which also carries
   * what the OpenAPI's create lacks (emails, tags, level, structured addresses).
   */
  createCustomer(shopId: Id, customer: Body): Promise<S.PosCustomer> {
    const path = pathOf`/shops/${shopId}/customers`;
    const phones = customer.phone_numbers;
    const addresses = customer.shop_customer_address;
    const body = {
      customer,
      name: customer.name,
      phoneNumber: Array.isArray(phones) ? phones[0] : undefined,
      dateOfBirth: customer.date_of_birth,
      shop_customer_address: Array.isArray(addresses)
        ? addresses.map(({ full_address, full_name, phone_number }: Body) => ({ full_address, full_name, phone_number }))
        : undefined,
    };
    return this.write(S.PosCustomer, "create customer", "POST", path, shopId, body);
  }

  /** `shop_customer_address` items with an `id` update that address; items without one add one. */
  updateCustomer(shopId: Id, customerId: string, customer: Body): Promise<S.PosCustomer> {
    const path = pathOf`/shops/${shopId}/customers/${customerId}`;
    return this.write(S.PosCustomer, "update customer", "PUT", path, shopId, { customer });
  }

  listCustomerPointLogs(shopId: Id, params: PointLogParams) {
    const path = pathOf`/shops/${shopId}/customers/point_logs`;
    return this.page(S.PosPointLog, "list customer point logs", path, shopId, params);
  }

  /** The notes of every `customer_notes[].notes` group, in upstream order. */
  async listCustomerNotes(shopId: Id, customerId: string): Promise<S.PosCustomerNote[]> {
    const path = pathOf`/shops/${shopId}/customers/${customerId}/load_customer_notes`;
    const json = await this.call("list customer notes", path, shopId);
    const groups = isRecord(json) && Array.isArray(json.customer_notes) ? json.customer_notes : [];
    return groups.flatMap((group) => parseList(S.PosCustomerNote, isRecord(group) ? group.notes : undefined));
  }

  createCustomerNote(shopId: Id, customerId: string, note: Body): Promise<S.PosCustomerNote> {
    const path = pathOf`/shops/${shopId}/customers/${customerId}/create_note`;
    return this.write(S.PosCustomerNote, "add customer note", "POST", path, shopId, note);
  }

  listCustomerLevels(shopId: Id, params: { search?: string } = {}): Promise<S.PosCustomerLevel[]> {
    const path = pathOf`/shops/${shopId}/customer_levels`;
    return this.array(S.PosCustomerLevel, "list customer levels", path, shopId, params);
  }

  /** Body `{promotion_advance: {promotion: {...}, shop_customer_ids: [...]}}`. */
  createCustomerPromotions(shopId: Id, body: Body): Promise<S.PosRecord> {
    const path = pathOf`/shops/${shopId}/promotion_advance/create_multi`;
    return this.write(S.PosRecord, "create customer promotions", "POST", path, shopId, body);
  }

  // Finance

  listTransactions(shopId: Id, params: TransactionListParams = {}) {
    return this.page(S.PosTransaction, "list transactions", pathOf`/shops/${shopId}/transactions`, shopId, params);
  }

  createTransaction(shopId: Id, transaction: Body): Promise<S.PosTransaction> {
    const path = pathOf`/shops/${shopId}/transactions`;
    return this.write(S.PosTransaction, "create transaction", "POST", path, shopId, { transaction });
  }

  /** Body `{params: {cost_date, transaction, items}}`. */
  createAdvCost(shopId: Id, body: Body): Promise<S.PosRecord> {
    return this.write(S.PosRecord, "record ad cost", "POST", pathOf`/shops/${shopId}/adv_costs`, shopId, body);
  }

  listPaymentHistories(shopId: Id, params: PaymentHistoryParams = {}) {
    const path = pathOf`/shops/${shopId}/payment_accounts/get_payment_histories`;
    return this.page(S.PosPaymentHistory, "list payment histories", path, shopId, params);
  }

  async listDebts(shopId: Id, params: DebtListParams = {}): Promise<Paged<S.PosDebt> & { sum: unknown }> {
    const json = await this.call("list debts", pathOf`/shops/${shopId}/debt`, shopId, { query: params });
    return { ...toPaged(S.PosDebt, json, params), sum: isRecord(json) ? json.sum : undefined };
  }

  // Analytics

  getSaleAnalytics(shopId: Id, params: SaleAnalyticsParams = {}): Promise<S.PosSaleRow[]> {
    const path = pathOf`/shops/${shopId}/analytics/sale`;
    return this.array(S.PosSaleRow, "get sales analytics", path, shopId, params);
  }

  listAnalyticsFormulas(shopId: Id): Promise<S.PosFormula[]> {
    const path = pathOf`/shops/${shopId}/analytics/get_list_formula`;
    return this.array(S.PosFormula, "list sales formulas", path, shopId);
  }

  listAnalyticsFields(shopId: Id): Promise<S.PosAnalyticField[]> {
    const path = pathOf`/shops/${shopId}/analytics/get_analytic_fields`;
    return this.array(S.PosAnalyticField, "list sales fields", path, shopId);
  }

  // Inventory

  listPurchases(shopId: Id, params: PurchaseListParams = {}) {
    return this.page(S.PosPurchase, "list purchases", pathOf`/shops/${shopId}/purchases`, shopId, params);
  }

  /** Body `{newPurchase, oldPurchase}`. */
  splitPurchase(shopId: Id, body: Body): Promise<S.PosRecord> {
    const path = pathOf`/shops/${shopId}/purchases/separate`;
    return this.write(S.PosRecord, "split purchase", "POST", path, shopId, body);
  }

  listInventoryHistories(shopId: Id, params: InventoryHistoryParams = {}) {
    const path = pathOf`/shops/${shopId}/inventory_histories`;
    return this.page(S.PosInventoryHistory, "list inventory history", path, shopId, params);
  }

  listStockExports(shopId: Id, params: StockExportListParams = {}) {
    return this.page(S.PosStockExport, "list stock exports", pathOf`/shops/${shopId}/export`, shopId, params);
  }

  /** Body `{export_list: {...}}`. */
  createStockExport(shopId: Id, body: Body): Promise<S.PosStockExport> {
    const path = pathOf`/shops/${shopId}/export`;
    return this.write(S.PosStockExport, "create stock export", "POST", path, shopId, body);
  }

  listTransfers(shopId: Id, params: TransferListParams = {}) {
    return this.page(S.PosTransfer, "list stock transfers", pathOf`/shops/${shopId}/transfers`, shopId, params);
  }

  /** Body `{transfer: {from_warehouse_id, to_warehouse_ids, items, ...}}`: one transfer per target. */
  async createTransfers(shopId: Id, body: Body): Promise<S.PosTransfer[]> {
    const path = pathOf`/shops/${shopId}/transfers/multi`;
    const json = await this.call("create stock transfer", path, shopId, { method: "POST", body });
    const data = isRecord(json) ? json.data : undefined;
    return Array.isArray(data) ? parseList(S.PosTransfer, data) : [parse(S.PosTransfer, unwrap(json))];
  }

  updateTransfer(shopId: Id, transferId: string, body: Body): Promise<S.PosTransfer> {
    const path = pathOf`/shops/${shopId}/transfers/${transferId}`;
    return this.write(S.PosTransfer, "update stock transfer", "PUT", path, shopId, body);
  }

  listStocktakings(shopId: Id, params: StatusPageParams = {}) {
    return this.page(S.PosStocktaking, "list stocktakings", pathOf`/shops/${shopId}/stocktakings`, shopId, params);
  }

  async getStocktaking(shopId: Id, stocktakingId: string): Promise<S.PosStocktaking> {
    const json = await this.call("get stocktaking", pathOf`/shops/${shopId}/stocktakings/${stocktakingId}`, shopId);
    return parse(S.PosStocktaking, unwrap(json));
  }

  /** Body `{stocktaking: {...}}`. */
  createStocktaking(shopId: Id, body: Body): Promise<S.PosStocktaking> {
    const path = pathOf`/shops/${shopId}/stocktakings`;
    return this.write(S.PosStocktaking, "create stocktaking", "POST", path, shopId, body);
  }

  updateStocktaking(shopId: Id, stocktakingId: string, body: Body): Promise<S.PosStocktaking> {
    const path = pathOf`/shops/${shopId}/stocktakings/${stocktakingId}`;
    return this.write(S.PosStocktaking, "update stocktaking", "PUT", path, shopId, body);
  }

  // Promotions and combos

  listPromotions(shopId: Id, params: PromotionListParams = {}) {
    return this.page(S.PosPromotion, "list promotions", pathOf`/shops/${shopId}/promotion_advance`, shopId, params);
  }

  /** Body `{promotion_advance: {...}}`. */
  createPromotion(shopId: Id, body: Body): Promise<S.PosPromotion> {
    const path = pathOf`/shops/${shopId}/promotion_advance`;
    return this.write(S.PosPromotion, "create promotion", "POST", path, shopId, body);
  }

  updatePromotion(shopId: Id, promotionId: string, body: Body): Promise<S.PosPromotion> {
    const path = pathOf`/shops/${shopId}/promotion_advance/${promotionId}`;
    return this.write(S.PosPromotion, "update promotion", "PUT", path, shopId, body);
  }

  /** Body `{ids: [...], type_action?}`. */
  deletePromotions(shopId: Id, body: Body): Promise<S.PosRecord> {
    const path = pathOf`/shops/${shopId}/promotion_advance/delete_multi`;
    return this.write(S.PosRecord, "delete promotions", "POST", path, shopId, body);
  }

  listCombos(shopId: Id, params: PageParams = {}) {
    return this.page(S.PosCombo, "list combos", pathOf`/shops/${shopId}/combo_products`, shopId, params);
  }

  /** Body `{combo_product: {...}}`. */
  createCombo(shopId: Id, body: Body): Promise<S.PosCombo> {
    const path = pathOf`/shops/${shopId}/combo_products`;
    return this.write(S.PosCombo, "create combo", "POST", path, shopId, body);
  }
}

function toPaged<T extends z.ZodType>(
  schema: T,
  json: unknown,
  params: PageParams & PageNumberParams,
): Paged<z.infer<T>> {
  const body = isRecord(json) ? json : {};
  const data = parseList(schema, body.data);
  const pageSize = optionalNumber(body.page_size) ?? params.page_size ?? 30;
  const total = optionalNumber(body.total_entries);
  return {
    data,
    page_number: optionalNumber(body.page_number) ?? params.page_number ?? params.page ?? 1,
    page_size: pageSize,
    total_entries: total,
    total_pages: optionalNumber(body.total_pages) ?? (total === undefined ? undefined : Math.ceil(total / pageSize)),
  };
}
