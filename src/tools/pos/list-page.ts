import type { Paged } from "../../clients/pos.js";
import { upstreamRecord } from "../../format/orders.js";
import type { ToolContext } from "../define.js";
import { type LocalFilter, pagedList } from "./paging.js";

export interface ListInput {
  limit: number;
  cursor?: string | undefined;
  detail?: "compact" | "full";
}

/**
 * One page of a back-office list tool: the upstream list walked for `query` (which travels in
 * the cursor), each row projected, or passed through as is with `detail: "full"`.
 */
export async function listPage<T extends { id: string | number }, R>(
  ctx: Pick<ToolContext, "progress">,
  input: ListInput,
  list: {
    tool: string;
    query: Record<string, unknown>;
    fetch(params: Record<string, unknown> & { page: number; page_size: number }): Promise<Paged<T>>;
    /** A filter the list has no parameter for (see pagedList): its page has no total. */
    filter?: LocalFilter<Record<string, unknown>, T>;
    project(row: T): R;
  },
) {
  const page = await pagedList(
    list.tool,
    input,
    () => list.query,
    (query, p, size) => list.fetch({ ...query, page: p, page_size: size }),
    ctx.progress,
    list.filter,
  );
  return { ...page, rows: page.rows.map((row) => (input.detail === "full" ? upstreamRecord(row) : list.project(row))) };
}
