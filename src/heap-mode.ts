import { setFlagsFromString } from "node:v8";

/**
 * How V8 sizes the heap. On stdio the server lives beside one assistant for hours: a small, steady
 * footprint matters more than peak throughput, and with --optimize-for-size it keeps near 100 MB
 * where by default short-lived garbage piles up to ~150 MB before the first full collection (npm
 * run bench). A big shop's index turns that around: reading 55,000 orders with a tiny young
 * generation spent 20 of 41 s of CPU collecting garbage and took 55 s; without it, 4 of 16 s and
 * 37 s (bench/data-scale.ts, 100x). So the process favours size until an index grows big, then
 * throughput for good. Not for HTTP, where size first would halve throughput under load.
 */
let small = false;

/** Favour a small footprint (stdio). */
export function favourSize(): void {
  setFlagsFromString("--optimize-for-size");
  small = true;
}

/** Rows an index holds past which the process favours throughput. */
export const BIG_INDEX_ROWS = 20_000;

/** An index grew big: favour throughput from now on. */
export function favourThroughput(): void {
  if (!small) return;
  small = false;
  setFlagsFromString("--no-optimize-for-size");
}
