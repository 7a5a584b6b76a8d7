// Moves this process's clock by TEST_CLOCK_OFFSET_MS, set by test/setup-clock.ts, which also puts
// this file in NODE_OPTIONS: servers the tests spawn then share the tests' clock. The clock runs at
// real speed from there, so timers, rate limits and timeouts behave as usual.
const offset = Number(process.env.TEST_CLOCK_OFFSET_MS);
if (Number.isFinite(offset) && !globalThis.__testClock) {
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate;
  globalThis.__testClock = true;
}
