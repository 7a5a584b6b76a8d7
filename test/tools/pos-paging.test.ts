import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resumeAt } from "../../src/tools/pos/paging.js";
import { useHarness } from "../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

describe("resumeAt", () => {
  const calls = (s: { pg: number; off: number; ps: number }, limit: number) => {
    const index = (s.pg - 1) * s.ps + s.off;
    return Math.floor((index + limit - 1) / s.ps) - Math.floor(index / s.ps) + 1;
  };

  it("keeps the row a cursor points at and never needs more upstream calls", () => {
    const state = fc.record({ pg: fc.integer({ min: 1, max: 200 }), ps: fc.integer({ min: 1, max: 100 }) }).chain(({ pg, ps }) =>
      fc.record({ pg: fc.constant(pg), ps: fc.constant(ps), off: fc.integer({ min: 0, max: ps - 1 }) }),
    );
    fc.assert(
      fc.property(state, fc.integer({ min: 1, max: 100 }), (s, limit) => {
        const next = resumeAt(s, limit);
        expect((next.pg - 1) * next.ps + next.off).toBe((s.pg - 1) * s.ps + s.off);
        expect(next.off).toBeLessThan(next.ps);
        expect(calls(next, limit)).toBeLessThanOrEqual(calls(s, limit));
      }),
      { numRuns: 2000 },
    );
  });

  it("moves to the new limit when it reaches the rows in fewer calls", () => {
    expect(resumeAt({ pg: 2, off: 0, ps: 10 }, 100)).toEqual({ pg: 1, off: 10, ps: 100 });
    expect(resumeAt({ pg: 2, off: 0, ps: 100 }, 10)).toEqual({ pg: 11, off: 0, ps: 10 });
    expect(resumeAt({ pg: 3, off: 4, ps: 30 }, 30)).toEqual({ pg: 3, off: 4, ps: 30 });
  });
});

describe("POS list paging when limit and detail change between calls", () => {
  const TOOLS: [string, string][] = [
    ["search_customers", "customers"],
    ["list_transactions", "transactions"],
    ["list_return_orders", "return_orders"],
  ];
  const getsOf = (path: RegExp) => {
    let n = 0;
    for (const [key, count] of h.sandbox.server.counts) if (key.startsWith("GET ") && path.test(key.slice(4))) n += count;
    return n;
  };

  async function walk(name: string, key: string, plan: { limit: number; detail: string }[], max: number) {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; seen.length < max; i++) {
      const step = plan[i % plan.length]!;
      const r = await h.call(name, { ...step, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      seen.push(...(r.data[key] as { id: string }[]).map((x) => String(x.id)));
      cursor = r.data.next_cursor;
      if (!cursor) break;
    }
    return seen;
  }

  it.each(TOOLS)("%s: every mix of limits and detail walks the same rows as one plain walk", async (name, key) => {
    const reference = await walk(name, key, [{ limit: 100, detail: "compact" }], 120);
    for (const plan of [
      [{ limit: 7, detail: "compact" }, { limit: 100, detail: "full" }],
      [{ limit: 100, detail: "full" }, { limit: 23, detail: "compact" }],
      [{ limit: 3, detail: "full" }, { limit: 100, detail: "compact" }, { limit: 50, detail: "full" }],
    ]) {
      const seen = await walk(name, key, plan, 120);
      const n = Math.min(seen.length, reference.length);
      expect(seen.slice(0, n), JSON.stringify(plan)).toEqual(reference.slice(0, n));
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it("a follow-up for 100 rows after 10 full records takes two upstream pages, not ten", async () => {
    const first = await h.call("search_customers", { detail: "full" });
    const before = getsOf(/\/customers$/);
    const next = await h.call("search_customers", { limit: 100, cursor: first.data.next_cursor });
    expect(next.data.customers).toHaveLength(100);
    expect(getsOf(/\/customers$/) - before).toBe(2);
  });

  // A page cut to its result budget leaves a cursor in pages of the rows that fit.
  it("search_orders: a follow-up for 100 rows after 7 takes two upstream pages, not fifteen", async () => {
    const first = await h.call("search_orders", { limit: 7 });
    const before = getsOf(/\/orders$/);
    const next = await h.call("search_orders", { limit: 100, cursor: first.data.next_cursor });
    expect(getsOf(/\/orders$/) - before).toBe(2);
    const newest = h.sandbox.pos.orders.filter((o) => !o.is_removed).sort((a, b) => b.inserted_at.localeCompare(a.inserted_at));
    expect([...first.data.orders, ...next.data.orders].map((o: { id: string }) => o.id)).toEqual(newest.slice(0, 107).map((o) => String(o.id)));
  });

  it("list_page_customers: a follow-up for 100 rows after 5 gets them, in two upstream pages", async () => {
    const page = h.sandbox.messaging.pages[0]!.id;
    const span = { page_id: page, since: "2026-01-01", until: "2026-12-31" };
    const first = await h.call("list_page_customers", { ...span, limit: 5 });
    const before = getsOf(/\/page_customers$/);
    const next = await h.call("list_page_customers", { ...span, limit: 100, cursor: first.data.next_cursor });
    expect(getsOf(/\/page_customers$/) - before).toBe(2);
    const newest = h.sandbox.messaging.customers
      .filter((c) => c.page_id === page)
      .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at) || b.id.localeCompare(a.id));
    expect(newest.length).toBeGreaterThan(105);
    expect([...first.data.customers, ...next.data.customers].map((c: { id: string }) => c.id)).toEqual(newest.slice(0, 105).map((c) => c.id));
  });
});
