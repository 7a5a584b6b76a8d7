import type { PosSaleRow } from "../../clients/schemas/pos.js";
import { CANCELED_STATUSES } from "./sale-filter.js";

// What a sale is, as every tool counts it by default (design: "One meaning per word"): an order,
// dated by its creation, that is not canceled or deleted, whenever that happened. The POS's
// statistics count an order once it reaches success_status and keep counting it when canceled
// after: asked from status new (every order), split by status, they count the orders the order
// list holds, and the canceled and deleted rows are set apart here.

/** success_status values in the words a caller uses, and the statistics' own. */
export const SUCCESS_STATUS = { new: "0", confirmed: "1", send_to_partner: "send_to_partner" } as const;
export type SuccessStatus = keyof typeof SUCCESS_STATUS;

/** The statistics' parameters under which they count sales as search_orders and search_products do. */
export const SALE_BASIS = { success_status: SUCCESS_STATUS.new, success_record: "inserted_at" } as const;

export const STATUS_SPLIT = "Order.status";

/** A statistics row (split by status) of canceled or deleted orders. */
export const isCanceledRow = (row: PosSaleRow): boolean => CANCELED_STATUSES.includes(String(row[STATUS_SPLIT]));

/** The date a sale or a return is counted on, in the owner's words. */
export const DATED_BY: Record<string, string> = {
  inserted_at: "created",
  updated_at: "last status change",
  success_record: "sale date",
};
