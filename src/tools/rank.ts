import { z } from "zod";
import { InputError } from "../clients/errors.js";
import { num } from "../format/compact.js";

/**
 * Top-N answers ("what sold best", "busiest day", "who answered most"). The server sorts over
 * every upstream row before cutting, so the first rows are the true top, and says how many rows
 * it left out: a cut list never looks complete.
 */

export const sortByInput = z.string().max(80).optional();

/** The other way of a sort: "which page had the fewest", "the slowest to answer". */
export const ascendingInput = z.boolean().optional().describe("Ascending");

/** `ascending` given where nothing sorts: said, rather than ignored. */
export function requireSorted(sorted: boolean): void {
  if (!sorted) throw new InputError("ascending", "orders what sort_by sorts, and none is given", "Pass sort_by with the figure to sort by.");
}

export interface Ranked<R> {
  rows: R[];
  /** Rows before the cut. */
  total: number;
  /** Present only when rows were left out. */
  truncated?: true;
  /** Rows left out that share the last kept row's figure (tiedPastCut). */
  tied?: number;
}

/**
 * How many rows past the first `limit` of a sorted list share the last kept row's figure: a top N
 * that cuts through a tie says so, or "the top 5" would silently drop an equal sixth.
 */
export function tiedPastCut<R>(sorted: readonly R[], limit: number, figure: (row: R) => number | undefined): number {
  const last = sorted[limit - 1];
  if (last === undefined || limit >= sorted.length) return 0;
  const value = figure(last);
  let tied = 0;
  while (limit + tied < sorted.length && figure(sorted[limit + tied]!) === value) tied++;
  return tied;
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
    /** With rows given already in order (no sortBy): the figure they are ordered by, for ties at the cut. */
    orderedBy?: (row: R) => number | undefined;
  },
): Ranked<R> {
  const { sortBy, valid, limit, ascending, unranked, orderedBy } = options;
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
  const figure = sortBy === undefined ? orderedBy : (r: R) => (unranked?.(r) ? undefined : num(r[sortBy]));
  const tied = figure ? tiedPastCut(sorted, limit, figure) : 0;
  return { rows: sorted.slice(0, limit), total: rows.length, truncated: true, ...(tied ? { tied } : {}) };
}
