import type { StatusCode } from "../../clients/pos-codes.js";

// Status codes of the inventory lists, from the vendor's OpenAPI (the document leaves them out).

const rows = (list: [number, string][]): readonly StatusCode[] => list.map(([code, name]) => ({ code, name, meaning: name }));

export const PURCHASE_STATUSES = rows([
  [-2, "all"],
  [-1, "new"],
  [0, "confirmed"],
  [1, "imported"],
  [2, "canceled"],
]);

export const EXPORT_STATUSES = rows([
  [-1, "all"],
  [0, "new"],
  [1, "completed"],
  [2, "canceled"],
]);

export const EXPORT_TYPES = rows([
  [0, "normal"],
  [1, "defective"],
]);

export const TRANSFER_STATUSES = rows([
  [0, "waiting"],
  [1, "shipping"],
  [2, "completed"],
]);

export const STOCKTAKING_STATUSES = rows([
  [-2, "all"],
  [-1, "creating"],
  [0, "counting"],
  [1, "counted"],
  [2, "canceled"],
]);

/** A status to write: every code but the list-only "all". */
export const settable = (table: readonly StatusCode[]) => table.filter((r) => r.name !== "all");
