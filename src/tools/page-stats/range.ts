import { z } from "zod";
import { type DateRange, parseRange, startOfDay, toDmy, toDmyHms, toIsoInZone, toUnix } from "../../format/time.js";
import { dateInput } from "../inputs.js";

/**
 * Statistics ranges. Callers speak in PANCAKE_TIMEZONE; each statistics endpoint wants its own
 * format (Unix seconds, `DD/MM/YYYY HH:MM:SS - DD/MM/YYYY HH:MM:SS` or `DD/MM/YYYY - DD/MM/YYYY`).
 * With no dates the last 7 days (today included) are used.
 */

export const DEFAULT_DAYS = 7;

/** since/until parameters that state the longest span the endpoint accepts. */
export function rangeInputs(maxDays: number) {
  return {
    since: dateInput.optional().describe(`From date; default last ${DEFAULT_DAYS} days`),
    until: dateInput.optional().describe(`To date, inclusive; span ≤${maxDays} days`),
  };
}

export interface RangeInput {
  since?: string | number | undefined;
  until?: string | number | undefined;
}

export function statsRange(input: RangeInput, timeZone: string, maxDays: number, now?: Date): DateRange {
  return parseRange(input.since, input.until, timeZone, { defaultDays: DEFAULT_DAYS, maxDays, ...(now ? { now } : {}) });
}

/**
 * Longest range of a statistic read window by window (a year): each window is one call per page,
 * so this bounds the calls (12 for a 31-day endpoint).
 */
export const MAX_WINDOWED_DAYS = 366;

/**
 * The range cut into consecutive windows an endpoint takes in one call (each at most `maxDays`
 * long), every window after the first starting at midnight in the zone, so that day rows of
 * different windows never share a day.
 */
export function windows(range: DateRange, timeZone: string, maxDays: number): DateRange[] {
  const out: DateRange[] = [];
  let since = range.since;
  while (since.getTime() <= range.until.getTime()) {
    // A day longer than 24 hours (a clock turned back) must not stretch a window past maxDays.
    const end = new Date(
      Math.min(startOfDay(since, timeZone, maxDays).getTime() - 1000, since.getTime() + maxDays * 86_400_000 - 1000, range.until.getTime()),
    );
    out.push({ since, until: end });
    since = new Date(end.getTime() + 1000);
  }
  return out;
}

/** For `since`/`until` endpoints. */
export const unixSpan = (range: DateRange) => ({ since: toUnix(range.since), until: toUnix(range.until) });

/** `DD/MM/YYYY HH:MM:SS - DD/MM/YYYY HH:MM:SS` (both end seconds included). */
export const dateTimeRange = (range: DateRange, timeZone: string) =>
  `${toDmyHms(range.since, timeZone)} - ${toDmyHms(range.until, timeZone)}`;

/** `DD/MM/YYYY - DD/MM/YYYY` (both end days included). */
export const dayRange = (range: DateRange, timeZone: string) => `${toDmy(range.since, timeZone)} - ${toDmy(range.until, timeZone)}`;

/** The whole days a day-granular endpoint actually covers. */
export function wholeDays(range: DateRange, timeZone: string): DateRange {
  return { since: startOfDay(range.since, timeZone), until: new Date(startOfDay(range.until, timeZone, 1).getTime() - 1000) };
}

/** The range as it is reported back. */
export const rangeOut = (range: DateRange, timeZone: string) => ({
  since: toIsoInZone(range.since, timeZone),
  until: toIsoInZone(range.until, timeZone),
});

export const rangeSchema = z.object({ since: z.string(), until: z.string() });
