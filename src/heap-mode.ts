import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * How V8 sizes the heap. On stdio the server lives beside one assistant for hours: a small, steady
 * footprint matters more than peak throughput, and with --optimize-for-size it keeps near 100 MB
 * where by default short-lived garbage piles up to ~150 MB before the first full collection (npm
 * run bench). A shop index's first read turns that around: it parses page after page, and reading
 * 55,000 orders with the small young generation spent 20 of 41 s of CPU collecting garbage and
 * took 55 s; with V8's defaults, 4 of 16 s and 37 s (bench/data-scale.ts, 100x). So while such a
 * read runs the process favours throughput, and size again once none does (left in the defaults,
 * a 100x session held 400 MB as found, 231 MB after a full collection). HTTP keeps the defaults:
 * size first would halve its throughput under load.
 */
let small = false;
let reads = 0;
let flag: string | undefined;
/** Heap in use (MB) past which a read's garbage is collected, checked every READ_CHECK_MS. */
const READ_HEAP_MB = 160;
const READ_CHECK_MS = 250;
let collect: (() => void) | undefined;
let checking: NodeJS.Timeout | undefined;

/** A full collection, asked of V8 itself (the process does not run with --expose-gc). */
function collector(): () => void {
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  return collect;
}

function watchHeap(): void {
  if (!small || reads === 0) {
    clearInterval(checking);
    checking = undefined;
    return;
  }
  if (checking) return;
  const gc = collector();
  checking = setInterval(() => {
    if (getHeapStatistics().used_heap_size > READ_HEAP_MB * 2 ** 20) gc();
  }, READ_CHECK_MS).unref();
}

function apply(): void {
  const wanted = small && reads === 0 ? "--optimize-for-size" : "--no-optimize-for-size";
  if (wanted === flag) return;
  if (flag !== undefined || small) setFlagsFromString(wanted);
  flag = wanted;
}

/** Favour a small footprint (stdio). */
export function favourSize(): void {
  small = true;
  apply();
}

/** Runs an index's read of what it does not hold yet (long, allocating as it parses page after page). */
export async function whileReading<T>(read: () => Promise<T>): Promise<T> {
  reads++;
  apply();
  watchHeap();
  try {
    return await read();
  } finally {
    reads--;
    apply();
    watchHeap();
  }
}
