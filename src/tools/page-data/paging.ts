import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { TimeSpan } from "../../clients/messaging.js";
import { parseRange, toUnix } from "../../format/time.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { cursorInput, limitInput, pageIdInput, sinceInput, untilInput } from "../inputs.js";

/**
 * Page-number lists (customers, posts, call logs): the first call fixes the filters and the page
 * size (= limit) in the cursor, so later pages line up without gaps or repeats.
 */
const stateSchema = z.object({
  p: z.string(),
  n: z.number().int().min(1),
  size: z.number().int().min(1),
  q: z.record(z.string(), z.unknown()),
});

export interface PagedQuery {
  page_number: number;
  page_size: number;
}

export async function readPaged<Q extends object, T, R>(
  tool: string,
  input: { page_id: string; cursor?: string; limit: number },
  first: () => Q,
  fetch: (query: Q & PagedQuery) => Promise<{ rows: T[]; total?: number }>,
  row: (record: T) => R,
) {
  const pageId = input.page_id;
  const state = input.cursor
    ? decodeCursor(tool, input.cursor, stateSchema)
    : { p: pageId, n: 1, size: input.limit, q: first() as Record<string, unknown> };
  if (state.p !== pageId) throw new InputError("cursor", `belongs to page ${state.p}, not ${pageId}`, "Pass the same page_id as the call that returned it.");
  const { rows, total } = await fetch({ ...(state.q as Q), page_number: state.n, page_size: state.size });
  const more = rows.length >= state.size && (total === undefined || state.n * state.size < total);
  return {
    rows: rows.map(row),
    total,
    next_cursor: more ? encodeCursor(tool, { ...state, n: state.n + 1 }) : undefined,
  };
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
