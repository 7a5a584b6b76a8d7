import { z } from "zod";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { recordDate } from "../../format/time.js";
import { type FilterInput, statusClock, statusDating } from "./order-query.js";
import { orderNumberOf } from "./order-ref.js";

// Filters of search_orders the order list has no parameter for, applied to the rows it returns:
// the shop number (`display_id`), the post an order came from (`post_id`) and livestream orders
// (`is_livestream`), all of which the live service records on each order; the time in status
// when since/until take the list's one time filter (`stale`: last status change at or before, Unix
// s); and a status's time for orders asked in several statuses (`reach`: "returned or partly
// returned this month" dates a partly returned order, which never reached returned, by its own).

export const localFilter = z
  .object({
    n: z.string().optional(),
    posts: z.array(z.string()).optional(),
    live: z.boolean().optional(),
    stale: z.number().optional(),
    /** Dated by reaching status `s`, or, never having reached it, the status the order is in (Unix s, both ends inclusive). */
    reach: z.object({ s: z.number(), from: z.number().optional(), to: z.number().optional() }).optional(),
  })
  .optional();
export type LocalFilter = z.infer<typeof localFilter>;

export function localFilterOf(input: FilterInput, timeZone: string): LocalFilter {
  const clock = statusClock(input);
  const filter = {
    n: orderNumberOf(input.search),
    posts: input.post_ids?.length ? input.post_ids : undefined,
    live: input.livestream,
    stale: clock && !clock.upstream ? clock.before : undefined,
    reach: statusDating(input, timeZone),
  };
  return Object.values(filter).some((v) => v !== undefined) ? filter : undefined;
}

/** Upstream fields a projected list must keep for the filter to read them. */
export const localFields = (f: LocalFilter): string[] =>
  f
    ? [
        f.n && "display_id",
        f.posts && "post_id",
        f.live !== undefined && "is_livestream",
        f.stale !== undefined && "last_update_status_at",
        f.reach && "status_history",
        f.reach && "status",
      ].filter((x): x is string => !!x)
    : [];

/** The parameters a local filter stands for, as the caller named them: "post_ids, status_older_than". */
export const localFilterNames = (f: LocalFilter): string =>
  f
    ? [
        f.n && "order number",
        f.posts && "post_ids",
        f.live !== undefined && "livestream",
        f.stale !== undefined && "status_older_than (with since/until)",
        f.reach && "time_field (a status) with several statuses",
      ]
        .filter(Boolean)
        .join(", ")
    : "";

/** When an order reached the status `s`, else (never having reached it) the status it is in. */
function reachedAt(o: PosOrder, s: number): number | undefined {
  const history = o.status_history ?? [];
  const entry = history.find((h) => Number(h.status) === s) ?? [...history].reverse().find((h) => Number(h.status) === Number(o.status));
  return recordDate(entry?.updated_at)?.getTime();
}

/** A post id as the inbox gives it (`<page id>_<post id>`) or only its own part. */
const samePost = (stored: unknown, wanted: string) => typeof stored === "string" && (stored === wanted || stored.endsWith(`_${wanted}`));

export const localMatch = (f: LocalFilter) => (o: PosOrder) => {
  if (!f) return true;
  const raw = o as Record<string, unknown>;
  return (
    (f.n === undefined || String(o.display_id) === f.n) &&
    (f.posts === undefined || f.posts.some((p) => samePost(o.post_id, p))) &&
    (f.live === undefined || (raw.is_livestream === true) === f.live) &&
    (f.stale === undefined || (recordDate(raw.last_update_status_at)?.getTime() ?? Number.POSITIVE_INFINITY) <= f.stale * 1000) &&
    (f.reach === undefined || within(reachedAt(o, f.reach.s), f.reach.from, f.reach.to))
  );
};

/** In milliseconds, as the list compares: a time with a fraction of a second past the end is out. */
const within = (at: number | undefined, from: number | undefined, to: number | undefined) =>
  at !== undefined && (from === undefined || at >= from * 1000) && (to === undefined || at <= to * 1000);
