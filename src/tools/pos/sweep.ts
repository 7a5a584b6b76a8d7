import { bounded, callSignal } from "../../clients/call-signal.js";
import { endedBefore, pageMemory, repeated } from "../../clients/list-checks.js";
import type { ToolContext } from "../define.js";
import { MAX_PAGE_SIZE, type UpstreamPage } from "./paging.js";

/** What a sweep may spend: rows read, time, and the last page the list serves distinct rows on. */
export interface SweepBounds {
  rows: number;
  ms: number;
  lastPage: number;
  /** Pages read at once; the client's limiter still spaces them as the upstream requires. */
  parallel: number;
}

export interface Sweep<T> {
  /** Every row of the pages read from page 1 on without a gap, each once. */
  rows: T[];
  /** The list's own count of its matches, when it gives one. */
  total?: number;
  /** Every match was read, and the list served as many distinct rows as it counts. */
  complete: boolean;
  /**
   * Why a sweep stopped short: its row or page bound, its time, or a list that kept serving fewer
   * rows a page than asked (`short`: the rows past such a page are never served at that size).
   */
  stopped?: "bound" | "time" | "short";
  /**
   * What the list did that ended the sweep, in words an answer passes on: its pages ended before
   * its total ("the list's total said 1,418; its pages ended at 3"), or it served rows outside what
   * was asked or a page it had served before (the read stops there, its rows up to that page kept).
   */
  note?: string;
}

/** A row the list should not have served: what it shows the list ignored ("the order list ignored startDateTime: ..."). */
export type RowCheck<T> = (row: T) => string | undefined;

/**
 * Reads a sweep makes of a list at most: a list found serving fewer rows on a later page than on
 * its first is read again from page 1 at the size it served, since pages of another size do not
 * line up with the ones read. Defensive: no upstream list has been seen doing it (the 94 rows of
 * 100 in issue 21 were this server's own result budget cutting its answer, page-fit.ts), but a
 * sweep that trusted every page to be full would skip rows silently if one did. A short page is
 * taken for the end of the list (issue 43) unless a page after it, already asked, holds rows.
 */
const PASSES = 3;

interface Pass<T> {
  pages: T[][];
  total?: number;
  /** The last page of the list, as far as is known; a bound may end the pass before it. */
  last: number;
  /** Pages the bounds let this pass read. */
  end: number;
  /** Rows a page served (page 1's count): the size later pages are asked for. */
  size: number;
  /** A page before the last served this many rows, fewer than asked: what to ask for next. */
  short?: { page: number; served: number };
  /** A page the list should not have served (rows outside what was asked, a page again): the pass ends before it. */
  wrong?: { page: number; note: string };
}

/**
 * Every row of an upstream list, for answers over all of it (counts and sums per group): page 1,
 * then the pages its total announces, several at a time, until the list ends (an empty or short
 * page, whatever the total says) or a bound is met. Past the time bound the pages in flight are
 * abandoned; only pages read from page 1 on without a gap count, so a partial answer covers a known
 * stretch of the list (its first rows in its order). `check` finds rows outside what was asked.
 */
export async function sweep<C extends object, T extends { id: string | number }>(
  client: C,
  bounds: SweepBounds,
  fetch: (client: C, page: number, size: number) => Promise<UpstreamPage<T>>,
  progress?: ToolContext["progress"],
  check?: RowCheck<T>,
): Promise<Sweep<T>> {
  const deadline = Date.now() + bounds.ms;
  let asked = MAX_PAGE_SIZE;
  for (let pass = 1; ; pass++) {
    const read = await readPass(client, bounds, deadline, asked, fetch, progress, check);
    if (!read.short || pass === PASSES || Date.now() >= deadline) return outcome(read);
    asked = read.short.served;
  }
}

