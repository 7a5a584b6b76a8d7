import { changeStock } from "./order-model.js";
import type { PosState } from "./state.js";
import type { OrderItem, OrderRecord, ReturnedItem, ReturnOrderRecord, UserRecord } from "./types.js";

export interface ReturnDraft {
  id: number;
  original: OrderRecord;
  lines: { item: OrderItem; quantity: number }[];
  status: number;
  at: string;
  warehouseId: string;
  creator: UserRecord;
  exchange: OrderRecord | null;
  discount?: number;
  restock: boolean;
}

/**
 * A return/exchange order linked to its original. The original counts the returned units on
 * its items and lists the exchange order in `change_by_orders`; restocking puts units back.
 */
export function makeReturn(state: PosState, d: ReturnDraft): ReturnOrderRecord {
  const items: ReturnedItem[] = d.lines.map(({ item, quantity }, i) => {
    item.returned_count += quantity;
    if (d.restock) changeStock(state, item.variation_id, d.warehouseId, quantity, quantity, "return");
    return {
      id: d.id * 10 + i,
      product_id: item.product_id,
      variation_id: item.variation_id,
      returned_quantity: quantity,
      discount_each_product: item.discount_each_product,
      variation_info: item.variation_info,
    };
  });
  if (d.exchange) d.original.change_by_orders = [...(d.original.change_by_orders ?? []), d.exchange.id];
  return {
    id: d.id,
    display_id: d.id,
    status: d.status,
    shop_id: state.shop.id,
    shop_customer_id: d.original.shop_customer_id,
    warehouse_id: d.warehouseId,
    creator_id: d.creator.id,
    bill_full_name: d.original.bill_full_name,
    bill_phone_number: d.original.bill_phone_number,
    custom_id: null,
    discount: d.discount ?? 0,
    discount_from_order_to_returned: 0,
    returned_fee: 0,
    inserted_at: d.at,
    updated_at: d.at,
    tags: [],
    order: d.exchange,
    order_id: d.exchange?.id ?? null,
    order_id_to_returned: d.original.id,
    order_to_returned: d.original,
    returned_items: items,
    status_histories: [
      { id: d.id * 10, editor_id: d.creator.id, inserted_at: d.at, old_status: null, status: d.status, updated_at: d.at },
    ],
  };
}
