import { wallTime } from "../format/time.js";

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

export interface Ranked {
  top: Group[];
  /** The groups past `limit`, summed: how many, and their figures. */
  other?: { groups: number; figures: Record<string, number> };
}

/**
 * Groups largest first by `figure` (ties by label), or in label order when `inLabelOrder` (time
 * periods read in time order); the first `limit` kept, the rest summed into one `other`.
 */
export function rankGroups(groups: Group[], options: { figure: string; limit: number; inLabelOrder?: boolean }): Ranked {
  const byLabel = (a: Group, b: Group) => a.labels.join("\u0000").localeCompare(b.labels.join("\u0000"));
  const byFigure = (a: Group, b: Group) => (b.figures[options.figure] ?? 0) - (a.figures[options.figure] ?? 0) || byLabel(a, b);
  const sorted = [...groups].sort(options.inLabelOrder ? byLabel : byFigure);
  if (sorted.length <= options.limit) return { top: sorted };
  const rest = sorted.slice(options.limit);
  const figures: Record<string, number> = {};
  for (const group of rest) for (const [name, value] of Object.entries(group.figures)) figures[name] = (figures[name] ?? 0) + value;
  return { top: sorted.slice(0, options.limit), other: { groups: rest.length, figures } };
}
