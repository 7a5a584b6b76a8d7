import type {
  BackOfficeRecord,
  CategoryRecord,
  CustomerLevelRecord,
  CustomerNote,
  CustomerRecord,
  FormulaRecord,
  GeoData,
  OrderRecord,
  OrderSourceRecord,
  OrderTagRecord,
  PartnerRecord,
  PointLogRecord,
  ProductRecord,
  ReturnOrderRecord,
  ShopRecord,
  UserRecord,
  VariationRecord,
  WarehouseRecord,
} from "./types.js";

/** The whole simulated POS: the seed builds it, routes read and change it in place. */
export interface PosState {
  apiKey: string;
  /** "Today" of the data set; the sandbox clock for new records starts here. */
  now: Date;
  shop: ShopRecord;
  geo: GeoData;
  users: UserRecord[];
  partners: PartnerRecord[];
  orderSources: OrderSourceRecord[];
  warehouses: WarehouseRecord[];
  categories: CategoryRecord[];
  products: ProductRecord[];
  variations: VariationRecord[];
  orderTags: OrderTagRecord[];
  levels: CustomerLevelRecord[];
  customers: CustomerRecord[];
  /** Notes per shop customer id. */
  customerNotes: Record<string, CustomerNote[]>;
  pointLogs: PointLogRecord[];
  /** Newest first is not guaranteed; routes sort. */
  orders: OrderRecord[];
  returnOrders: ReturnOrderRecord[];
  transactions: BackOfficeRecord[];
  debts: BackOfficeRecord[];
  paymentHistories: BackOfficeRecord[];
  purchases: BackOfficeRecord[];
  inventoryHistories: BackOfficeRecord[];
  stockExports: BackOfficeRecord[];
  transfers: BackOfficeRecord[];
  stocktakings: BackOfficeRecord[];
  promotions: BackOfficeRecord[];
  combos: BackOfficeRecord[];
  formulas: FormulaRecord[];
  analyticFields: { id: string; name: string }[];
  /** Customer promotions written through create_multi and ad costs, kept for inspection. */
  customerPromotions: BackOfficeRecord[];
  adCosts: BackOfficeRecord[];
  /** The cash book's tags ("Thẻ thu chi"): an ad cost's tag names are kept as these, each name once. */
  transactionTags: { id: string; name: string; inserted_at: string }[];
  /** Last number handed out per kind of record (ids and display ids of new records). */
  sequences: Record<string, number>;
  /** Told of every change a write makes, after it is made (the shop's webhooks); none while seeding. */
  onChange?: (change: PosChange) => void;
  /** Changes made through the write paths so far (tell()): the lists' orderings are kept while it stays. */
  revision?: number;
}

/**
 * A change a write made, named as the shop's webhook types name what they send: the record as it
 * is now, or for stock the WebhookInventoryResponse record of one variation in one warehouse.
 */
export type PosChange =
  | { type: "orders"; order: OrderRecord }
  | { type: "customers"; customer: CustomerRecord }
  | { type: "variations_warehouses"; stock: StockChange };

export interface StockChange {
  variation_id: string;
  warehouse_id: string;
  remain_quantity: number;
  actual_remain_quantity: number;
  change_quantity: number;
  is_actual_remain_quantity: boolean;
  inserted_at: string;
  type: string;
}

/** Records a change a write made and tells onChange of it. */
export function tell(state: PosState, change: PosChange): void {
  state.revision = (state.revision ?? 0) + 1;
  state.onChange?.(change);
}

/** The next number of a sequence: ids of new records follow the seeded ones. */
export function nextNumber(state: PosState, kind: string): number {
  const next = (state.sequences[kind] ?? 0) + 1;
  state.sequences[kind] = next;
  return next;
}

/** A uuid for a record created through the API, deterministic per state. */
export function nextUuid(state: PosState): string {
  return `5a0d0000-0000-4000-a000-${nextNumber(state, "uuid").toString(16).padStart(12, "0")}`;
}

/** Time stamp of a write: the sandbox clock never goes backwards from the seed's "now". */
export function writeTime(state: PosState): number {
  return Math.max(Date.now(), state.now.getTime());
}
