import { describe, expect, it } from "vitest";
import { parseDuration, shortDuration } from "../../src/format/duration.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("parseDuration", () => {
  it("reads a span as people write it, in English or Vietnamese, short or long, summed", () => {
    const cases: [string, number][] = [
      ["2 days", 2 * DAY],
      ["36 hours", 36 * HOUR],
      ["1 week", 7 * DAY],
      ["90 minutes", 90 * MINUTE],
      ["2d", 2 * DAY],
      ["36h", 36 * HOUR],
      ["1w", 7 * DAY],
      ["1.5 days", 36 * HOUR],
      ["1 day 12 hours", 36 * HOUR],
      ["1 day and 12 hours", 36 * HOUR],
      ["2 ngày", 2 * DAY],
      ["3 tuần", 21 * DAY],
      [" 2 Days ", 2 * DAY],
    ];
    for (const [text, ms] of cases) expect(parseDuration("f", text), text).toBe(ms);
  });

  it("refuses what is not a span, naming the forms it takes", () => {
    for (const text of ["", "soon", "2", "days", "2 fortnights", "-1 day", "0 days", "2 days ago"]) {
      expect(() => parseDuration("status_older_than", text), text).toThrow(/status_older_than: cannot read/);
    }
    expect(() => parseDuration("f", "soon")).toThrow(expect.objectContaining({ hint: expect.stringContaining('"2 days", "36 hours", "1 week"') }));
  });
});

describe("shortDuration", () => {
  it("shows the two largest units", () => {
    expect(shortDuration(3 * DAY + 4 * HOUR + 5 * MINUTE)).toBe("3d 4h");
    expect(shortDuration(5 * HOUR + 12 * MINUTE + 30_000)).toBe("5h 12m");
    expect(shortDuration(12 * MINUTE)).toBe("12m");
    expect(shortDuration(2 * DAY + 10 * MINUTE)).toBe("2d");
    expect(shortDuration(20_000)).toBe("0m");
  });
});
