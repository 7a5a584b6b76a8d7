import { describe, expect, it } from "vitest";
import { bestMatches, nameScore, withoutAddress } from "../../src/format/name-match.js";
import { normalizePhone } from "../../src/format/phone.js";

describe("names as people type them", () => {
  it("ranks the same words over a run of words over words written together, never part of a word", () => {
    expect(nameScore("Thời Trang Mây", "thoi trang MAY")).toBe(3);
    expect(nameScore("Mây Kids - Đồ trẻ em", "mây kids")).toBe(2);
    expect(nameScore("Trần Minh Khoa", "Minh")).toBe(2);
    expect(nameScore("Mây Kids - Đồ trẻ em", "maykids")).toBe(1);
    expect(nameScore("Nguyễn Thu Hằng", "Hân")).toBe(0);
    expect(nameScore("Nguyễn Thu Hằng", "thu nguyen")).toBe(0);
    expect(nameScore(undefined, "a")).toBe(0);
  });

  it("keeps only the best matches, all of them when they tie", () => {
    const pages = ["Thời Trang Mây", "Mây Kids - Đồ trẻ em", "maystore.vn"];
    expect(bestMatches(pages, "may kids", (p) => p)).toEqual(["Mây Kids - Đồ trẻ em"]);
    expect(bestMatches(pages, "mây", (p) => p)).toEqual(["Thời Trang Mây", "Mây Kids - Đồ trẻ em"]);
    expect(bestMatches(pages, "maystore", (p) => p)).toEqual(["maystore.vn"]);
    expect(bestMatches(pages, "shoes", (p) => p)).toEqual([]);
  });

  it("drops a leading form of address only when more follows", () => {
    expect(withoutAddress("chị Lan")).toBe("lan");
    expect(withoutAddress("A Tuấn")).toBe("tuan");
    expect(withoutAddress("Anh")).toBeUndefined();
    expect(withoutAddress("Lan Anh")).toBeUndefined();
  });
});

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
