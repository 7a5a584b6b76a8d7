import { parseRange, toUnix } from "../../format/time.js";

/**
 * An optional since/until filter as Unix seconds: none when neither end is given (the list is
 * not limited in time), else the range with a missing end derived from a 30-day span.
 */
export function optionalUnixRange(
  since: string | number | undefined,
  until: string | number | undefined,
  timeZone: string,
): { from: number; to: number } | undefined {
  if (since === undefined && until === undefined) return undefined;
  const range = parseRange(since, until, timeZone, { defaultDays: 30 });
  return { from: toUnix(range.since), to: toUnix(range.until) };
}
