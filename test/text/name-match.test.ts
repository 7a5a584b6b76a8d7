import { describe, expect, it } from "vitest";
import { bestMatches, nameScore, withoutAddress } from "../../src/text/name-match.js";

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
