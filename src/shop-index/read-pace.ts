/**
 * How fast a read of the shop index goes, for an answer to say when to ask again (row-index.ts).
 *
 * The rows held are a poor clock: the order reader keeps a window's rows only once the whole window
 * is read (thousands at once, after a minute on a slow upstream), and a read's first pages can be
 * slow for reasons that pass (a cold upstream). Going by the rows held, a read of 111 of 68,000
 * orders once advised waiting 5.5 days. So the pace is that of the read's requests as they are
 * answered (a full page each) over its last seconds, within two bounds set by the platform now: the
 * usual round trip of its latest requests (waits for the rate limit included: the client queues
 * them) times the requests it keeps in flight (it keeps them while its answer's client is away:
 * row-index.ts), a full page each, within the platform's configured rate. Never faster than that:
 * the advice is never sooner than the platform allows; never slower than half of it: a read slowed
 * by what has passed (a cold upstream's first pages) is not believed to stay that slow.
 */

/**
 * The read's pace is taken over about the last `windowMs` (sampled every `sampleMs`): a read
 * sharing the machine with another goes faster once that one ends. The platform's is that of the
 * read's latest `answers` requests. A read that makes none here (another replica's) goes by the
 * rows it writes. Tests shorten them.
 */
export const PACE = { windowMs: 15_000, sampleMs: 2_000, answers: 40 };

export class ReadPace {
  /** Rows held and requests answered at moments of the read, the first at least PACE.windowMs ago if it is that old. */
  private samples: { at: number; rows: number; answered: number }[] = [];
  private answered = 0;
  /** Round trips (ms) of its latest requests. */
  private trips: number[] = [];
  private inFlight = 0;
  /** The most requests it had in flight at once. */
  private widest = 0;

  constructor(
    /** Rows one list request brings at most. */
    private readonly perRequest: number,
    /** Requests a second the platform allows the read (a page's limit, a configured POS rate); undefined when it documents none. */
    private readonly ratePerSecond: number | undefined,
  ) {}

  /** A new read begins, holding `rows`. */
  restart(rows: number): void {
    this.samples = [];
    this.trips = [];
    this.answered = 0;
    this.widest = this.inFlight;
    this.note(rows);
  }

  /** Notes the rows held now. */
  note(rows: number): void {
    const now = Date.now();
    const last = this.samples.at(-1);
    if (last && now - last.at < PACE.sampleMs) return;
    this.samples.push({ at: now, rows, answered: this.answered });
    while (this.samples.length > 2 && now - this.samples[1]!.at >= PACE.windowMs) this.samples.shift();
  }

  /** Sends one of the read's requests, timing it. */
  async timed<T>(send: () => Promise<T>): Promise<T> {
    this.inFlight++;
    this.widest = Math.max(this.widest, this.inFlight);
    const sent = Date.now();
    try {
      return await send();
    } finally {
      this.inFlight--;
      this.answered++;
      this.trips.push(Date.now() - sent);
      if (this.trips.length > PACE.answers) this.trips.shift();
    }
  }

  /** Rows a second the read goes at, holding `rows` now; undefined while it is not known. */
  rowsPerSecond(rows: number): number | undefined {
    const [from] = this.samples;
    const seconds = from ? (Date.now() - from.at) / 1000 : 0;
    if (this.trips.length === 0) return seconds > 0 && rows > from!.rows ? (rows - from!.rows) / seconds : undefined;
    const own = seconds > 0 ? ((this.answered - from!.answered) * this.perRequest) / seconds : 0;
    // The median: a few slow answers (the first of a cold upstream) do not set it.
    const trips = [...this.trips].sort((a, b) => a - b);
    const trip = Math.max(1, trips[Math.floor(trips.length / 2)]!) / 1000;
    const platform = Math.min(this.ratePerSecond ?? Number.POSITIVE_INFINITY, Math.max(1, this.widest) / trip) * this.perRequest;
    return Math.min(platform, Math.max(own, platform / 2));
  }
}

/**
 * A view of `client` whose upstream requests `pace` times: the same view in all else (its
 * signal, request id and logger: call-signal.ts), for a reader that knows nothing of it.
 */
export function metered<C extends object>(client: C, pace: ReadPace): C {
  const core = Reflect.get(client, "core") as object | undefined;
  if (!core) return client;
  const timedCore = new Proxy(core, {
    get: (target, key, receiver) => {
      const value = Reflect.get(target, key, receiver);
      if (key !== "request" || typeof value !== "function") return value;
      return (...args: unknown[]) => pace.timed(() => (value as (...a: unknown[]) => Promise<unknown>).apply(receiver, args));
    },
  });
  return new Proxy(client, { get: (target, key, receiver) => (key === "core" ? timedCore : Reflect.get(target, key, receiver)) });
}
