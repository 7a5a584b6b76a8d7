import { describe, expect, it } from "vitest";
import { fieldChecks, holds, instant, notApplied, phones } from "../../src/tools/verify.js";

// What counts as "the record holds what was sent": the POS writes a value back in its own form
// (an id as a number, a phone with its country code, a time as ISO text), and that is no miss.

describe("holds", () => {
  it("takes a value in the record's own form as the one sent", () => {
    expect(holds(0, "0")).toBe(true);
    expect(holds("12", 12)).toBe(true);
    expect(holds(" Giao gấp ", "Giao gấp")).toBe(true);
    expect(holds("", null)).toBe(true);
    expect(holds(30_000, 25_000)).toBe(false);
    expect(holds("confirmed", "new")).toBe(false);
  });

  it("takes a list with the same entries in any order, and an object holding every key sent", () => {
    expect(holds([3, 1], [1, 3])).toBe(true);
    expect(holds([1, 1], [1, 3])).toBe(false);
    expect(holds([1], [1, 3])).toBe(false);
    expect(holds([], null)).toBe(true);
    expect(holds({ address: "12 Lê Lợi", commune_id: "7010101" }, { address: "12 Lê Lợi", commune_id: 7010101, full_address: "12 Lê Lợi, …" })).toBe(true);
    expect(holds({ address: "12 Lê Lợi" }, { address: "9 Pasteur" })).toBe(false);
  });
});

describe("notApplied", () => {
  it("names only what did not take, with what the record holds and what to do", () => {
    const missed = notApplied([
      { field: "note", sent: "x", held: "x" },
      { field: "shipping_fee", sent: 0, held: 30_000, fix: "Set it in the POS app." },
      { field: "status", sent: undefined, held: "new" },
    ]);
    expect(missed).toEqual([{ field: "shipping_fee", sent: 0, holds: 30_000, fix: "Set it in the POS app." }]);
    expect(notApplied([{ field: "note", sent: "x", held: "x" }])).toBeUndefined();
  });

  it("gives back what the record holds as sanitized text: it may be anyone's words", () => {
    const [missed] = notApplied([{ field: "note", sent: "a", held: "b\u202e<b>x</b>" }])!;
    expect(missed!.holds).toBe("bx");
  });

  it("compares phones and times in the form they name, through fieldChecks", () => {
    const checks = fieldChecks(
      { phone_numbers: ["0912345678"], start_time: 1_790_000_000 },
      { phone_numbers: ["+84 912 345 678"], start_time: new Date(1_790_000_000_000).toISOString() },
      { phone_numbers: phones, start_time: instant },
    );
    expect(notApplied(checks)).toBeUndefined();
  });
});
