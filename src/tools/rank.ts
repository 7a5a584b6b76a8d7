import { z } from "zod";
import { InputError } from "../clients/errors.js";
import { num } from "../format/compact.js";

/**
 * Top-N answers ("what sold best", "busiest day", "who answered most"). The server sorts over
 * every upstream row before cutting, so the first rows are the true top, and says how many rows
 * it left out: a cut list never looks complete.
 */

export const sortByInput = z.string().max(80).optional();

export interface Ranked<R> {
  rows: R[];
  /** Rows before the cut. */
  total: number;
  /** Present only when rows were left out. */
  truncated?: true;
}

/**
 * Sorts by `sortBy` (largest first, or smallest with `ascending`), ties in their given order,
 * and keeps `limit`. `valid` lists what may be sorted on; anything else is an error naming them.
 */
export function rankRows<R extends Record<string, unknown>>(
  rows: readonly R[],
  options: {
    sortBy?: string | undefined;
    valid: readonly string[];
    limit?: number | undefined;
    ascending?: boolean;
    /** Rows whose figure means nothing (a response time of someone who answered nothing) go last. */
    unranked?: (row: R) => boolean;
  },
): Ranked<R> {
  const { sortBy, valid, limit, ascending, unranked } = options;
  let sorted = [...rows];
  if (sortBy !== undefined) {
    if (!valid.includes(sortBy)) {
      throw new InputError("sort_by", `${JSON.stringify(sortBy)} is not a figure of this result`, `Use one of: ${valid.join(", ")}.`);
    }
    const last = ascending ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const value = (r: R) => (unranked?.(r) ? last : (num(r[sortBy]) ?? last));
    sorted = sorted
      .map((row, i) => ({ row, i }))
      .sort((a, b) => (ascending ? value(a.row) - value(b.row) : value(b.row) - value(a.row)) || a.i - b.i)
      .map((x) => x.row);
  }
  if (limit === undefined || sorted.length <= limit) return { rows: sorted, total: rows.length };
  return { rows: sorted.slice(0, limit), total: rows.length, truncated: true };
}
