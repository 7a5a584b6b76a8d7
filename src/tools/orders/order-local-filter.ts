import { z } from "zod";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { recordDate } from "../../format/time.js";
import { type FilterInput, statusClock } from "./order-query.js";
import { orderNumberOf } from "./order-ref.js";

// Filters of search_orders the order list has no parameter for, applied to the rows it returns:
// the shop number (`display_id`), the post an order came from (`post_id`) and livestream orders
// (`is_livestream`), all of which the live service records on each order; and the time in status
// when since/until take the list's one time filter (`stale`: last status change at or before, Unix s).

export const localFilter = z
  .object({ n: z.string().optional(), posts: z.array(z.string()).optional(), live: z.boolean().optional(), stale: z.number().optional() })
  .optional();
export type LocalFilter = z.infer<typeof localFilter>;

export function localFilterOf(input: FilterInput): LocalFilter {
  const clock = statusClock(input);
  const filter = {
    n: orderNumberOf(input.search),
    posts: input.post_ids?.length ? input.post_ids : undefined,
    live: input.livestream,
    stale: clock && !clock.upstream ? clock.before : undefined,
  };
  return Object.values(filter).some((v) => v !== undefined) ? filter : undefined;
}

/** Upstream fields a projected list must keep for the filter to read them. */
export const localFields = (f: LocalFilter): string[] =>
  f
    ? [f.n && "display_id", f.posts && "post_id", f.live !== undefined && "is_livestream", f.stale !== undefined && "last_update_status_at"].filter(
        (x): x is string => !!x,
      )
    : [];

/** The parameters a local filter stands for, as the caller named them: "post_ids, status_older_than". */
export const localFilterNames = (f: LocalFilter): string =>
  f ? [f.n && "order number", f.posts && "post_ids", f.live !== undefined && "livestream", f.stale !== undefined && "status_older_than (with since/until)"].filter(Boolean).join(", ") : "";

/** A post id as the inbox gives it (`<page id>_<post id>`) or only its own part. */
const samePost = (stored: unknown, wanted: string) => typeof stored === "string" && (stored === wanted || stored.endsWith(`_${wanted}`));

export const localMatch = (f: LocalFilter) => (o: PosOrder) => {
  if (!f) return true;
  const raw = o as Record<string, unknown>;
  return (
    (f.n === undefined || String(o.display_id) === f.n) &&
    (f.posts === undefined || f.posts.some((p) => samePost(o.post_id, p))) &&
    (f.live === undefined || (raw.is_livestream === true) === f.live) &&
    (f.stale === undefined || (recordDate(raw.last_update_status_at)?.getTime() ?? Number.POSITIVE_INFINITY) <= f.stale * 1000)
  );
};
