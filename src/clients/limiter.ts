import { cancelledByClient } from "./errors.js";
import { onAbort } from "./on-abort.js";

/**
 * The limiter's clock, in milliseconds: monotonic, so a step of the wall clock (NTP, a laptop
 * waking) neither empties the window at once nor freezes it.
 */
export const clock = (): number => performance.now();

/** How long a key's requests count from the latest time they can have arrived after the upstream refused one for the rate. */
export const CAUTIOUS_MS = 60_000;

/** A granted place in a key's rate. */
export interface Slot {
  /**
   * Says (once) when the request reached the upstream, in `clock()` time: by `latest` for certain
   * (its answer began, or its try ended; now by default), and, where the sender can tell,
   * `likely`: when it most likely did (see round-trip.ts). The key counts it from `likely` unless
   * the upstream refused one of its requests for the rate within CAUTIOUS_MS.
   */
  arrived(latest?: number, likely?: number): void;
  /** The upstream refused it for the rate (HTTP 429): the key counts from `latest` for CAUTIOUS_MS. */
  refused(): void;
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
 * was sent, not after its answer began. A request granted at the send bunches with the next ones
 * whenever something delays it on the way (a connection being opened, a proxy opening its own,
 * a TLS handshake, a pool with no free connection, a busy event loop): the next ones go a window
 * after the send while it arrived later. So a granted request holds its place until its answer
 * begins (or its try fails), and only then counts, from when it most likely arrived: any delay on
 * its way is then in its answer's time too. Callers wait FIFO.
 */
export class RateLimiter {
  private readonly keys = new Map<string, KeyState>();
  /** Keys the upstream refused lately, and until when they count from `latest`. */
  private readonly refusals = new Map<string, number>();

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

  /** Whether the upstream refused one of the key's requests for the rate within CAUTIOUS_MS. */
  cautious(key: string): boolean {
    const until = this.refusals.get(key);
    if (until === undefined) return false;
    if (until > clock()) return true;
    this.refusals.delete(key);
    return false;
  }

  private slot(key: string, state: KeyState): Slot {
    state.pending++;
    let done = false;
    return {
      arrived: (latest = clock(), likely) => {
        if (done) return;
        done = true;
        state.pending--;
        const at = likely === undefined || this.cautious(key) ? latest : Math.min(likely, latest);
        let i = state.sent.length;
        while (i > 0 && state.sent[i - 1]! > at) i--;
        state.sent.splice(i, 0, at);
        this.pump(key, state);
      },
      refused: () => {
        const now = clock();
        for (const [other, until] of this.refusals) if (until <= now) this.refusals.delete(other);
        this.refusals.set(key, now + CAUTIOUS_MS);
      },
    };
  }

  private pump(key: string, state: KeyState): void {
    const now = clock();
    while (state.sent.length > 0 && state.sent[0]! <= now - this.windowMs) state.sent.shift();
    while (state.waiters.length > 0 && state.sent.length + state.pending < this.limit) state.waiters.shift()!.grant();
    if (state.timer === undefined && state.waiters.length > 0 && state.sent.length > 0) {
      // Woken when the oldest arrival leaves the window; pending ones wake it through arrived().
      state.timer = setTimeout(
        () => {
          state.timer = undefined;
          this.pump(key, state);
        },
        Math.ceil(state.sent[0]! + this.windowMs - now),
      );
    }
    if (state.waiters.length === 0 && state.pending === 0 && state.sent.length === 0) this.keys.delete(key);
  }
}
