/**
 * Lists that misbehave on demand, as live services have been seen to (issue 43), for the tests of
 * what a reader does when a list's pages, totals or ranges cannot be trusted. Like the faults
 * (server.ts), they are set on the running sandbox (Sandbox.misbehave) or when it is made
 * (SandboxOptions.quirks), and meet every GET whose path matches.
 */
export interface Quirk {
  kind:
    | "empty_after_first" // pages after the first answer no rows, while the totals still count them
    | "ignore_range" // the time range asked is ignored: rows of any date are served
    | "first_page_again" // a page past the end (or after the last row) answers the first page again
    | "fixed_total" // the total is `total` whatever range or filter is asked
    | "range_by_update"; // ordered by creation (order_by), the time range is still of the last update
  /** The lists it applies to: paths containing this text (or matching this pattern); every list when absent. */
  path?: string | RegExp;
  /** fixed_total's total. */
  total?: number;
}

/** What the quirks a request meets make of its list. */
export interface ListQuirks {
  emptyAfterFirst: boolean;
  ignoreRange: boolean;
  firstPageAgain: boolean;
  rangeByUpdate: boolean;
  fixedTotal?: number;
}

/** The POS's time range parameters, taken off a request whose range is ignored (the messaging lists ignore theirs themselves). */
export const POS_RANGE_PARAMS = [
  "startDateTime",
  "endDateTime",
  "startDate",
  "endDate",
  "start_time",
  "end_time",
  "start_time_inserted_at",
  "end_time_inserted_at",
  "start_time_updated_at",
  "end_time_updated_at",
];

/** The quirks of `quirks` that meet a GET of `path`; undefined when none does. */
export function quirksFor(quirks: readonly Quirk[], method: string, path: string): ListQuirks | undefined {
  if (method !== "GET") return undefined;
  const met = quirks.filter((q) => !q.path || (typeof q.path === "string" ? path.includes(q.path) : q.path.test(path)));
  if (!met.length) return undefined;
  const has = (kind: Quirk["kind"]) => met.some((q) => q.kind === kind);
  return {
    emptyAfterFirst: has("empty_after_first"),
    ignoreRange: has("ignore_range"),
    firstPageAgain: has("first_page_again"),
    rangeByUpdate: has("range_by_update"),
    fixedTotal: met.find((q) => q.kind === "fixed_total")?.total,
  };
}

/**
 * A list's page as the quirks make it: a later page empty, or past the end the first page again,
 * and the total the fixed one. `later`: the request asks past the first page (a page number above
 * 1, a cursor, a count already read); `first` reads the first page's rows.
 */
export function misbehave<T>(quirks: ListQuirks | undefined, page: { rows: T[]; total?: number; later: boolean; first: () => T[] }): { rows: T[]; total?: number } {
  if (!quirks) return page;
  let rows = page.rows;
  if (quirks.emptyAfterFirst && page.later) rows = [];
  else if (quirks.firstPageAgain && page.later && rows.length === 0) rows = page.first();
  return { rows, total: page.total === undefined ? undefined : (quirks.fixedTotal ?? page.total) };
}
