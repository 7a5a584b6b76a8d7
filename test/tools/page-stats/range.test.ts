import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/clients/errors.js";
import { dateTimeRange, dayRange, rangeOut, statsRange, unixSpan, wholeDays } from "../../../src/tools/page-stats/range.js";
import { dayLabelDate, groupRows, rowHour, sumRows } from "../../../src/tools/page-stats/rows.js";

const VN = "Asia/Ho_Chi_Minh";
const NOW = new Date("2026-11-20T05:00:00Z"); // 12:00 in Vietnam

describe("statistics ranges per endpoint format", () => {
  it("converts shop dates to Unix seconds with the zone offset", () => {
    const r = statsRange({ since: "2026-11-01", until: "2026-11-02" }, VN, 31);
    // 2026-11-01 00:00 +07:00 = 2026-10-31 17:00 UTC; the bare end date covers that whole day.
    expect(unixSpan(r)).toEqual({ since: Date.UTC(2026, 9, 31, 17) / 1000, until: Date.UTC(2026, 10, 2, 16, 59, 59) / 1000 });
  });

  it("writes DD/MM/YYYY HH:MM:SS ranges in the shop zone, across a year boundary", () => {
    const r = statsRange({ since: "2025-12-31T20:30:00Z", until: "2026-01-01T16:59:59Z" }, VN, 31);
    expect(dateTimeRange(r, VN)).toBe("01/01/2026 03:30:00 - 01/01/2026 23:59:59");
    const crossing = statsRange({ since: "2025-12-30", until: "2026-01-02" }, VN, 31);
    expect(dateTimeRange(crossing, VN)).toBe("30/12/2025 00:00:00 - 02/01/2026 23:59:59");
  });

  it("writes DD/MM/YYYY day ranges over whole days, across a month boundary", () => {
    const r = wholeDays(statsRange({ since: "2026-01-31T22:00:00", until: "2026-02-01T08:00:00" }, VN, 31), VN);
    expect(dayRange(r, VN)).toBe("31/01/2026 - 01/02/2026");
    expect(rangeOut(r, VN)).toEqual({ since: "2026-01-31T00:00:00+07:00", until: "2026-02-01T23:59:59+07:00" });
    // A UTC instant late on the 28th is already March 1st in Vietnam.
    const leap = statsRange({ since: "2026-02-28T18:00:00Z", until: "2026-03-01T10:00:00Z" }, VN, 31);
    expect(dayRange(leap, VN)).toBe("01/03/2026 - 01/03/2026");
  });

  it("honours another zone", () => {
    const r = statsRange({ since: "2026-03-01", until: "2026-03-01" }, "America/New_York", 31);
    expect(dateTimeRange(r, "America/New_York")).toBe("01/03/2026 00:00:00 - 01/03/2026 23:59:59");
    expect(unixSpan(r).since).toBe(Date.UTC(2026, 2, 1, 5) / 1000);
  });

  it("defaults to the last 7 days up to now", () => {
    const r = statsRange({}, VN, 31, NOW);
    expect(rangeOut(r, VN)).toEqual({ since: "2026-11-14T00:00:00+07:00", until: "2026-11-20T12:00:00+07:00" });
  });

  it("rejects reversed and over-long ranges, naming the field", () => {
    expect(() => statsRange({ since: "2026-11-10", until: "2026-11-01" }, VN, 31)).toThrow(/until: until is before since/);
    const long = () => statsRange({ since: "2026-01-01", until: "2026-03-01" }, VN, 31);
    expect(long).toThrow(InputError);
    expect(long).toThrow(/since: the range is longer than the 31 days/);
    expect(() => statsRange({ since: "2026-01-01", until: "2026-01-31" }, VN, 31)).not.toThrow();
  });
});

describe("row shaping", () => {
  it("dates D/M labels by the range end, across a year boundary", () => {
    const end = new Date("2026-01-02T10:00:00Z");
    expect(dayLabelDate("2/1", end, VN)).toBe("2026-01-02");
    expect(dayLabelDate("31/12", end, VN)).toBe("2025-12-31");
    expect(dayLabelDate("bad", end, VN)).toBeUndefined();
  });

  it("uses the year of a D/M/YYYY label", () => {
    const end = new Date("2026-01-02T10:00:00Z");
    expect(dayLabelDate("6/7/2026", end, VN)).toBe("2026-07-06");
    expect(dayLabelDate("31/12/2024", end, VN)).toBe("2024-12-31");
  });

  it("reads the UTC hour_in_integer into the shop zone, else keeps the page-local hour", () => {
    expect(rowHour({ hour: "2026-01-01T06:00:00", hour_in_integer: "20251231230000" }, VN)).toBe("2026-01-01T06:00:00+07:00");
    expect(rowHour({ hour: "2026-01-01T06:00:00" }, VN)).toBe("2026-01-01T06:00:00");
  });

  it("sums and groups rows", () => {
    const rows = [
      { date: "d1", a: 1, b: "2" },
      { date: "d1", a: 3, b: 0 },
      { date: "d2", a: 5 },
    ];
    expect(sumRows(rows, ["a", "b"])).toEqual({ a: 9, b: 2 });
    expect(groupRows(rows, "date", ["a"])).toEqual([
      { date: "d1", a: 4 },
      { date: "d2", a: 5 },
    ]);
  });
});
