import { z } from "zod";
import { num } from "../../format/compact.js";
import { toIsoInZone, wallTime } from "../../format/time.js";

/** Row shaping shared by the statistics tools: totals first, then one row per date or hour. */

export type Counts = Record<string, number>;
/** A shaped row: labels (date, hour, ids) plus counts. */
export type Row = Record<string, unknown>;

export const totalsSchema = z.record(z.string(), z.number());
export const rowsSchema = z.array(z.looseObject({ date: z.string().optional(), hour: z.union([z.string(), z.number()]).optional() }));

/** The named fields of an upstream record as numbers (missing or unreadable: 0). */
export function counts(record: Record<string, unknown>, keys: readonly string[]): Counts {
  return Object.fromEntries(keys.map((k) => [k, num(record[k]) ?? 0]));
}

export function sumRows(rows: readonly Row[], keys: readonly string[]): Counts {
  return Object.fromEntries(keys.map((k) => [k, rows.reduce((total, row) => total + (num(row[k]) ?? 0), 0)]));
}

export const hasActivity = (row: Row, keys: readonly string[]) => keys.some((k) => (num(row[k]) ?? 0) !== 0);

/** Sums keyed rows into one row per key, in first-seen order. */
export function groupRows(rows: readonly Row[], key: string, keys: readonly string[]): Row[] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const k = String(row[key]);
    groups.set(k, [...(groups.get(k) ?? []), row]);
  }
  return [...groups].map(([k, list]) => ({ [key]: k, ...sumRows(list, keys) }));
}

/**
 * The hour of an hourly statistics row as ISO in the shop zone. `hour_in_integer`
 * (`YYYYMMDDHH0000`, UTC) is exact; without it the page-local `hour` text is kept as it came.
 */
export function rowHour(row: { hour?: unknown; hour_in_integer?: unknown }, timeZone: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})/.exec(String(row.hour_in_integer ?? ""));
  if (m) return toIsoInZone(new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!)), timeZone);
  return typeof row.hour === "string" && row.hour ? row.hour : undefined;
}

/**
 * A `D/M` day label of the engagement series to YYYY-MM-DD. The vendor's example also shows
 * `D/M/YYYY`: a given year is used; without one, the date at or before `last` is meant.
 */
export function dayLabelDate(label: string, last: Date, timeZone: string): string | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))?$/.exec(label.trim());
  if (!m) return undefined;
  const day = Number(m[1]);
  const month = Number(m[2]);
  const end = wallTime(last, timeZone);
  const year = m[3] ? Number(m[3]) : month > end.month || (month === end.month && day > end.day) ? end.year - 1 : end.year;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
