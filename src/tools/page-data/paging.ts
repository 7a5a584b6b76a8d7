import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { TimeSpan } from "../../clients/messaging.js";
import { parseRange, toUnix } from "../../format/time.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { MAX_PAGE_SIZE } from "../pos/paging.js";
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

export async function readPaged<Q extends object, T, R>(
  tool: string,
  input: { page_id: string; cursor?: string; limit: number },
  first: () => Q,
  fetch: (query: Q & PagedQuery) => Promise<{ rows: T[]; total?: number }>,
  row: (record: T) => R,
  pageSize?: number,
) {
  const pageId = input.page_id;
  const state: State = input.cursor
    ? decodeCursor(tool, input, stateSchema)
    : { p: pageId, n: 1, size: pageSize ?? input.limit, skip: 0, q: first() as Record<string, unknown> };
  if (state.p !== pageId) throw new InputError("cursor", `belongs to page ${state.p}, not ${pageId}`, "Pass the same page_id as the call that returned it.");
  const out: T[] = [];
  let total: number | undefined;
  let at: State | undefined = state;
  for (let call = 0; at && out.length < input.limit && call < MAX_CALLS; call++) {
    const page = await fetch({ ...(at.q as Q), page_number: at.n, page_size: at.size });
    total ??= page.total;
    const fresh = page.rows.slice(at.skip);
    const room = input.limit - out.length;
    out.push(...fresh.slice(0, room));
    if (fresh.length > room) at = { ...at, skip: at.skip + room };
    else at = page.rows.length >= at.size && (total === undefined || at.n * at.size < total) ? { ...at, n: at.n + 1, skip: 0 } : undefined;
  }
  return { rows: out.map(row), total, next_cursor: at ? encodeCursor(tool, input, at) : undefined };
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
