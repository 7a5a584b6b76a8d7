// The sandbox builds its data around "now" and tests name calendar days in it, so every test
// process sets its clock to the same instant when it starts and lets it run at real speed from
// there (timers, rate limits and timeouts behave as usual). A run on any later day sees the same
// shop. Child processes (the e2e tests' servers) keep the real clock.
const START = Date.parse("2026-11-22T07:30:00Z");
const RealDate = Date;
const offset = START - RealDate.now();

class ShiftedDate extends RealDate {
  constructor(...args: ConstructorParameters<DateConstructor> | []) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...(args as ConstructorParameters<DateConstructor>));
  }
  static override now(): number {
    return RealDate.now() + offset;
  }
}

globalThis.Date = ShiftedDate as DateConstructor;