async function readPass<C extends object, T extends { id: string | number }>(
  client: C,
  bounds: SweepBounds,
  deadline: number,
  asked: number,
  fetch: (client: C, page: number, size: number) => Promise<UpstreamPage<T>>,
  progress?: ToolContext["progress"],
  check?: RowCheck<T>,
): Promise<Pass<T>> {
  const first = await fetch(client, 1, asked);
  // Later pages ask for the size the list served, in case it serves less than asked.
  const size = Math.max(1, first.data.length);
  const total = first.total_entries;
  // Without a total the list ends at an empty or a short page.
  let last = first.data.length === 0 ? 1 : total !== undefined ? Math.ceil(total / size) : Number.POSITIVE_INFINITY;
  const end = Math.min(bounds.lastPage, Math.max(1, Math.floor(bounds.rows / size)));
  const pages: T[][] = [first.data];
  const pass: Pass<T> = { pages, total, last, end, size };
  const seen = pageMemory();
  seen(1, first.data);
  const wrongAt = (page: number, note: string) => {
    if (!pass.wrong || page < pass.wrong.page) pass.wrong = { page, note };
    last = Math.min(last, page - 1);
  };
  const firstWrong = check && first.data.map(check).find((note) => note !== undefined);
  if (firstWrong) wrongAt(1, firstWrong);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), Math.max(0, deadline - Date.now()));
  const view = bounded(client, stop.signal);
  /** The first page served short: the list ends there, unless a page after it holds rows. */
  let shortest: number | undefined;
  let next = 2;
  let read = 1;
  const shortAt = (page: number, served: number) => {
    pass.short = { page: Math.min(page, pass.short?.page ?? page), served: Math.min(served, pass.short?.served ?? served) };
    stop.abort();
  };
  const readPage = async () => {
    const page = next++;
    try {
      const data = (await fetch(view, page, size)).data;
      pages[page - 1] = data;
      read += 1;
      const wrong = check && data.map(check).find((note) => note !== undefined);
      const earlier = seen(page, data);
      if (wrong) wrongAt(page, wrong);
      else if (earlier !== undefined) wrongAt(page, repeated("list", `page ${page}`, `page ${earlier}'s rows`).message);
      else if (data.length === 0) last = Math.min(last, page - 1);
      else if (shortest !== undefined && page > shortest) shortAt(shortest, pages[shortest - 1]!.length);
      else if (data.length < size) [shortest, last] = [page, Math.min(last, page)];
      await progress?.(read, Math.min(end, last), `page ${read} of ${Math.min(end, last)}`);
    } catch (error) {
      if (stop.signal.aborted && !callSignal(client)?.aborted) return;
      stop.abort();
      throw error;
    }
  };
  const more = () => next <= Math.min(end, last) && Date.now() < deadline && !stop.signal.aborted;
  const worker = async () => {
    while (more()) await readPage();
  };
  try {
    // A first page short of what was asked is the whole list, or a list that caps its pages: the
    // page after it, alone, tells which before more are asked.
    if (first.data.length < asked && more()) await readPage();
    await Promise.all(Array.from({ length: Math.max(0, Math.min(bounds.parallel, end - 1)) }, worker));
  } finally {
    clearTimeout(timer);
  }
  return { ...pass, last };
}

function outcome<T extends { id: string | number }>({ pages, total, last, end, size, short, wrong }: Pass<T>): Sweep<T> {
  // A short page's own rows are read; the ones after it were skipped.
  const upTo = Math.min(end, last, short?.page ?? Number.POSITIVE_INFINITY);
  let gapless = 0;
  while (gapless < upTo && pages[gapless]) gapless++;
  const rows = [...new Map(pages.slice(0, gapless).flat().map((row) => [String(row.id), row])).values()];
  const readAll = !short && !wrong && gapless === last;
  // Pages that ended before the total announced: the list holds what they held, and the answer says the total disagreed.
  const ended = readAll && total !== undefined && rows.length < total && last < Math.ceil(total / size);
  return {
    rows,
    total,
    complete: readAll && (total === undefined || rows.length === total),
    stopped: gapless < upTo ? "time" : short ? "short" : readAll || wrong ? undefined : "bound",
    note: wrong?.note ?? (ended ? endedBefore(total, Math.max(1, last)) : undefined),
  };
}
