/*
 * What the copies of a scaled data set have in common (SandboxOptions.scale): copy k (1 and up)
 * of a record is the original moved back by k's offset, its ids those of the original with k's
 * suffix where they have no form of their own.
 */

/** Most copies of each record: a shop 1000 times the demo's (560,000 orders, 380,000 conversations). */
export const MAX_SCALE = 1000;

/**
 * How much earlier copy k's records are than the originals: from 2 minutes to 4 hours, a whole
 * number of minutes different for every k below 239 (97 and 239 are coprime) and, among the k of
 * one minute (k, k + 239, ... up to MAX_SCALE), seconds 23 apart modulo 60, so no two copies share
 * a time; seconds added so they do not fall on the minute. Earlier, never later: nothing may come
 * after the sandbox's now, and a few hours leave the spread over days as it was.
 */
export function copyOffsetMs(k: number): number {
  return ((2 + ((k * 97) % 239)) * 60 + ((k * 37) % 60)) * 1000;
}

const LONGEST_OFFSET_MS = (2 + 238) * 60_000 + 59_000;

/**
 * Copy k's offset for a record that may move back at most `room` ms (a comment a minute after its
 * post, an order that names a post): shrunk in proportion, so copies still differ, whole seconds.
 */
export function offsetWithin(k: number, room: number): number {
  const full = copyOffsetMs(k);
  if (room >= LONGEST_OFFSET_MS) return full;
  return Math.floor((full * Math.max(0, room)) / LONGEST_OFFSET_MS / 1000) * 1000;
}

/** The suffix that makes copy k's id of a record whose ids have no form of their own: `…001`. */
export const copySuffix = (k: number) => String(k).padStart(3, "0");

/**
 * A record time (`2026-01-05T07:15:02`, or a message's with six fractional digits) `by` ms
 * earlier, in the same form.
 */
export function earlier(time: string, by: number): string {
  const moved = new Date(Date.parse(`${time.slice(0, 23)}Z`) - by).toISOString();
  // Copied out code by code: a slice would keep the whole ISO text alive behind it, and at a
  // hundred copies the times are a good part of the heap (80 bytes each against 40).
  const codes: number[] = [];
  for (let i = 0; i < time.length; i++) codes.push((i < 23 ? moved : time).charCodeAt(i));
  return String.fromCharCode(...codes);
}

export const earlierOrNull = (time: string | null, by: number) => (time === null ? null : earlier(time, by));
