const leavers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `leave` when `signal` aborts, and returns what forgets it. One listener on a signal however
 * many waits share it: a call's signal is shared by every upstream request, rate-limit wait and
 * retry pause the call has at once (a daily report reads every page's figures together, a lookup
 * dozens of address lists), and a listener each made Node warn of a leak past ten on one signal.
 * Callers check `signal.aborted` first: a signal that has aborted runs nothing added later.
 */
export function onAbort(signal: AbortSignal, leave: () => void): () => void {
  let waiting = leavers.get(signal);
  if (!waiting) {
    const all = new Set<() => void>();
    waiting = all;
    leavers.set(signal, all);
    signal.addEventListener(
      "abort",
      () => {
        for (const each of [...all]) each();
      },
      { once: true },
    );
  }
  waiting.add(leave);
  return () => {
    waiting.delete(leave);
  };
}

/** Waits `ms`, or rejects with `cancelled()` as soon as `signal` aborts; leaves no listener behind. */
export function pause(ms: number, signal: AbortSignal | undefined, cancelled: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const forget = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(cancelled());
        })
      : undefined;
    const timer = setTimeout(() => {
      forget?.();
      resolve();
    }, ms);
  });
}
