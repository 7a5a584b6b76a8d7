import { z } from "zod";
import { endedBefore, pageMemory, repeated } from "../../clients/list-checks.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import type { ToolContext } from "../define.js";

/** The largest page a list tool asks for (its largest `limit`); a resumed cursor is held to it too. */
export const MAX_PAGE_SIZE = 100;

/** Where a walk through an upstream paged list stands: page, offset in it, page size. */
export const pageState = z.object({
  pg: z.number().int().min(1).max(100_000),
  off: z.number().int().min(0).max(MAX_PAGE_SIZE),
  ps: z.number().int().min(1).max(MAX_PAGE_SIZE),
});
export type PageState = z.infer<typeof pageState>;

export interface UpstreamPage<T> {
  data: T[];
  total_entries?: number | undefined;
}

/** Most matches a tool reads in full to sum them when its answer shows fewer (pages of MAX_PAGE_SIZE). */
export const SUM_MAX = 300;

/**
 * Every row of a list whose `total` the caller knows to be at most SUM_MAX, read in parallel
 * pages of MAX_PAGE_SIZE, each once (a row that moved between pages is kept once). The list ends
 * at its first short page whatever the total says: pages after it add nothing.
 */
export async function everyRow<T extends { id: string | number }>(total: number, fetch: (page: number, size: number) => Promise<UpstreamPage<T>>): Promise<T[]> {
  const pages = await Promise.all(Array.from({ length: Math.ceil(total / MAX_PAGE_SIZE) }, (_, i) => fetch(i + 1, MAX_PAGE_SIZE)));
  const end = pages.findIndex((p) => p.data.length < MAX_PAGE_SIZE);
  return [...new Map(pages.slice(0, end < 0 ? pages.length : end + 1).flatMap((p) => p.data).map((row) => [String(row.id), row])).values()];
}

export interface Walk<T> {
  rows: T[];
  /** Where the next rows start; undefined at the end of the list. */
  next?: PageState;
  /** The list's own count; left out when its pages ended before it, or it served a page again. */
  total?: number;
  /** What the list did that ended the walk before its total ("the list's total said 1,418; its pages ended at 3"). */
  note?: string;
}

export interface WalkOptions<T> {
  limit: number;
  fetch(page: number, size: number): Promise<UpstreamPage<T>>;
  /** Pages past this are not fetched: the walk stops there and `next` points at it. */
  maxPage?: number;
  skip?(row: T): boolean;
  progress?: ToolContext["progress"];
}

/**
 * Follows upstream pages from `state` until `limit` rows are collected or the list ends: at an
 * empty page, or one shorter than a page it served before, whatever its total says (issue 43), or
 * at a page it served before. Where that leaves the total unmet, the walk says so (`note`).
 */
export async function walkPages<T>(state: PageState, options: WalkOptions<T>): Promise<Walk<T>> {
  const { limit, fetch, maxPage, skip, progress } = options;
  const rows: T[] = [];
  let { pg, off } = state;
  const { ps } = state;
  let total: number | undefined;
  // The live service caps page sizes: with a total, the size it serves decides whether more follow.
  let served = 0;
  /**
   * Where the list's rows end, as far as read: the last page with rows, its rows, and the fullest
   * page before it in this walk; before any, the page before the walk's first, taken as full.
   */
  let end = { pg: pg - 1, rows: ps, fullest: ps };
  const seen = pageMemory();
  for (;;) {
    if (maxPage !== undefined && pg > maxPage) return { rows, next: { pg, off: 0, ps }, total };
    const page = await fetch(pg, ps);
    total = page.total_entries;
    const earlier = seen(pg, page.data);
    if (earlier !== undefined) return { rows, note: repeated("list", `page ${pg}`, `page ${earlier}'s rows`).message };
    let i = off;
    for (; i < page.data.length && rows.length < limit; i++) {
      const row = page.data[i]!;
      if (!skip?.(row)) rows.push(row);
    }
    if (i < page.data.length) return { rows, next: { pg, off: i, ps }, total };
    const short = page.data.length === 0 || page.data.length < served;
    if (page.data.length) end = { pg, rows: page.data.length, fullest: served };
    served = Math.max(served, page.data.length);
    const more = !short && (total === undefined ? page.data.length >= ps : pg * served < total);
    if (!more) {
      // The rows the list held, had every page before its last been as full as the fullest read before it (else as asked).
      const held = (end.pg - 1) * (end.fullest || ps) + end.rows;
      return total !== undefined && held < total ? { rows, note: endedBefore(total, end.pg) } : { rows, total };
    }
    pg += 1;
    off = 0;
    if (rows.length >= limit) return { rows, next: { pg, off, ps }, total };
    await progress?.(rows.length, limit, `page ${pg}`);
  }
}

