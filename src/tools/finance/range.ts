import { toUnix } from "../../format/time.js";
import { openRange } from "../orders/open-range.js";

/** An optional since/until filter as Unix seconds; an end not given stays open. */
export function unixRange(since: string | number | undefined, until: string | number | undefined, timeZone: string) {
  const range = openRange(since, until, timeZone);
  return { from: range.since && toUnix(range.since), to: range.until && toUnix(range.until) };
}
