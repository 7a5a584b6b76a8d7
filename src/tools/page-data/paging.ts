import { z } from "zod";
import { pageMemory } from "../../clients/list-checks.js";
import type { TimeSpan } from "../../clients/messaging.js";
import { parseRange, toUnix } from "../../format/time.js";
import { type CursorCall, decodeCursor, encodeCursor } from "../cursor.js";
import { MAX_PAGE_SIZE, resumeAt } from "../pos/paging.js";
import { cursorInput, limitInput, pageIdInput, sinceInput, untilInput } from "../inputs.js";

/**
 * Page-number lists (customers, posts, call logs): the first call fixes the filters and the page
 * size (= limit, or the list's fixed size) in the cursor, so later pages line up without gaps or
 * repeats; `skip` counts the rows of page `n` already returned when the size exceeds the limit.
 */
const stateSchema = z.object({
  p: z.string(),
  n: z.number().int().min(1).max(100_000),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE),
  skip: z.number().int().min(0).max(MAX_PAGE_SIZE).default(0),
  q: z.record(z.string(), z.unknown()),
});
type State = z.output<typeof stateSchema>;

export interface PagedQuery {
  page_number: number;
  page_size: number;
}

/** Posts and call logs: one spec variant gives page_size a minimum of 30, the other a maximum of 30. */
export const PAGE_SIZE = 30;

/** A limit of at most two pages of the fixed size never needs more calls than this. */
const MAX_CALLS = 3;

export interface ReadOptions<T> {
  /** The list's fixed page size (else the limit). */
  pageSize?: number;
  /** Keeps only the records it accepts (a filter the upstream lacks); pages are read on until `limit` are kept. */
  keep?: (record: T) => boolean;
  /** Upstream pages read at most in one call (default: what `limit` rows need unfiltered). */
  maxCalls?: number;
  /** The arguments the cursor is bound to (default the input, whose page_id it names). */
  bound?: CursorCall;
}

/** The page a cursor of readPaged continues, for a tool whose cursor is bound to no page (it takes several). */
export function cursorPage(tool: string, cursor: string): string {
  return decodeCursor(tool, { cursor }, stateSchema).p;
}

export async function readPaged<Q extends object, T, R>(
  tool: string,
  input: { page_id: string; cursor?: string | undefined; limit: number },
  first: () => Q,
  fetch: (query: Q & PagedQuery) => Promise<{ rows: T[]; total?: number }>,
  row: (record: T) => R,
  options: ReadOptions<T> = {},
) {
  const pageId = input.page_id;
  const state: State = input.cursor
    ? resumed(decodeCursor(tool, { ...(options.bound ?? input), cursor: input.cursor }, stateSchema), input.limit, options.pageSize)
    : { p: pageId, n: 1, size: options.pageSize ?? input.limit, skip: 0, q: first() as Record<string, unknown> };
  const out: T[] = [];
  let total: number | undefined;
  let at: State | undefined = state;
  const seen = pageMemory();
  for (let call = 0; at && out.length < input.limit && call < (options.maxCalls ?? MAX_CALLS); call++) {
    const page = await fetch({ ...(at.q as Q), page_number: at.n, page_size: at.size });
    // A page served again ends the list (issue 43), and its total is not believed.
    if (seen(at.n, page.rows) !== undefined) [at, total] = [undefined, undefined];
    if (!at) break;
    total ??= page.total;
    const fresh = page.rows.slice(at.skip);
    // Rows of this page passed (kept or not) before the limit filled: a cursor resumes after them.
    let used = 0;
    for (const record of fresh) {
      if (out.length >= input.limit) break;
      used++;
      if (!options.keep || options.keep(record)) out.push(record);
    }
    if (used < fresh.length) at = { ...at, skip: at.skip + used };
    else if (page.rows.length >= at.size && (total === undefined || at.n * at.size < total)) at = { ...at, n: at.n + 1, skip: 0 };
    else {
      // The list ends at a short page whatever its total says: a total its pages did not reach is left out.
      if (total !== undefined && (at.n - 1) * at.size + page.rows.length < total) total = undefined;
      at = undefined;
    }
  }
  return { rows: out.map(row), total, next_cursor: at ? encodeCursor(tool, options.bound ?? input, at) : undefined };
}

/**
 * Where a cursor resumes for `limit` rows: in pages of `limit` when that takes fewer calls (a
 * follow-up for more rows than a first page cut to its budget held), unless the list's page size is fixed.
 */
function resumed(state: State, limit: number, fixed: number | undefined): State {
  if (fixed !== undefined) return state;
  const at = resumeAt({ pg: state.n, off: state.skip, ps: state.size }, limit);
  return { ...state, n: at.pg, skip: at.off, size: at.ps };
}

/** The parameters every page-number list shares. */
export const pagedInput = (maxLimit: number, defaultLimit: number) => ({
  page_id: pageIdInput,
  since: sinceInput,
  until: untilInput,
  limit: limitInput(maxLimit, defaultLimit),
  cursor: cursorInput,
});

export const pagedOutput = { total: z.number().optional(), next_cursor: z.string().optional() };

/** since/until in Unix seconds; with `defaultDays` a missing range becomes the last N days, else it stays open. */
type Span = { since?: string | number; until?: string | number };
export function spanQuery(input: Span, timeZone: string, defaultDays: number): TimeSpan;
export function spanQuery(input: Span, timeZone: string): Partial<TimeSpan>;
export function spanQuery(input: Span, timeZone: string, defaultDays?: number): Partial<TimeSpan> {
  if (defaultDays === undefined && input.since === undefined && input.until === undefined) return {};
  const range = parseRange(input.since, input.until, timeZone, { defaultDays });
  return { since: toUnix(range.since), until: toUnix(range.until) };
}
