import { z } from "zod";
import { pageMemory } from "../../clients/list-checks.js";
import type { CallLogParams } from "../../clients/messaging.js";
import type { CallLog } from "../../clients/schemas/messaging.js";
import { PAGE_SIZE } from "./paging.js";

/**
 * "How many calls did we miss this week" without counting rows: the call-log endpoint has no
 * total (neither document gives one), so the calls of a range are read to the end and counted,
 * bounded, saying when the count stopped short.
 */

/** What became of a call: each is exactly one of these, so they add up to `calls`. */
export type CallOutcome = "answered" | "missed" | "unanswered_outgoing";

export interface CallTotals {
  calls: number;
  answered: number;
  /** Incoming calls nobody answered. */
  missed: number;
  /** Outgoing calls the customer did not pick up. */
  unanswered_outgoing: number;
}

export const callTotalsSchema = z.object({ calls: z.number(), answered: z.number(), missed: z.number(), unanswered_outgoing: z.number() });

/** Up to 40 pages of 30 (1,200 calls) a page within 15 s; five at once, the page's limit per second. */
const COUNT_PAGES = 40;
const COUNT_MS = 15_000;
const AT_ONCE = 5;

export interface Counted {
  totals: CallTotals;
  /** Every call of the range was read. */
  complete: boolean;
  /** Start time (upstream text) of the oldest call counted. */
  oldest: string | undefined;
}

export type ReadPage = (query: CallLogParams) => Promise<CallLog[]>;

/**
 * One page's calls, read once per page number for the whole tool call: the rows and the count
 * read the same pages, and no page is asked twice.
 */
export function pagesOnce(read: ReadPage): ReadPage {
  const asked = new Map<string, Promise<CallLog[]>>();
  return (query) => {
    const key = JSON.stringify(query);
    let page = asked.get(key);
    if (!page) {
      page = read(query);
      asked.set(key, page);
    }
    return page;
  };
}

export const noCalls = (): CallTotals => ({ calls: 0, answered: 0, missed: 0, unanswered_outgoing: 0 });

export function addTotals(into: CallTotals, more: CallTotals): CallTotals {
  for (const key of Object.keys(into) as (keyof CallTotals)[]) into[key] += more[key];
  return into;
}

/** Counts every call of `query` (id and range) by outcome, newest first, until the list ends or the bounds. */
export async function countCalls(read: ReadPage, query: Omit<CallLogParams, "page_number" | "page_size">, outcome: (c: CallLog) => CallOutcome): Promise<Counted> {
  const totals = noCalls();
  const seen = pageMemory();
  const deadline = Date.now() + COUNT_MS;
  let oldest: string | undefined;
  for (let first = 1; first <= COUNT_PAGES && Date.now() < deadline; first += AT_ONCE) {
    const numbers = Array.from({ length: Math.min(AT_ONCE, COUNT_PAGES - first + 1) }, (_, i) => first + i);
    const pages = await Promise.all(numbers.map((n) => read({ ...query, page_number: n, page_size: PAGE_SIZE })));
    for (const [i, calls] of pages.entries()) {
      // A page served again is the list's end (issue 43), not more calls.
      if (seen(numbers[i]!, calls) !== undefined) return { totals, complete: true, oldest };
      for (const c of calls) {
        totals.calls++;
        totals[outcome(c)]++;
        oldest = (c.created_time ?? (c as { start_time?: string }).start_time) || oldest;
      }
      if (calls.length < PAGE_SIZE) return { totals, complete: true, oldest };
    }
  }
  return { totals, complete: false, oldest };
}
