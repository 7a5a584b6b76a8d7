import { describe, expect, it } from "vitest";
import { bestMatches, nameScore, nearness, nearnessText, withoutAddress } from "../../src/text/name-match.js";

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

describe("how near a name is to what was typed", () => {
  const why = (name: string, typed: string) => {
    const n = nearness(name, typed);
    return n && nearnessText(n);
  };

  it("tells word order, letters off, accents typed otherwise and words left out", () => {
    expect(why("Lý Kim Mai", "Mai Kim Lý")).toBe("word order");
    expect(why("Nguyễn Thị Lan", "Nguyen Thi Lam")).toBe("1 letter off");
    expect(why("Nguyễn Thị Lan", "Nguyễn Thị Lân")).toBe("accents");
    // Typed without accents, as people write: only said when nothing else differs.
    expect(why("Nguyễn Thị Lan", "Nguyen Thi Lan")).toBe("accents");
    expect(why("Huỳnh Quang Cường", "Huynh Cuong")).toBe("1 more word");
    expect(why("Huỳnh Quang Cường", "Cuong Huynh")).toBe("word order, 1 more word");
  });

  it("is not near past a letter in five, nor when a typed word meets no word of the name", () => {
    expect(nearness("Nguyễn Thị Lan", "Nguyen Thu Lum")).toBeUndefined();
    expect(nearness("Nguyễn Thị Lan", "Nguyen Thi Lan Anh")).toBeUndefined();
    expect(nearness("Lan", "Hoa")).toBeUndefined();
  });
});
