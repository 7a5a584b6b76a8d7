import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { Paged } from "../../clients/pos.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import type { ToolContext } from "../define.js";

/** Largest page the POS lists serve. */
const MAX_PAGE_SIZE = 100;
/** Upstream pages one call may read while filling `limit` through a local filter. */
const MAX_PAGES_PER_CALL = 10;

const position = z.object({ p: z.number().int().min(1), o: z.number().int().min(0), s: z.number().int().min(1), q: z.string() });

export interface PageWalk<T> {
  tool: string;
  limit: number;
  cursor: string | undefined;
  /** The upstream filters: a cursor only continues the query it came from. */
  query: unknown;
  fetch(page: number, pageSize: number): Promise<Paged<T>>;
  /** A filter the upstream cannot apply; the walk reads on until `limit` rows pass it. */
  keep?(row: T): boolean;
}

export interface PageResult<T> {
  rows: T[];
  next_cursor: string | undefined;
  /** Upstream total, known only when no local filter applies. */
  total: number | undefined;
}

/**
 * Follows a POS paged list from the cursor's position until `limit` rows are collected. The
 * cursor keeps page, offset and page size, so rows are neither skipped nor repeated.
 */
export async function walkPages<T>(ctx: Pick<ToolContext, "progress">, walk: PageWalk<T>): Promise<PageResult<T>> {
  const q = JSON.stringify(walk.query);
  const start = walk.cursor
    ? decodeCursor(walk.tool, walk.cursor, position)
    : { p: 1, o: 0, s: walk.keep ? MAX_PAGE_SIZE : Math.min(walk.limit, MAX_PAGE_SIZE), q };
  if (start.q !== q) {
    throw new InputError("cursor", "belongs to a query with other filters", "Repeat the filters of the call that returned it, or omit cursor.");
  }
  const rows: T[] = [];
  let { p, o } = start;
  let total: number | undefined;
  for (let read = 0; read < MAX_PAGES_PER_CALL; read++) {
    const page = await walk.fetch(p, start.s);
    total = page.total_entries;
    const lastPage = page.data.length < start.s || (page.total_pages !== undefined && p >= page.total_pages);
    for (let i = o; i < page.data.length; i++) {
      const row = page.data[i]!;
      if (walk.keep && !walk.keep(row)) continue;
      rows.push(row);
      if (rows.length === walk.limit) {
        const more = i + 1 < page.data.length || !lastPage;
        const next = i + 1 < page.data.length ? { p, o: i + 1 } : { p: p + 1, o: 0 };
        return { rows, next_cursor: more ? encodeCursor(walk.tool, { ...next, s: start.s, q }) : undefined, total: walk.keep ? undefined : total };
      }
    }
    if (lastPage) return { rows, next_cursor: undefined, total: walk.keep ? undefined : total };
    p += 1;
    o = 0;
    await ctx.progress(rows.length, walk.limit, `read page ${p - 1}`);
  }
  return { rows, next_cursor: encodeCursor(walk.tool, { p, o: 0, s: start.s, q }), total: undefined };
}

/** A row for `detail: "full"`: the upstream record as is, its id as text like every compact row. */
export function fullRow<R extends { id: unknown }>(record: R): Record<string, unknown> & { id: string } {
  return { ...record, id: String(record.id) };
}

export interface ListInput {
  limit: number;
  cursor?: string | undefined;
  detail: "compact" | "full";
}

/**
 * One list tool's page: walks the upstream list for `query` and projects each row, or returns
 * it as is with `detail: "full"`.
 */
export async function listPage<T extends { id: unknown }, R>(
  ctx: Pick<ToolContext, "progress">,
  input: ListInput,
  list: {
    tool: string;
    query: Record<string, unknown>;
    fetch(params: Record<string, unknown> & { page: number; page_size: number }): Promise<Paged<T>>;
    project(row: T): R;
    keep?(row: T): boolean;
    /** Filters applied locally, part of the cursor's identity but not sent upstream. */
    local?: unknown;
  },
): Promise<{ rows: (R | (Record<string, unknown> & { id: string }))[]; next_cursor: string | undefined; total: number | undefined }> {
  const page = await walkPages(ctx, {
    tool: list.tool,
    limit: input.limit,
    cursor: input.cursor,
    query: list.local === undefined ? list.query : { ...list.query, local: list.local },
    keep: list.keep,
    fetch: (p, size) => list.fetch({ ...list.query, page: p, page_size: size }),
  });
  const rows = page.rows.map((row) => (input.detail === "full" ? fullRow(row) : list.project(row)));
  return { rows, next_cursor: page.next_cursor, total: page.total };
}
