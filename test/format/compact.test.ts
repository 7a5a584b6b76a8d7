import { describe, expect, it } from "vitest";
import { compact } from "../../src/format/compact.js";

describe("compact", () => {
  it("keeps a key named __proto__ as data", () => {
    const out = compact({ rows: { __proto__x: 1 }, map: JSON.parse('{"__proto__": {"n": 1}, "b": null}') });
    expect(JSON.stringify(out)).toBe('{"rows":{"__proto__x":1},"map":{"__proto__":{"n":1}}}');
    expect(Object.getPrototypeOf(out.map)).toBe(Object.prototype);
  });
});
