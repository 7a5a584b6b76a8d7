/** The order's own time fields the list filters on (`updateStatus`). */
export const ORDER_TIMES = [
  "inserted_at",
  "updated_at",
  "partner_inserted_at",
  "estimate_delivery_date",
  "transfer_proof",
  "time_assign_seller",
  "time_assign_care",
  "time_assign_marketer",
] as const;
/** The carrier's, on the order's `partner` record. */
export const PARTNER_TIMES = ["paid_at", "picked_up_at", "first_delivery_at"] as const;
