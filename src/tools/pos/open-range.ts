import { InputError } from "../../clients/errors.js";
import { parseDateInput, requireEndOfPeriod, toUnix } from "../../format/time.js";

/** A range either end of which may be left open (lists without a required span). */
export function openRange(
  since: string | number | undefined,
  until: string | number | undefined,
  timeZone: string,
): { since?: Date; until?: Date } {
  requireEndOfPeriod(since, until);
  const start = since === undefined ? undefined : parseDateInput("since", since, timeZone);
  const end = until === undefined ? undefined : parseDateInput("until", until, timeZone, true);
  if (start && end && end < start) throw new InputError("until", "is before since", "Swap since and until.");
  return { since: start, until: end };
}

/** An optional since/until filter as Unix seconds; an end not given stays open. */
export function unixRange(since: string | number | undefined, until: string | number | undefined, timeZone: string) {
  const range = openRange(since, until, timeZone);
  return { from: range.since && toUnix(range.since), to: range.until && toUnix(range.until) };
}
