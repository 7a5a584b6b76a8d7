import { wallTime } from "../format/time.js";
import { tiedPastCut } from "./rank.js";

// Counting and summing rows per group on the server, so a model reads one line per group instead
// of the rows: shared by the list tools that take `group_by`.

const PERIODS = ["day", "week", "month"] as const;
export type Period = (typeof PERIODS)[number];

export const isPeriod = (key: string): key is Period => (PERIODS as readonly string[]).includes(key);

/** A group's label when its rows carry nothing for the key (no carrier, no seller, no address). */
export const NONE = "(none)";

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The shop-calendar period an instant falls in, labelled so labels sort in time order: a day
 * "2026-11-25", a week from Monday "2026-11-23/2026-11-29" (an ISO 8601 interval), a month "2026-11".
 */
export function periodOf(date: Date, period: Period, timeZone: string): string {
  const w = wallTime(date, timeZone);
  if (period === "month") return `${w.year}-${pad(w.month)}`;
  if (period === "day") return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
  const day = new Date(Date.UTC(w.year, w.month - 1, w.day));
  const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
  const sunday = new Date(monday.getTime() + 6 * 86_400_000);
  return `${monday.toISOString().slice(0, 10)}/${sunday.toISOString().slice(0, 10)}`;
}

export interface Group {
  /** One label per key, in the order of the keys. */
  labels: string[];
  /** `count` and the sums, by figure name. */
  figures: Record<string, number>;
}

/** Rows counted (`count`) and their figures summed per distinct set of labels. */
export function tally<T>(rows: Iterable<T>, labelsOf: (row: T) => string[], figuresOf: (row: T) => Record<string, number>, count = "count"): Group[] {
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const labels = labelsOf(row);
    const key = JSON.stringify(labels);
    let group = groups.get(key);
    if (!group) {
      group = { labels, figures: { [count]: 0 } };
      groups.set(key, group);
    }
    group.figures[count]! += 1;
    for (const [name, value] of Object.entries(figuresOf(row))) group.figures[name] = (group.figures[name] ?? 0) + value;
  }
  return [...groups.values()];
}

interface Ranked<G extends Group> {
  top: G[];
  /**
   * The groups not listed, summed: past `limit` by size ("other"), or, in time order, the periods
   * before the newest `limit` ("earlier").
   */
  rest?: { label: "other" | "earlier"; groups: number; figures: Record<string, number>; tied?: number };
}

/**
 * Groups largest first by `figure` (smallest first when `ascending`; ties by label), the first `limit` kept and the rest summed as
 * "other"; or in label order when `inTimeOrder` (periods first: labels sort in time order), the
 * newest `limit` kept and the earlier ones summed as "earlier", so what hides is never today.
 */
export function rankGroups<G extends Group>(groups: G[], options: { figure: string; limit: number; inTimeOrder?: boolean; ascending?: boolean | undefined }): Ranked<G> {
  const byLabel = (a: Group, b: Group) => a.labels.join("\u0000").localeCompare(b.labels.join("\u0000"));
  const sign = options.ascending ? -1 : 1;
  const byFigure = (a: Group, b: Group) => sign * ((b.figures[options.figure] ?? 0) - (a.figures[options.figure] ?? 0)) || byLabel(a, b);
  // limit 0 asks for the counts alone (group_count, total): no group listed, none summed.
  if (options.limit === 0) return { top: [] };
  const sorted = [...groups].sort(options.inTimeOrder ? byLabel : byFigure);
  if (sorted.length <= options.limit) return { top: sorted };
  const [top, rest] = options.inTimeOrder ? [sorted.slice(-options.limit), sorted.slice(0, -options.limit)] : [sorted.slice(0, options.limit), sorted.slice(options.limit)];
  const figures: Record<string, number> = {};
  for (const group of rest) for (const [name, value] of Object.entries(group.figures)) figures[name] = (figures[name] ?? 0) + value;
  if (options.inTimeOrder) return { top, rest: { label: "earlier", groups: rest.length, figures } };
  const tied = tiedPastCut(sorted, options.limit, (g) => g.figures[options.figure]);
  return { top, rest: { label: "other", groups: rest.length, figures, ...(tied ? { tied } : {}) } };
}

/** What the summed row holds and how to list its groups. */
export function restNote(rest: Ranked<Group>["rest"], maxLimit: number): string | undefined {
  if (!rest) return undefined;
  return rest.label === "earlier"
    ? `The ${rest.groups} earliest groups are summed in the "earlier" row: narrow since, or raise limit (up to ${maxLimit}), to list them.`
    : `${rest.groups} more groups are summed in the "other" row${rest.tied ? `, ${rest.tied} of them tied with the last listed group` : ""}: raise limit (up to ${maxLimit}) to list them.`;
}