/**
 * Where to resume for `limit` more rows: the cursor's page size, or `limit` itself when that
 * reaches the same rows in fewer upstream calls (a follow-up asking for more rows, or for fewer,
 * as `detail: "full"` does, than the first call). Equal calls keep the smaller size.
 */
export function resumeAt(state: PageState, limit: number): PageState {
  const index = rowIndex(state);
  const calls = (size: number) => Math.floor((index + limit - 1) / size) - Math.floor(index / size) + 1;
  if (limit === state.ps || calls(limit) > calls(state.ps) || (calls(limit) === calls(state.ps) && limit > state.ps)) return state;
  return inPagesOf(state, limit);
}

/** How many rows of the list come before the one `state` points at. */
export const rowIndex = (state: PageState): number => (state.pg - 1) * state.ps + state.off;

/** The row `state` points at, in pages of `size`. */
export function inPagesOf(state: PageState, size: number): PageState {
  const index = rowIndex(state);
  return { pg: Math.floor(index / size) + 1, off: index % size, ps: size };
}

/** A filter the upstream list has no parameter for, applied here to the rows it serves. */
export interface LocalFilter<Q, T> {
  /** Whether the query asks for the filter at all. */
  active(query: Q): boolean;
  keep(row: T, query: Q): boolean;
  /** Upstream pages one call may read before it answers with what it found and a cursor. */
  maxPages: number;
}

/** Rows per upstream page when a local filter reads the list: most rows served are dropped. */
const SCAN_PAGE_SIZE = 100;

/**
 * A list tool's page: the upstream query travels inside the cursor, so following pages repeat
 * exactly the first call's filters whatever else the caller sends along with the cursor. With a
 * local filter the upstream total counts rows the filter drops, so none is reported, and
 * `stopped` says the call reached its page budget before `limit` rows matched.
 */
export async function pagedList<Q extends Record<string, unknown>, T>(
  tool: string,
  input: { cursor?: string | undefined; limit: number },
  query: () => Q,
  fetch: (query: Q, page: number, size: number) => Promise<UpstreamPage<T>>,
  progress?: ToolContext["progress"],
  filter?: LocalFilter<Q, T>,
): Promise<{ rows: T[]; next_cursor?: string; total?: number; stopped?: true; note?: string; query: Q }> {
  const decoded = input.cursor ? decodeCursor(tool, input, pageState.extend({ q: z.record(z.string(), z.unknown()) })) : undefined;
  const q = (decoded?.q ?? query()) as Q;
  const local = filter?.active(q) ? filter : undefined;
  const start = decoded ?? { q, pg: 1, off: 0, ps: local ? SCAN_PAGE_SIZE : input.limit };
  const at = decoded && !local ? resumeAt(decoded, input.limit) : start;
  let read = 0;
  const walk = await walkPages(at, {
    limit: input.limit,
    fetch: (page, size) => {
      read += 1;
      return fetch(q, page, size);
    },
    progress,
    ...(local && { skip: (row: T) => !local.keep(row, q), maxPage: at.pg + local.maxPages - 1 }),
  });
  return {
    rows: walk.rows,
    next_cursor: walk.next ? encodeCursor(tool, input, { q, ...walk.next }) : undefined,
    total: local ? undefined : walk.total,
    stopped: local && walk.next && walk.rows.length < input.limit && read >= local.maxPages ? true : undefined,
    note: walk.note,
    query: q,
  };
}
