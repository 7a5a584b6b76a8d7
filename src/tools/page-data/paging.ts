import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { decodeCursor, encodeCursor } from "../cursor.js";

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

export async function readPaged<Q extends object, T>(
  tool: string,
  pageId: string,
  input: { cursor?: string; limit: number },
  first: () => Q,
  fetch: (query: Q & PagedQuery) => Promise<{ rows: T[]; total?: number }>,
): Promise<{ rows: T[]; total?: number; next_cursor?: string }> {
  const state = input.cursor
    ? decodeCursor(tool, input.cursor, stateSchema)
    : { p: pageId, n: 1, size: input.limit, q: first() as Record<string, unknown> };
  if (state.p !== pageId) throw new InputError("cursor", `belongs to page ${state.p}, not ${pageId}`, "Pass the same page_id as the call that returned it.");
  const { rows, total } = await fetch({ ...(state.q as Q), page_number: state.n, page_size: state.size });
  const more = rows.length >= state.size && (total === undefined || state.n * state.size < total);
  return { rows, total, next_cursor: more ? encodeCursor(tool, { ...state, n: state.n + 1 }) : undefined };
}
