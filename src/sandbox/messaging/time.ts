/** Every seeded page is Vietnamese: page-local time is UTC+7 all year. */
export const LOCAL_OFFSET_MS = 7 * 3_600_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Record time: UTC without a zone suffix, `2026-11-20T07:15:02`. */
export function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Message time: like iso() with the six fractional digits the live API sends. */
export function isoMicro(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000`;
}

export function parseIso(text: string): number {
  return Date.parse(`${text.slice(0, 23)}Z`);
}

export interface Range {
  /** UTC ms, both ends included. */
  from: number;
  to: number;
}

/** Whether a record time lies in [from, to]. */
export function within(time: string, range: Range): boolean {
  const ms = parseIso(time);
  return ms >= range.from && ms <= range.to;
}

/** The page-local wall clock of an instant, as `YYYY-MM-DDTHH:MM:SS`. */
export function localIso(ms: number): string {
  return iso(ms + LOCAL_OFFSET_MS);
}

/** The page-local day holding an instant, `YYYY-MM-DD`. */
export const localDay = (ms: number) => localIso(ms).slice(0, 10);

/** The page-local hour holding an instant, `YYYY-MM-DDTHH:00:00`. */
export const localHour = (ms: number) => `${localIso(ms).slice(0, 13)}:00:00`;

/** Start (UTC ms) of the page-local day holding `ms`. */
export function localDayStart(ms: number): number {
  return Math.floor((ms + LOCAL_OFFSET_MS) / DAY_MS) * DAY_MS - LOCAL_OFFSET_MS;
}

/**
 * Parses `DD/MM/YYYY HH:MM:SS - DD/MM/YYYY HH:MM:SS` (or, with `withTime` false,
 * `DD/MM/YYYY - DD/MM/YYYY`) read as page-local time. The end second (or the whole end day)
 * is included.
 */
export function parseLocalRange(text: string, withTime: boolean): Range | undefined {
  const part = withTime ? String.raw`(\d{2})/(\d{2})/(\d{4}) (\d{2}):(\d{2}):(\d{2})` : String.raw`(\d{2})/(\d{2})/(\d{4})`;
  const m = new RegExp(`^\\s*${part}\\s*-\\s*${part}\\s*$`).exec(text);
  if (!m) return undefined;
  const n = m.slice(1).map(Number);
  const size = withTime ? 6 : 3;
  const clock = (o: number, i: number) => (withTime ? n[o + i]! : 0);
  const at = (o: number) =>
    Date.UTC(n[o + 2]!, n[o + 1]! - 1, n[o]!, clock(o, 3), clock(o, 4), clock(o, 5)) - LOCAL_OFFSET_MS;
  const from = at(0);
  const to = at(size) + (withTime ? 999 : DAY_MS - 1);
  return Number.isNaN(from) || Number.isNaN(to) || to < from ? undefined : { from, to };
}

/**
 * How busy a Vietnamese shop's inbox is per local hour (0-23): quiet before dawn, a lunch bump,
 * busiest from 19h to 22h when customers are home from work.
 */
const HOUR_WEIGHTS = [3, 1.5, 0.7, 0.4, 0.3, 0.5, 1.5, 3, 4, 5, 6, 7, 7, 5, 5, 5, 5, 6, 7, 9, 11, 12, 9, 6];

type Rng = { next(): number; int(min: number, max: number): number };

/** An instant on the local day holding `ms`, at an hour from `first` on drawn by HOUR_WEIGHTS. */
function atBusyHour(rng: Rng, ms: number, first = 0): number {
  const weights = HOUR_WEIGHTS.slice(first);
  let r = rng.next() * weights.reduce((a, b) => a + b, 0);
  let i = 0;
  while (r >= weights[i]! && i < weights.length - 1) r -= weights[i++]!;
  return localDayStart(ms) + (first + i) * HOUR_MS + rng.int(0, HOUR_MS / 1000 - 1) * 1000;
}

/**
 * An instant on the local day holding `ms` at a busy hour; one past `latest` moves back a day (two
 * in the minutes after midnight), so "recent" stays recent. Its hour is drawn, not taken from the
 * time of day the sandbox starts at, and it moves back whole days: a demo started at another time
 * of day has the same hours.
 */
export function busyHourOf(rng: Rng, ms: number, latest: number): number {
  let at = atBusyHour(rng, ms);
  while (at > latest) at -= DAY_MS;
  return at;
}

/**
 * A message that would come between midnight and 7h local time comes later that day instead, unless
 * that is past `latest`. The later hour is drawn whether it is needed or not: how many draws a
 * message takes must not depend on the time of day, or every draw after it (the next chats' people,
 * texts and ids) would change with the time the demo starts.
 */
export function awake(rng: Rng, ms: number, latest: number): number {
  const later = atBusyHour(rng, ms, 7);
  const hour = Math.floor((ms - localDayStart(ms)) / HOUR_MS);
  return hour >= 7 || later > latest ? ms : later;
}
