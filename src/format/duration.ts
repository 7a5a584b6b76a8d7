import { InputError } from "../clients/errors.js";

// Spans of time as people say them ("2 days", "36 hours", "1 week") and as rows show them ("2d 5h").

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Unit words, English and Vietnamese, with their short forms. */
const UNITS: [RegExp, number][] = [
  [/^(m|mins?|minutes?|phút)$/, MINUTE],
  [/^(h|hrs?|hours?|giờ|tiếng)$/, HOUR],
  [/^(d|days?|ngày)$/, DAY],
  [/^(w|wks?|weeks?|tuần)$/, 7 * DAY],
];

const DURATION_FORMS = '"2 days", "36 hours", "1 week", "90 minutes" (or 2d, 36h, 1w)';

/** Milliseconds of a span: a number and a unit (minutes, hours, days, weeks), or a sum of them ("1 day 12 hours"). */
export function parseDuration(field: string, value: string): number {
  const text = value.trim().toLowerCase();
  const parts = [...text.matchAll(/(\d+(?:[.,]\d+)?)\s*([^\d\s.,]+)/g)];
  const rest = text.replace(/(\d+(?:[.,]\d+)?)\s*([^\d\s.,]+)/g, "").replace(/\band\b|[\s,]/g, "");
  let total = 0;
  for (const [, amount, unit] of parts) {
    const size = UNITS.find(([pattern]) => pattern.test(unit!))?.[1];
    if (size === undefined) total = Number.NaN;
    else total += Number(amount!.replace(",", ".")) * size;
  }
  if (!parts.length || rest || !(total > 0)) {
    throw new InputError(field, `cannot read ${JSON.stringify(value.slice(0, 40))} as a span of time`, `Use a number and a unit: minutes, hours, days or weeks, e.g. ${DURATION_FORMS}.`);
  }
  return Math.round(total);
}

/** A span in its two largest units, short: "3d 4h", "5h 12m", "12m". */
export function shortDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / MINUTE));
  const units: [number, string][] = [
    [Math.floor(minutes / 1440), "d"],
    [Math.floor(minutes / 60) % 24, "h"],
    [minutes % 60, "m"],
  ];
  const first = units.findIndex(([n]) => n > 0);
  if (first === -1) return "0m";
  return units
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n}${unit}`)
    .join(" ");
}
