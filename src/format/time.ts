import { InputError } from "../clients/errors.js";

/**
 * Dates in and out. Callers speak in the shop's zone (PANCAKE_TIMEZONE); the upstreams want
 * Unix seconds or zone-less text, and store record times as UTC without a suffix.
 */

const partsCache = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsCache.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partsCache.set(timeZone, f);
  }
  return f;
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of an instant in a zone. */
export function wallTime(date: Date, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(date)) if (p.type !== "literal") parts[p.type] = Number(p.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Offset of the zone from UTC at that instant, in minutes (Asia/Ho_Chi_Minh: 420). */
export function offsetMinutes(date: Date, timeZone: string): number {
  const w = wallTime(date, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
}

/** The instant at which the zone's clock shows the given wall time. */
export function fromWallTime(w: WallTime, timeZone: string): Date {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  let instant = guess - offsetMinutes(new Date(guess), timeZone) * 60_000;
  // A second pass settles instants near an offset change.
  instant = guess - offsetMinutes(new Date(instant), timeZone) * 60_000;
  const shown = wallTime(new Date(instant), timeZone);
  if (shown.day !== w.day || shown.hour !== w.hour || shown.minute !== w.minute) {
    // A wall time the clocks skip (a DST gap; in some zones midnight itself): read it with the
    // offset from before the change, which lands just past the gap, as Temporal's "compatible" does.
    const past = guess - offsetMinutes(new Date(guess - 6 * 3_600_000), timeZone) * 60_000;
    if (past > instant) instant = past;
  }
  return new Date(instant);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** ISO 8601 with the zone's offset: 2026-11-20T14:05:00+07:00. */
export function toIsoInZone(date: Date, timeZone: string): string {
  const w = wallTime(date, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${offsetText(offsetMinutes(date, timeZone))}`;
}

/** YYYY-MM-DD of the instant in the zone. */
export function toDateInZone(date: Date, timeZone: string): string {
  const w = wallTime(date, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

export const toUnix = (date: Date): number => Math.floor(date.getTime() / 1000);

/** DD/MM/YYYY HH:MM:SS in the zone (statistics date_range halves). */
export function toDmyHms(date: Date, timeZone: string): string {
  const w = wallTime(date, timeZone);
  return `${pad(w.day)}/${pad(w.month)}/${w.year} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/** DD/MM/YYYY in the zone. */
export function toDmy(date: Date, timeZone: string): string {
  const w = wallTime(date, timeZone);
  return `${pad(w.day)}/${pad(w.month)}/${w.year}`;
}

/** YYYY-MM-DD HH:MM:SS in the zone (POS analytics). */
export function toYmdHms(date: Date, timeZone: string): string {
  const w = wallTime(date, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/**
 * An upstream record time as an instant. Record times are UTC without a suffix
 * (`2026-11-20T07:15:02` or with fractions); text that carries its own offset is honoured.
 */
export function recordDate(value: unknown): Date | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  let date: Date;
  if (typeof value === "number") date = new Date(value < 1e12 ? value * 1000 : value);
  else if (typeof value === "string") {
    const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(value);
    date = new Date(hasZone ? value : `${value.replace(" ", "T")}Z`);
  } else return undefined;
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** An upstream record time to ISO in the zone. */
export function recordTime(value: unknown, timeZone: string): string | undefined {
  const date = recordDate(value);
  return date && toIsoInZone(date, timeZone);
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

// A model rarely knows the date; these words let it ask for recent days without guessing.
const RELATIVE_DAYS = new Map([
  ["today", 0],
  ["yesterday", -1],
]);

type Unit = "week" | "month" | "year";

/** Calendar periods by name: a week starts on Monday. `shift` 0 is the current one, -1 the one before. */
const PERIODS = new Map<string, { unit: Unit; shift: number }>([
  ["this week", { unit: "week", shift: 0 }],
  ["last week", { unit: "week", shift: -1 }],
  ["this month", { unit: "month", shift: 0 }],
  ["last month", { unit: "month", shift: -1 }],
  ["this year", { unit: "year", shift: 0 }],
  ["last year", { unit: "year", shift: -1 }],
]);

/** "last 3 days", "past 7 days", "last 4 weeks" (28 days): today and the days before it. */
const LAST_DAYS = /^(?:last|past) (\d{1,3}) (days?|weeks?)$/;
/** "3 days ago": that one day. */
const DAYS_AGO = /^(\d{1,3}) days? ago$/;
/** "2026-10": a calendar month. */
const YEAR_MONTH = /^(\d{4})-(\d{2})$/;

const TIME_OF_DAY = /^(\d{1,2}):(\d{2})$/;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Day of the week (0 = Sunday) of a wall-clock date. */
const weekday = (w: Pick<WallTime, "year" | "month" | "day">) => new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();

/** First day of the period holding `now` (shifted), and the first day of the period after it. */
function periodBounds(now: Date, timeZone: string, unit: Unit, shift: number): [WallTime, WallTime] {
  const today = { ...wallTime(now, timeZone), hour: 0, minute: 0, second: 0 };
  if (unit === "week") {
    const monday = addDays(today, -((weekday(today) + 6) % 7) + 7 * shift);
    return [monday, addDays(monday, 7)];
  }
  const months = unit === "year" ? 12 : 1;
  const first = (offset: number) => {
    const d = new Date(Date.UTC(today.year, (unit === "year" ? 0 : today.month - 1) + (shift + offset) * months, 1));
    return { ...today, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: 1 };
  };
  return [first(0), first(1)];
}

/**
 * Reads a caller's date: YYYY-MM-DD, `today` or `yesterday` (start of that day, or its end with
 * `endOfDay`), `this`/`last` `week`/`month`/`year` and YYYY-MM (likewise the period's first or
 * last day), `last N days` or `weeks` (from the first of them; as until, today's end), `N days ago`, `now`, a time of today (`12:00`, `noon`), ISO 8601 with or without offset
 * (without: in the zone), or Unix seconds.
 */
export function parseDateInput(field: string, input: string | number, timeZone: string, endOfDay = false, now = new Date()): Date {
  const today = wallTime(now, timeZone);
  const bad = () =>
    new InputError(
      field,
      `cannot read ${JSON.stringify(String(input).slice(0, 40))} as a date`,
      `Use YYYY-MM-DD (today is ${WEEKDAYS[weekday(today)]} ${toDateInZone(now, timeZone)} in ${timeZone}), today, yesterday, this/last week, this/last month, this/last year, YYYY-MM (a week starts on Monday; as until they mean the period's end), last 7 days, last 4 weeks (28 days), 3 days ago, now, a time of today such as 12:00 or noon, an ISO 8601 date-time such as 2026-11-20T14:00:00 (shop time) or 2026-11-20T07:00:00Z, or Unix seconds.`,
    );
  if (typeof input === "number" || /^\d{9,11}$/.test(input)) {
    const seconds = Number(input);
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > 4_102_444_800) throw bad();
    return new Date(seconds * 1000);
  }
  const text = input.trim();
  const word = text.toLowerCase().replace(/\s+/g, " ");
  if (word === "now") return now;
  const relative = RELATIVE_DAYS.get(word);
  if (relative !== undefined) {
    const start = startOfDay(now, timeZone, relative);
    return endOfDay ? new Date(startOfDay(now, timeZone, relative + 1).getTime() - 1000) : start;
  }
  const period = PERIODS.get(word);
  if (period) {
    const [first, next] = periodBounds(now, timeZone, period.unit, period.shift);
    return endOfDay ? new Date(fromWallTime(next, timeZone).getTime() - 1000) : fromWallTime(first, timeZone);
  }
  const lastDays = LAST_DAYS.exec(word);
  const ago = DAYS_AGO.exec(word);
  const spanDays = lastDays ? Number(lastDays[1]) * (lastDays[2]!.startsWith("week") ? 7 : 1) : 0;
  if (spanDays > 0 || ago) {
    const day = lastDays ? (endOfDay ? 0 : 1 - spanDays) : -Number(ago![1]);
    return endOfDay ? new Date(startOfDay(now, timeZone, day + 1).getTime() - 1000) : startOfDay(now, timeZone, day);
  }
  const month = YEAR_MONTH.exec(text);
  if (month) {
    const [year, m] = [Number(month[1]), Number(month[2])];
    if (m < 1 || m > 12) throw bad();
    const first = { year, month: m, day: 1, hour: 0, minute: 0, second: 0 };
    const next = m === 12 ? { ...first, year: year + 1, month: 1 } : { ...first, month: m + 1 };
    return endOfDay ? new Date(fromWallTime(next, timeZone).getTime() - 1000) : fromWallTime(first, timeZone);
  }
  const clock = word === "noon" ? ["", "12", "00"] : TIME_OF_DAY.exec(word);
  if (clock) {
    const hour = Number(clock[1]);
    const minute = Number(clock[2]);
    if (hour > 23 || minute > 59) throw bad();
    return fromWallTime({ ...today, hour, minute, second: 0 }, timeZone);
  }
  let m = DATE_ONLY.exec(text);
  if (m) {
    const w = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: 0, minute: 0, second: 0 };
    if (!validDay(w.year, w.month, w.day)) throw bad();
    const start = fromWallTime(w, timeZone);
    if (!endOfDay) return start;
    const next = fromWallTime(addDays(w, 1), timeZone);
    return new Date(next.getTime() - 1000);
  }
  m = LOCAL_DATE_TIME.exec(text);
  if (m) {
    const w = { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +(m[6] ?? 0) };
    if (!validDay(w.year, w.month, w.day) || w.hour > 23 || w.minute > 59 || w.second > 59) throw bad();
    return fromWallTime(w, timeZone);
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw bad();
}

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function addDays(w: WallTime, days: number): WallTime {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days));
  return { ...w, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Start of the zone's day that contains `date`, shifted by `days`. */
export function startOfDay(date: Date, timeZone: string, days = 0): Date {
  const w = wallTime(date, timeZone);
  return fromWallTime(addDays({ ...w, hour: 0, minute: 0, second: 0 }, days), timeZone);
}

export interface DateRange {
  since: Date;
  until: Date;
}

export interface RangeRules {
  /** Used when neither end is given: the last N days up to now (default 7). */
  defaultDays?: number;
  /** Longest allowed span in days; checked before any call. */
  maxDays?: number;
  /** Field names used in errors. */
  fields?: [string, string];
  now?: Date;
}

/** Periods over before today: as a lone `since` they would also take in everything after them. */
const CLOSED_PERIODS = new Set(["yesterday", "last week", "last month", "last year"]);

/**
 * Refuses a lone `since` that names a finished period. "Shipped yesterday" and "orders since
 * yesterday" both reach a model as since "yesterday"; read either way, one of them gets a
 * plausible wrong count, so the caller says which (one extra call instead of a wrong answer).
 */
export function requireEndOfPeriod(since: string | number | undefined, until: string | number | undefined, fields: [string, string] = ["since", "until"]): void {
  if (until !== undefined || typeof since !== "string") return;
  const word = since.trim().toLowerCase().replace(/\s+/g, " ");
  if (!CLOSED_PERIODS.has(word) && !YEAR_MONTH.test(word)) return;
  const [sinceField, untilField] = fields;
  throw new InputError(
    untilField,
    `${sinceField} "${word}" without ${untilField} would run from ${word} to now`,
    `Pass ${untilField} "${word}" for ${word} alone, or ${untilField} "now" for ${word} until now.`,
  );
}

/**
 * A caller's since/until into instants. A date-only `until` means the end of that day. With only
 * `since`, the range runs to now ("since Monday"; a finished period alone is refused, see
 * requireEndOfPeriod); with only `until`, the N days ending on its day; with neither, the last N
 * days (today the last of them): every statistics tool takes "last 7 days" to mean the same days. A range longer than `maxDays` is refused, whichever
 * ends were given: never cut short without a word.
 */
export function parseRange(
  since: string | number | undefined,
  until: string | number | undefined,
  timeZone: string,
  rules: RangeRules = {},
): DateRange {
  const [sinceField, untilField] = rules.fields ?? ["since", "until"];
  requireEndOfPeriod(since, until, [sinceField, untilField]);
  const days = rules.defaultDays ?? 7;
  const now = rules.now ?? new Date();
  const end = until === undefined ? undefined : parseDateInput(untilField, until, timeZone, true, now);
  const start = since === undefined ? undefined : parseDateInput(sinceField, since, timeZone, false, now);
  const range: DateRange =
    start && end
      ? { since: start, until: end }
      : start
        ? { since: start, until: now }
        : end
          ? // The N calendar days ending on until's day, as with no dates: "until now" alone is
            // the last 7 days, not 7 times 24 hours back from this minute (8 days touched).
            { since: startOfDay(end, timeZone, -(days - 1)), until: end }
          : { since: startOfDay(now, timeZone, -(days - 1)), until: now };
  if (range.until.getTime() < range.since.getTime()) {
    throw new InputError(untilField, `${untilField} is before ${sinceField}`, `Swap them, or give a ${untilField} after ${sinceField}.`);
  }
  const spanMs = range.until.getTime() - range.since.getTime();
  if (rules.maxDays !== undefined && spanMs > rules.maxDays * 86_400_000) {
    const to = until === undefined ? "now" : toDateInZone(range.until, timeZone);
    const spanDays = spanMs / 86_400_000;
    const shown = Math.round(spanDays) > rules.maxDays ? String(Math.round(spanDays)) : spanDays.toFixed(1);
    throw new InputError(
      sinceField,
      `the range is longer than the ${rules.maxDays} days this operation allows (${toDateInZone(range.since, timeZone)} to ${to} is ${shown} days)`,
      `Narrow ${sinceField}..${untilField} to at most ${rules.maxDays} days, or split it into several calls.`,
    );
  }
  return range;
}
