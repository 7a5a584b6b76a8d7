import { describe, expect, it } from "vitest";
import { rankRows } from "../../src/tools/rank.js";

// A top N that cuts through a tie says how many equal rows it left out.

const rows = [
  { name: "a", n: 5 },
  { name: "b", n: 3 },
  { name: "c", n: 9 },
  { name: "d", n: 3 },
  { name: "e", n: 3 },
  { name: "f", n: 1 },
];

describe("rankRows", () => {
  it("counts the rows past the limit that equal the last row kept", () => {
    const r = rankRows(rows, { sortBy: "n", valid: ["n"], limit: 3 });
    expect(r.rows.map((x) => x.name)).toEqual(["c", "a", "b"]);
    expect(r).toMatchObject({ truncated: true, total: 6, tied: 2 });
    expect(rankRows(rows, { sortBy: "n", valid: ["n"], limit: 2 }).tied).toBeUndefined();
    expect(rankRows(rows, { sortBy: "n", valid: ["n"], limit: 5 }).tied).toBeUndefined();
    expect(rankRows(rows, { sortBy: "n", valid: ["n"], limit: 6 })).toEqual({ rows: expect.any(Array), total: 6 });
  });

  it("finds ties of rows given in order by the figure they are ordered by", () => {
    const ordered = [...rows].sort((a, b) => b.n - a.n);
    expect(rankRows(ordered, { valid: [], limit: 4, orderedBy: (r) => r.n }).tied).toBe(1);
    expect(rankRows(ordered, { valid: [], limit: 4 }).tied).toBeUndefined();
  });
});
