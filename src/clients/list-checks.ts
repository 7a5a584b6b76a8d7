/**
 * What a reader of a paged list checks of each page, so that no read runs away (issue 43): a list
 * that serves rows outside the range asked ignored the range, and one that serves a page it served
 * before repeats itself; neither ends by paging on. The read stops there and says what the list
 * did, and an answer is built from what was read before it. A list whose pages end before its total
 * says ends the walk at the first empty or short page, and the answer says the total disagreed;
 * the shop index's order read, which checks what it read against the totals, stops there instead.
 */

/** The list did what its parameters rule out: the read stops, and its message says what the list did. */
export class ListMisbehaved extends Error {
  override name = "ListMisbehaved";
}

/** Unix seconds as a UTC time the way records show it, for a message. */
export const utc = (seconds: number): string => `${new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ")} UTC`;

export interface Range {
  from?: number | undefined;
  to?: number | undefined;
}

/** What a range check names: the list, its rows, the time it ranges on, and the range's two parameters. */
export interface RangeOf<T> {
  list: string;
  rows: string;
  time: string;
  params: [from: string, to: string];
  timeOf: (row: T) => number | undefined;
}

/**
 * A check of rows against a range of Unix seconds (both ends inclusive: the lists compare whole
 * seconds): for a row outside it, the error naming the parameter the list ignored ("the order list
 * ignored startDateTime: asked for orders updated from ..., it served one updated ..."); rows
 * without a time pass.
 */
export function rangeCheck<T>(of: RangeOf<T>, range: Range): (row: T) => ListMisbehaved | undefined {
  return (row) => {
    const at = of.timeOf(row);
    if (at === undefined) return undefined;
    const side = range.from !== undefined && at < range.from ? 0 : range.to !== undefined && at > range.to ? 1 : undefined;
    if (side === undefined) return undefined;
    const asked = side === 0 ? `from ${utc(range.from!)}` : `up to ${utc(range.to!)}`;
    return new ListMisbehaved(`the ${of.list} ignored ${of.params[side]}: asked for ${of.rows} ${of.time} ${asked}, it served one ${of.time} ${utc(at)}`);
  };
}

/** The words for pages that ended before the list's total: "the list's total said 1,418; its pages ended at 3". */
export const endedBefore = (total: number, page: number, list = "list"): string =>
  `the ${list}'s total said ${total.toLocaleString("en-US")}; ${page > 0 ? `its pages ended at ${page}` : "it served no rows"}`;

/** A page's rows by their ids in order (the whole row where it has none): two pages alike have the same key. */
export function pageKey(rows: readonly unknown[]): string {
  return rows.map((row) => (typeof row === "object" && row !== null && "id" in row ? String((row as { id: unknown }).id) : JSON.stringify(row))).join("\u0000");
}

/**
 * The pages of one walk seen so far, by their rows: `seen(page, rows)` answers the earlier page
 * the same non-empty rows came on, if any.
 */
export function pageMemory(): (page: number, rows: readonly unknown[]) => number | undefined {
  const pages = new Map<string, number>();
  return (page, rows) => {
    if (!rows.length) return undefined;
    const key = pageKey(rows);
    const earlier = pages.get(key);
    if (earlier !== undefined && earlier !== page) return earlier;
    pages.set(key, page);
    return undefined;
  };
}

/** The words for a page repeated: "the order list answered page 16 with page 1's orders again". */
export const repeated = (list: string, asked: string, earlier: string): ListMisbehaved => new ListMisbehaved(`the ${list} answered ${asked} with ${earlier} again`);
