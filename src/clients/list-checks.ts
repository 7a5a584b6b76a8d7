/**
 * What a reader of a paged list checks of each page, so that no read runs away (issue 43): a list
 * that serves rows outside the range asked ignored the range, and one that serves a page it served
 * before repeats itself; neither ends by paging on. The read stops there and says what the list
 * did, and an answer is built from what was read before it. A list whose pages end before its total
 * says is not an error: the walk ends at the first empty or short page, and the answer says so.
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

/** The end of `range` (Unix seconds, both inclusive: the lists compare whole seconds) a time falls outside of; undefined inside or without a time. */
export function outside(at: number | undefined, range: Range): "from" | "to" | undefined {
  if (at === undefined) return undefined;
  if (range.from !== undefined && at < range.from) return "from";
  if (range.to !== undefined && at > range.to) return "to";
  return undefined;
}

/** The words for a range ignored: "the order list ignored startDateTime: asked for orders updated from ..., it served one updated ...". */
export const rangeIgnored = (list: string, param: string, asked: string, served: string): ListMisbehaved =>
  new ListMisbehaved(`the ${list} ignored ${param}: asked for ${asked}, it served ${served}`);

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
