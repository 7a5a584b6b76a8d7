import { describe, expect, it } from "vitest";
import { normalizePhone } from "../../src/format/phone.js";

describe("phone numbers in any common form", () => {
  it("reads Vietnamese numbers in their national form", () => {
    const forms = ["+84 912 345 678", "84912345678", "0912.345.678", "0912 345 678", "(091) 234-5678", "0084912345678", "912345678"];
    // Country code in parentheses, dashes, dots, and the national 0 kept after +84.
    forms.push("(+84) 912-345-678", "(+84)912345678", "+84-912-345-678", "+84.912.345.678", "+84 0912 345 678", "(84) 912 345 678", "0912-345-678");
    for (const form of forms) {
      expect(normalizePhone(form), form).toBe("0912345678");
    }
  });

  it("is not fooled by names or short numbers", () => {
    expect(normalizePhone("Lan")).toBeUndefined();
    expect(normalizePhone("12345")).toBeUndefined();
    expect(normalizePhone("0912abc345")).toBeUndefined();
    expect(normalizePhone("+84 +912345678")).toBeUndefined();
  });
});
