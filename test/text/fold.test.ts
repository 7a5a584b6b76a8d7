import { describe, expect, it } from "vitest";
import { fold } from "../../src/text/fold.js";

describe("fold", () => {
  it("matches Vietnamese names with and without diacritics", () => {
    expect(fold("Thành phố Hồ Chí Minh")).toBe("thanh pho ho chi minh");
    expect(fold("Đà Nẵng")).toBe("da nang");
  });
});
