/** Whether `time` is a record time in the form the sandbox writes them: `2026-01-05T07:15:02` (UTC). */
function isRecordTime(time: string): boolean {
  return time.length === 19 && time[10] === "T" && time[4] === "-" && time[16] === ":";
}

const text = (ms: number) => new Date(ms).toISOString().slice(0, 19);
/** Instants whose text has a four-digit year (0000-9999): only those compare as text. */
const FIRST_TEXT = Date.parse("0000-01-01T00:00:00Z");
const LAST_TEXT = Date.parse("9999-12-31T23:59:59Z");
const textable = (ms: number | undefined) => ms === undefined || (ms >= FIRST_TEXT && ms <= LAST_TEXT);

/**
 * A test of record times against [from, to] (UTC ms, both ends included, either left open). A time
 * in the sandbox's own form is compared as text with the ends rounded inward to whole seconds,
 * which gives what comparing the instants gives and needs no parsing: at tens of thousands of
 * records (SandboxOptions.scale) parsing was most of a list request. Other forms go to `parse`.
 */
export function timeTest(from: number | undefined, to: number | undefined, parse: (time: string) => number): (time: string) => boolean {
  const parsed = (time: string) => {
    const at = parse(time);
    return (from === undefined || at >= from) && (to === undefined || at <= to);
  };
  if (!textable(from) || !textable(to)) return parsed;
  const first = from === undefined ? undefined : text(Math.ceil(from / 1000) * 1000);
  const last = to === undefined ? undefined : text(Math.floor(to / 1000) * 1000);
  return (time) => (isRecordTime(time) ? (first === undefined || time >= first) && (last === undefined || time <= last) : parsed(time));
}
