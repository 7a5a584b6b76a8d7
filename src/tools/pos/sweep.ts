import { bounded, callSignal } from "../../clients/call-signal.js";
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
  /** Why a sweep stopped short: its row or page bound, or its time. */
  stopped?: "bound" | "time";
}

/**
 * Every row of an upstream list, for answers over all of it (counts and sums per group): page 1,
 * then the pages its total announces, several at a time, until the list ends or a bound is met.
 * Past the time bound the pages in flight are abandoned; only pages read from page 1 on without a
 * gap count, so a partial answer covers a known stretch of the list (its first rows in its order).
 */
export async function sweep<C extends object, T extends { id: string | number }>(
  client: C,
  bounds: SweepBounds,
  fetch: (client: C, page: number, size: number) => Promise<UpstreamPage<T>>,
  progress?: ToolContext["progress"],
): Promise<Sweep<T>> {
  const deadline = Date.now() + bounds.ms;
  const first = await fetch(client, 1, MAX_PAGE_SIZE);
  const size = first.data.length;
  const total = first.total_entries;
  // Without a total the list ends at its first short page; until one is read it may go on to the last.
  let announced = size === 0 ? 1 : total !== undefined ? Math.ceil(total / size) : size < MAX_PAGE_SIZE ? 1 : Number.POSITIVE_INFINITY;
  const end = Math.min(announced, bounds.lastPage, Math.max(1, Math.floor(bounds.rows / Math.max(size, 1))));
  const pages: T[][] = [first.data];
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), Math.max(0, deadline - Date.now()));
  const view = bounded(client, stop.signal);
  let next = 2;
  let read = 1;
  const worker = async () => {
    while (next <= Math.min(end, announced) && Date.now() < deadline && !stop.signal.aborted) {
      const page = next++;
      try {
        // Later pages ask for the size the list served, in case it serves less than asked.
        const data = (await fetch(view, page, size)).data;
        pages[page - 1] = data;
        if (total === undefined && data.length < size) announced = Math.min(announced, page);
        read += 1;
        await progress?.(read, end, `page ${read} of ${end}`);
      } catch (error) {
        if (stop.signal.aborted && !callSignal(client)?.aborted) return;
        stop.abort();
        throw error;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(0, Math.min(bounds.parallel, end - 1)) }, worker));
  } finally {
    clearTimeout(timer);
  }
  const last = Math.min(end, announced);
  let gapless = 0;
  while (gapless < last && pages[gapless]) gapless++;
  const rows = [...new Map(pages.slice(0, gapless).flat().map((row) => [String(row.id), row])).values()];
  const readAll = gapless === announced;
  return {
    rows,
    total,
    complete: readAll && (total === undefined || rows.length === total),
    stopped: gapless < last ? "time" : readAll ? undefined : "bound",
  };
}
