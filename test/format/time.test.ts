import { describe, expect, it } from "vitest";
import { InputError } from "../../src/clients/errors.js";
import {
  offsetMinutes,
  parseDateInput,
  parseRange,
  recordTime,
  startOfDay,
  toDmy,
  toDmyHms,
  toIsoInZone,
  toUnix,
  toYmdHms,
} from "../../src/format/time.js";

const VN = "Asia/Ho_Chi_Minh";

describe("parseDateInput", () => {
  it("reads a bare date as midnight in the zone, or the end of that day", () => {
    expect(parseDateInput("since", "2026-11-20", VN).toISOString()).toBe("2026-11-19T17:00:00.000Z");
    expect(parseDateInput("until", "2026-11-20", VN, true).toISOString()).toBe("2026-11-20T16:59:59.000Z");
  });

  it("reads date-times without offset in the zone and with offset as given", () => {
    expect(parseDateInput("since", "2026-11-20T14:30:00", VN).toISOString()).toBe("2026-11-20T07:30:00.000Z");
    expect(parseDateInput("since", "2026-11-20 14:30", VN).toISOString()).toBe("2026-11-20T07:30:00.000Z");
    expect(parseDateInput("since", "2026-11-20T14:30:00Z", VN).toISOString()).toBe("2026-11-20T14:30:00.000Z");
    expect(parseDateInput("since", "2026-11-20T14:30:00+02:00", VN).toISOString()).toBe("2026-11-20T12:30:00.000Z");
  });

  it("reads Unix seconds as numbers or digit strings", () => {
    expect(parseDateInput("since", 1_763_600_000, VN).getTime()).toBe(1_763_600_000_000);
    expect(parseDateInput("since", "1763600000", VN).getTime()).toBe(1_763_600_000_000);
  });

  it("reads today, yesterday and now against the zone's calendar", () => {
    // 2026-11-22 01:30 in Ho Chi Minh City is still 2026-11-21 in UTC.
    const now = new Date("2026-11-21T18:30:00Z");
    expect(parseDateInput("since", "today", VN, false, now).toISOString()).toBe("2026-11-21T17:00:00.000Z");
    expect(parseDateInput("until", "Today", VN, true, now).toISOString()).toBe("2026-11-22T16:59:59.000Z");
    expect(parseDateInput("since", " yesterday ", VN, false, now).toISOString()).toBe("2026-11-20T17:00:00.000Z");
    expect(parseDateInput("until", "yesterday", VN, true, now).toISOString()).toBe("2026-11-21T16:59:59.000Z");
    expect(parseDateInput("since", "yesterday", "UTC", false, now).toISOString()).toBe("2026-11-20T00:00:00.000Z");
    expect(parseDateInput("until", "now", VN, true, now)).toBe(now);
  });

  it("rejects impossible dates naming the field, and says what day today is", () => {
    const now = new Date("2026-11-21T18:30:00Z");
    expect(() => parseDateInput("since", "2026-02-30", VN)).toThrow(InputError);
    expect(() => parseDateInput("until", "next week", VN, true, now)).toThrow(/until: cannot read "next week"/);
    expect(() => parseDateInput("until", "constructor", VN)).toThrow(/until: cannot read "constructor"/);
    expect(() => parseDateInput("since", "24:00", VN, false, now)).toThrow(/since: cannot read "24:00"/);
    try {
      parseDateInput("since", "22/11/2026", VN, false, now);
    } catch (error) {
      expect((error as InputError).hint).toContain("today is Sunday 2026-11-22 in Asia/Ho_Chi_Minh");
    }
    expect.assertions(5);
  });

  it("reads this/last week (from Monday) and this/last month, their end as until", () => {
    // Sunday 22 November 2026, 12:00 in Ho Chi Minh City.
    const now = new Date("2026-11-22T05:00:00Z");
    const read = (text: string, end = false) => parseDateInput(end ? "until" : "since", text, VN, end, now).toISOString();
    expect(read("this week")).toBe("2026-11-15T17:00:00.000Z"); // Monday 16 November
    expect(read("This  Week", true)).toBe("2026-11-22T16:59:59.000Z"); // Sunday 22, its end
    expect(read("last week")).toBe("2026-11-08T17:00:00.000Z"); // Monday 9 November
    expect(read("last week", true)).toBe("2026-11-15T16:59:59.000Z");
    expect(read("this month")).toBe("2026-10-31T17:00:00.000Z");
    expect(read("this month", true)).toBe("2026-11-30T16:59:59.000Z");
    expect(read("last month")).toBe("2026-09-30T17:00:00.000Z");
    expect(read("last month", true)).toBe("2026-10-31T16:59:59.000Z");
    // A Monday is the first day of its own week; January's last month is last year's December.
    const monday = new Date("2026-01-05T01:00:00Z");
    expect(parseDateInput("since", "this week", VN, false, monday).toISOString()).toBe("2026-01-04T17:00:00.000Z");
    expect(parseDateInput("since", "last month", VN, false, monday).toISOString()).toBe("2025-11-30T17:00:00.000Z");
    expect(parseDateInput("until", "last month", VN, true, monday).toISOString()).toBe("2025-12-31T16:59:59.000Z");
  });

  it("reads this/last year, a month as YYYY-MM, the last N days or weeks and N days ago", () => {
    const now = new Date("2026-11-22T05:00:00Z"); // Sunday 22 November 2026, 12:00 in VN
    const read = (text: string, end = false) => parseDateInput(end ? "until" : "since", text, VN, end, now).toISOString();
    expect(read("this year")).toBe("2025-12-31T17:00:00.000Z");
    expect(read("this year", true)).toBe("2026-12-31T16:59:59.000Z");
    expect(read("last year")).toBe("2024-12-31T17:00:00.000Z");
    expect(read("last year", true)).toBe("2025-12-31T16:59:59.000Z");
    expect(read("2026-10")).toBe("2026-09-30T17:00:00.000Z");
    expect(read("2026-10", true)).toBe("2026-10-31T16:59:59.000Z");
    expect(read("2025-12", true)).toBe("2025-12-31T16:59:59.000Z");
    expect(() => read("2026-13")).toThrow(/cannot read/);
    expect(read("last 3 days")).toBe("2026-11-19T17:00:00.000Z"); // 20, 21 and 22 November
    expect(read("Past 7 Days")).toBe("2026-11-15T17:00:00.000Z");
    expect(read("last 3 days", true)).toBe("2026-11-22T16:59:59.000Z");
    expect(read("last 4 weeks")).toBe("2026-10-25T17:00:00.000Z"); // 28 days: 26 October to 22 November
    expect(read("past 1 week")).toBe("2026-11-15T17:00:00.000Z");
    expect(read("last 2 weeks", true)).toBe("2026-11-22T16:59:59.000Z");
    expect(read("3 days ago")).toBe("2026-11-18T17:00:00.000Z");
    expect(read("3 days ago", true)).toBe("2026-11-19T16:59:59.000Z");
    expect(() => read("last 0 days")).toThrow(/cannot read/);
  });

  it("refuses a finished period or a month as since alone, naming both readings", () => {
    for (const word of ["yesterday", "last week", "last month", "last year", "2026-10"]) {
      expect(() => parseRange(word, undefined, VN)).toThrow(`since "${word}" without until would run from ${word} to now`);
      expect(() => parseRange(word, word, VN)).not.toThrow();
    }
    for (const word of ["today", "this month", "this year", "last 7 days", "3 days ago", "2026-11-01"]) expect(() => parseRange(word, undefined, VN)).not.toThrow();
  });

  it("reads a time of today: 12:00, 9:30, noon", () => {
    const now = new Date("2026-11-22T08:00:00Z"); // 15:00 in Vietnam
    expect(parseDateInput("since", "12:00", VN, false, now).toISOString()).toBe("2026-11-22T05:00:00.000Z");
    expect(parseDateInput("since", "noon", VN, false, now).toISOString()).toBe("2026-11-22T05:00:00.000Z");
    expect(parseDateInput("since", "9:30", VN, false, now).toISOString()).toBe("2026-11-22T02:30:00.000Z");
    // Just after midnight in Vietnam, "12:00" is today's noon there, still ahead.
    expect(parseDateInput("since", "12:00", VN, false, new Date("2026-11-21T17:30:00Z")).toISOString()).toBe("2026-11-22T05:00:00.000Z");
  });

  it("starts a day whose midnight the clocks skip just after the gap", () => {
    // Santiago moves from 00:00 to 01:00 on 2026-09-06: the day starts at 01:00 (UTC-3).
    const santiago = "America/Santiago";
    expect(toIsoInZone(parseDateInput("since", "2026-09-06", santiago), santiago)).toBe("2026-09-06T01:00:00-03:00");
    expect(toIsoInZone(parseDateInput("until", "2026-09-05", santiago, true), santiago)).toBe("2026-09-05T23:59:59-04:00");
    const now = new Date("2026-09-06T15:00:00Z");
    expect(toIsoInZone(parseDateInput("since", "today", santiago, false, now), santiago)).toBe("2026-09-06T01:00:00-03:00");
    // New York skips 02:00-03:00 on 2026-03-08: 02:30 resolves to 03:30 EDT.
    expect(toIsoInZone(parseDateInput("since", "2026-03-08T02:30", "America/New_York"), "America/New_York")).toBe("2026-03-08T03:30:00-04:00");
  });

  it("handles zones with daylight saving", () => {
    // 2026-03-08 02:30 does not exist in New York; 2026-03-09 is after the change (UTC-4).
    expect(parseDateInput("since", "2026-03-09", "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(parseDateInput("since", "2026-03-07", "America/New_York").toISOString()).toBe("2026-03-07T05:00:00.000Z");
  });
});

describe("formats", () => {
  const instant = new Date("2026-12-31T17:30:05Z"); // 2027-01-01 00:30:05 in Vietnam
  it("writes each upstream format in the zone across a year boundary", () => {
    expect(toUnix(instant)).toBe(1_798_738_205);
    expect(toDmyHms(instant, VN)).toBe("01/01/2027 00:30:05");
    expect(toDmy(instant, VN)).toBe("01/01/2027");
    expect(toYmdHms(instant, VN)).toBe("2027-01-01 00:30:05");
    expect(toIsoInZone(instant, VN)).toBe("2027-01-01T00:30:05+07:00");
    expect(offsetMinutes(instant, VN)).toBe(420);
  });

  it("reads upstream record times as UTC", () => {
    expect(recordTime("2026-11-20T07:15:02", VN)).toBe("2026-11-20T14:15:02+07:00");
    expect(recordTime("2026-11-20T07:15:02.123456", VN)).toBe("2026-11-20T14:15:02+07:00");
    expect(recordTime("2026-11-20T07:15:02Z", "UTC")).toBe("2026-11-20T07:15:02+00:00");
    expect(recordTime(1_763_622_902, VN)).toBe("2025-11-20T14:15:02+07:00");
    expect(recordTime(null, VN)).toBeUndefined();
    expect(recordTime("garbage", VN)).toBeUndefined();
  });

  it("finds the start of a day in the zone across a month boundary", () => {
    const now = new Date("2026-11-30T20:00:00Z"); // 2026-12-01 03:00 in Vietnam
    expect(startOfDay(now, VN).toISOString()).toBe("2026-11-30T17:00:00.000Z");
    expect(startOfDay(now, VN, -1).toISOString()).toBe("2026-11-29T17:00:00.000Z");
  });
});

describe("parseRange", () => {
  const now = new Date("2026-11-22T05:00:00Z");
  it("reads today, yesterday and now against the same instant as its own defaults", () => {
    const both = parseRange("now", "now", VN, { now });
    expect(both).toEqual({ since: now, until: now });
    expect(parseRange("yesterday", "today", VN, { now })).toEqual({
      since: new Date("2026-11-20T17:00:00.000Z"),
      until: new Date("2026-11-22T16:59:59.000Z"),
    });
  });

  it("defaults to the last N days up to now", () => {
    const r = parseRange(undefined, undefined, VN, { defaultDays: 7, now });
    expect(r.since.toISOString()).toBe("2026-11-15T17:00:00.000Z");
    expect(r.until).toEqual(now);
  });

  it("takes an until alone as the N calendar days ending on its day, as with no dates", () => {
    const fallback = parseRange(undefined, undefined, VN, { defaultDays: 7, now });
    // 7 times 24 hours back from this minute touched 8 days.
    expect(parseRange(undefined, "now", VN, { defaultDays: 7, now })).toEqual(fallback);
    expect(parseRange(undefined, "12:00", VN, { defaultDays: 7, now }).since).toEqual(fallback.since);
    expect(parseRange(undefined, "2026-11-20", VN, { defaultDays: 7, now })).toEqual({
      since: new Date("2026-11-13T17:00:00.000Z"),
      until: new Date("2026-11-20T16:59:59.000Z"),
    });
  });

  it("takes whole days for bare dates", () => {
    const r = parseRange("2026-11-01", "2026-11-30", VN);
    expect(r.since.toISOString()).toBe("2026-10-31T17:00:00.000Z");
    expect(r.until.toISOString()).toBe("2026-11-30T16:59:59.000Z");
  });

  it("rejects reversed and over-long ranges before any call", () => {
    expect(() => parseRange("2026-11-10", "2026-11-01", VN)).toThrow(/until is before since/);
    expect(() => parseRange("2026-09-01", "2026-11-01", VN, { maxDays: 31 })).toThrow(/longer than the 31 days/);
    expect(() => parseRange("2026-10-01", "2026-10-31", VN, { maxDays: 31 })).not.toThrow();
  });

  it("refuses a since-only range longer than allowed instead of cutting it short", () => {
    // 2026-10-01 to now (22 November) is 53 days: it used to end quietly on 1 November.
    expect(() => parseRange("2026-10-01", undefined, VN, { maxDays: 31, now })).toThrow(/since: the range is longer than the 31 days .*2026-10-01 to now is 53 days/);
    expect(parseRange("2026-10-23", undefined, VN, { maxDays: 31, now })).toEqual({ since: new Date("2026-10-22T17:00:00.000Z"), until: now });
  });
});
