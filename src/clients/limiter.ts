/**
 * Keeps each key (a page id) at or under `limit` calls per `windowMs` by queueing callers:
 * every caller reserves the earliest slot that keeps the window full-but-not-over, FIFO.
 */
export class RateLimiter {
  private readonly slots = new Map<string, number[]>();
  private sweepAt = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 1000,
  ) {}

  /** Resolves when the caller may send; returns how long it waited in ms. */
  async acquire(key: string): Promise<number> {
    const now = Date.now();
    this.sweep(now);
    const times = this.slots.get(key) ?? [];
    const anchor = times.length >= this.limit ? times[times.length - this.limit]! + this.windowMs : now;
    const slot = Math.max(now, anchor);
    times.push(slot);
    if (times.length > this.limit) times.splice(0, times.length - this.limit);
    this.slots.set(key, times);
    const wait = slot - now;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return wait;
  }

  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 10 * this.windowMs;
    for (const [key, times] of this.slots) {
      if (times[times.length - 1]! < now - this.windowMs) this.slots.delete(key);
    }
  }
}
