// Spans of update (or creation) times, Unix seconds, both ends inclusive, that a read has covered:
// a read saved as it goes names what it has read whole, so it can go on from there and an answer
// can say how far back it holds every row.

export type Span = [number, number];

/** The open end of a span: updates from its start on, whenever they come. */
export const OPEN = Number.MAX_SAFE_INTEGER;

/** `done` with `span` added, merged with what it touches or adjoins, oldest first. */
export function addSpan(done: readonly Span[], span: Span): Span[] {
  if (span[0] > span[1]) return [...done];
  const all = [...done, span].sort((a, b) => a[0] - b[0]);
  const merged: Span[] = [];
  for (const [a, b] of all) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** The parts of `span` not in `done`, newest first (a read fills the recent past first). */
export function gaps(span: Span, done: readonly Span[]): Span[] {
  const out: Span[] = [];
  let from = span[0];
  for (const [a, b] of [...done].sort((x, y) => x[0] - y[0])) {
    if (b < from || a > span[1]) continue;
    if (a > from) out.push([from, a - 1]);
    from = Math.max(from, b + 1);
    if (from > span[1]) break;
  }
  if (from <= span[1]) out.push([from, span[1]]);
  return out.reverse();
}

/** From when on every row is held, by the spans read (their newest reaching now); undefined when none does. */
export function heldBack(done: readonly Span[], top = OPEN): number | undefined {
  const newest = done.find(([, b]) => b >= top);
  return newest?.[0];
}
