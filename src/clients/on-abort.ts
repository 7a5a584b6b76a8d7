const leavers = new WeakMap<AbortSignal, Set<() => void>>();
const LISTENER = Symbol("listener");

/** The one listener of a signal, in a closure that holds nothing but the set of waits. */
function listen(signal: AbortSignal): Set<() => void> {
  const all = new Set<() => void>();
  const listener = () => {
    leavers.delete(signal);
    for (const each of [...all]) each();
  };
  Reflect.set(all, LISTENER, listener);
  leavers.set(signal, all);
  signal.addEventListener("abort", listener, { once: true });
  return all;
}

/**
 * Runs `leave` when `signal` aborts, and returns what forgets it. One listener on a signal however
 * many waits share it: a call's signal is shared by every upstream request, rate-limit wait and
 * retry pause the call has at once (a daily report reads every page's figures together, a lookup
 * dozens of address lists), and a listener each made Node warn of a leak past ten on one signal.
 * Callers check `signal.aborted` first: a signal that has aborted runs nothing added later.
 */
export function onAbort(signal: AbortSignal, leave: () => void): () => void {
  const waiting = leavers.get(signal) ?? listen(signal);
  waiting.add(leave);
  return () => {
    waiting.delete(leave);
    // The last wait gone, so is the listener: Node holds a signal of AbortSignal.any (a call's
    // deadline on top of its cancellation) for as long as it has one, and with it what it reaches.
    if (waiting.size === 0 && leavers.get(signal) === waiting) {
      leavers.delete(signal);
      signal.removeEventListener("abort", Reflect.get(waiting, LISTENER));
    }
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
