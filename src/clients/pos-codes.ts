import { nearestName } from "../text/name-match.js";
import { InputError } from "./errors.js";

// Status code tables of the POS API. Each is the seed's table ("States" of spec/pos-api.md) with
// what the vendor's OpenAPI adds (its x-enum-descriptions): the seed's names stay, as tools and
// users already use them, and the OpenAPI's spelling is accepted too. Tools accept a name or a
// code and print both; resources publish these tables as they are. test/contract/ checks that
// every code the OpenAPI enumerates is here.

export interface StatusCode {
  code: number;
  name: string;
  meaning: string;
  /** Other names accepted for the code (the OpenAPI's or the other English spelling). */
  aliases?: readonly string[];
}

const table = (rows: [number, string, string, ...string[]][]): readonly StatusCode[] =>
  Object.freeze(
    rows.map(([code, name, meaning, ...aliases]) => Object.freeze({ code, name, meaning, ...(aliases.length ? { aliases } : {}) })),
  );

/** Order `status` and the `filter_status[]` values, in the order the workflow goes through them. */
export const ORDER_STATUSES = table([
  [0, "new", "new"],
  [17, "waiting_for_confirmation", "waiting for confirmation"],
  [11, "waiting_for_goods", "waiting for goods", "restocking"],
  [20, "ordered", "ordered", "purchased"],
  [1, "confirmed", "confirmed"],
  [12, "waiting_to_print", "waiting to print", "wait_for_printing"],
  [13, "printed", "printed"],
  [8, "packing", "packing", "packaging"],
  [9, "waiting_to_ship", "waiting to ship", "waiting_for_pick_up"],
  [2, "shipped", "shipped"],
  // "Delivered" is how sellers and models say it in English; the POS calls it received.
  [3, "received", "received", "delivered"],
  [16, "money_collected", "money collected", "collected_money"],
  [4, "returning", "returning"],
  [15, "partly_returned", "partly returned", "partial_return"],
  [5, "returned", "returned"],
  [6, "canceled", "canceled", "cancelled"],
  [7, "deleted", "deleted recently", "deleted_recently"],
]);

/**
 * The order statuses the list's `updateStatus` takes (the time the order entered that status):
 * the OpenAPI's enum lists every status but waiting_for_confirmation, canceled and deleted.
 */
/** The statuses before the parcel is received, in the workflow's order: an undelivered order's. */
export const BEFORE_DELIVERY: readonly number[] = ORDER_STATUSES.slice(0, ORDER_STATUSES.findIndex((row) => row.code === 3)).map((row) => row.code);

export const ORDER_TIME_STATUSES = ORDER_STATUSES.filter((row) => ![17, 6, 7].includes(row.code));

/** Return/exchange order `status` (list filter default -1: all). */
export const RETURN_ORDER_STATUSES = table([
  [0, "new", "new"],
  [2, "shipped", "shipped"],
  [1, "completed", "completed"],
  [4, "cancelled", "cancelled", "canceled"],
]);

export const TRANSACTION_STATUSES = table([
  [-1, "all", "all (filter only)"],
  [0, "new", "new"],
  [1, "in_effect", "in effect"],
  [2, "cancelled", "cancelled"],
  [3, "deleted", "deleted"],
]);

export const DEBT_STATUSES = table([
  [-1, "all", "all (filter only)"],
  [0, "open", "not yet settled or partly paid"],
  [1, "settled", "settled"],
  [2, "cancelled", "cancelled"],
]);

/** Analytics `returned_status`: which orders count as returned when revenue is deducted. */
export const ANALYTICS_RETURNED_STATUSES = table([
  [5, "returned", "returned"],
  [4, "returning", "returning"],
]);

export const POS_STATUS_TABLES = {
  orders: ORDER_STATUSES,
  return_orders: RETURN_ORDER_STATUSES,
  transactions: TRANSACTION_STATUSES,
  debts: DEBT_STATUSES,
  analytics_returned: ANALYTICS_RETURNED_STATUSES,
} as const;

export type PosStatusTable = keyof typeof POS_STATUS_TABLES;

/**
 * Payment channels: order amount fields and transaction `payments` values. The seed's neutral
 * names (charged_by_wallet_a, ...) stand for these brands; the service knows only the OpenAPI's.
 */
export const PAYMENT_TYPES = [
  "cash",
  "transfer_money",
  "charged_by_card",
  "charged_by_momo",
  "charged_by_vnpay",
  "charged_by_kredivo",
  "charged_by_fundiin",
  "charged_by_qrpay",
] as const;

/** The row for a code or a name (case-insensitive, spaces or underscores), or undefined. */
export function findStatus(rows: readonly StatusCode[], value: string | number): StatusCode | undefined {
  if (typeof value === "number" || /^-?\d+$/.test(value.trim())) {
    const code = Number(value);
    return rows.find((row) => row.code === code);
  }
  const name = value.trim().toLowerCase().replace(/[\s-]+/g, "_");
  return rows.find((row) => row.name === name) ?? rows.find((row) => row.aliases?.includes(name));
}

/** The name of a code in a table, or the code itself as text when the table does not know it. */
export function statusName(rows: readonly StatusCode[], code: unknown): string | undefined {
  if (typeof code !== "number") return undefined;
  return rows.find((row) => row.code === code)?.name ?? String(code);
}

/** The code for a caller's name or code; an unknown value is an InputError listing the valid names. */
export function requireStatus(field: string, rows: readonly StatusCode[], value: string | number): number {
  const row = findStatus(rows, value);
  if (row) return row.code;
  const valid = rows.map((r) => `${r.name} (${r.code})`).join(", ");
  const names = rows.flatMap((row) => [row.name, ...(row.aliases ?? [])].map((name) => ({ row, name })));
  const near = nearestName(names, String(value), (n) => n.name)?.row;
  throw new InputError(field, `unknown status ${JSON.stringify(String(value))}`, `${near ? `Did you mean ${near.name}? ` : ""}Use one of: ${valid}.`);
}
