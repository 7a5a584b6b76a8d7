import { cancelledByClient } from "./errors.js";
import { onAbort } from "./on-abort.js";

/** A granted place in a key's rate: say (once) when the request has reached the upstream by the latest. */
export interface Slot {
  arrived(at?: number): void;
}

interface KeyState {
  /** When the key's recent requests had arrived by, oldest first. */
  sent: number[];
  /** Granted requests not known to have arrived yet (sending, or waiting for their answer). */
  pending: number;
  waiters: { grant: () => void }[];
  timer?: NodeJS.Timeout;
}

/**
 * Keeps each key (a page id) at or under `limit` requests per `windowMs` as the upstream counts
 * them: by arrival. When a request arrives cannot be seen from here, only bounded: not before it
 * was sent, not after its answer began. So a slot counts from when its answer began (or its try
 * failed), and until then it holds its place. Timing slots when they were granted let requests
 * that left late (behind a slow connect, a proxy opening its own connection, a TLS handshake)
 * arrive together with the next ones; timing them when they were written to the socket still
 * misses delays past the socket. With the answer's time, request k+limit is sent no earlier than
 * `windowMs` after request k arrived, whatever the path in between does. Callers wait FIFO.
 */
export class RateLimiter {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 1000,
  ) {}

  /** Resolves with a slot when the caller may send; rejects if `signal` aborts first. */
  acquire(key: string, signal?: AbortSignal): Promise<Slot> {
    const state = this.keys.get(key) ?? { sent: [], pending: 0, waiters: [] };
    this.keys.set(key, state);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(cancelledByClient());
      const waiter = {
        grant: () => {
          forget?.();
          resolve(this.slot(key, state));
        },
      };
      const forget = signal
        ? onAbort(signal, () => {
            state.waiters.splice(state.waiters.indexOf(waiter), 1);
            reject(cancelledByClient());
          })
        : undefined;
      state.waiters.push(waiter);
      this.pump(key, state);
    });
  }

  private slot(key: string, state: KeyState): Slot {
    state.pending++;
    let done = false;
    return {
      arrived: (at = Date.now()) => {
        if (done) return;
        done = true;
        state.pending--;
        let i = state.sent.length;
        while (i > 0 && state.sent[i - 1]! > at) i--;
        state.sent.splice(i, 0, at);
        this.pump(key, state);
      },
    };
  }

  private pump(key: string, state: KeyState): void {
    const now = Date.now();
    while (state.sent.length > 0 && state.sent[0]! <= now - this.windowMs) state.sent.shift();
    while (state.waiters.length > 0 && state.sent.length + state.pending < this.limit) state.waiters.shift()!.grant();
    if (state.timer === undefined && state.waiters.length > 0 && state.sent.length > 0) {
      // Woken when the oldest arrival leaves the window; pending ones wake it through arrived().
      state.timer = setTimeout(() => {
        state.timer = undefined;
        this.pump(key, state);
      }, state.sent[0]! + this.windowMs - now);
    }
    if (state.waiters.length === 0 && state.pending === 0 && state.sent.length === 0) this.keys.delete(key);
  }
}
