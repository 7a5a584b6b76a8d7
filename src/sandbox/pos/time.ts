/** A UTC record time without a zone suffix, the way the POS writes them. */
export function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Milliseconds of a record time written by iso() (or with a zone suffix). */
export function ms(time: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(time) ? time : `${time}Z`);
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
