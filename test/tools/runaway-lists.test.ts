import { afterEach, describe, expect, it } from "vitest";
import { useHarness } from "./../helpers/harness.js";

// The tools' own walks of a list (a grouping's sweep of the orders, a list tool's pages) against
// lists that misbehave as live services have been seen to (issue 43; src/sandbox/quirks.ts): the
// walk ends at the first empty or short page whatever the total says, stops at rows outside the
// range asked or at a page served again, and the answer says what the list did.

describe("a grouping read page by page (no shop index)", () => {
  const h = useHarness({ sandbox: { ratePerSecond: 1e9 }, config: { posStatistics: false, index: { mode: "off", refreshSeconds: 0, maxRows: 1_000, preload: false } } });
  afterEach(() => h.sandbox.behave());
  const orderPages = () => h.sandbox.server.requests.filter((r) => r.method === "GET" && /\/orders$/.test(r.path)).length;

  async function grouped(args: Record<string, unknown>) {
    h.sandbox.server.resetRecords();
    const r = await h.call("search_orders", { group_by: ["status"], ...args });
    expect(r.isError, r.text).toBe(false);
    return { data: r.data, requests: orderPages() };
  }

  it("ends at the first empty page, and says the list's total disagreed", async () => {
    h.sandbox.misbehave({ kind: "empty_after_first", path: /\/orders$/ });
    const { data, requests } = await grouped({});
    const all = h.sandbox.pos.orders.filter((o) => !o.is_removed).length;
    expect(data.complete).toBe(false);
    expect(data.note).toBe(`Read 100 orders and stopped (the list's total said ${all.toLocaleString("en-US")}; its pages ended at 1): these figures count only those.`);
    // Page 1, and the pages in flight when page 2 came back empty.
    expect(requests).toBeLessThanOrEqual(5);
  });

  it("stops at an order outside the dates asked, naming the parameter the list ignored", async () => {
    h.sandbox.misbehave({ kind: "ignore_range", path: /\/orders$/ });
    const { data, requests } = await grouped({ since: "last 7 days" });
    expect(data.complete).toBe(false);
    expect(data.note).toMatch(/^Read 0 orders and stopped \(the order list ignored startDateTime: asked for orders created from .+ UTC, it served one created .+\): these figures count only those\.$/);
    expect(requests).toBeLessThanOrEqual(5);
  });

  it("stops at a page the list served before", async () => {
    // The total says more than the list holds; past its end the list answers its first page again.
    h.sandbox.misbehave({ kind: "fixed_total", total: 5_000, path: /\/orders$/ });
    h.sandbox.misbehave({ kind: "first_page_again", path: /\/orders$/ });
    const { data, requests } = await grouped({ include_removed: true });
    const pages = Math.ceil(h.sandbox.pos.orders.length / 100);
    expect(data.note).toBe(`Read ${h.sandbox.pos.orders.length} orders and stopped (the list answered page ${pages + 1} with page 1's rows again): these figures count only those.`);
    expect(requests).toBeLessThanOrEqual(pages + 5);
  });
});

describe("a list tool's pages", () => {
  const h = useHarness({ sandbox: { ratePerSecond: 1e9 } });
  afterEach(() => h.sandbox.behave());

  it("end at the first empty page: no total the pages did not reach, and the answer says so", async () => {
    h.sandbox.misbehave({ kind: "empty_after_first", path: /\/customers$/ });
    const first = await h.call("search_customers", { limit: 60 });
    expect(first.data.customers).toHaveLength(60);
    const r = await h.call("search_customers", { limit: 60, cursor: first.data.next_cursor });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.customers).toHaveLength(0);
    expect(r.data.next_cursor).toBeUndefined();
    expect(r.data.total).toBeUndefined();
    expect(r.data.note).toBe(`Listed what the customer list served (the list's total said ${h.sandbox.pos.customers.length.toLocaleString("en-US")}; its pages ended at 1).`);
  });

  it("end at a page served before, each row listed once", async () => {
    const behaved = await h.call("list_transactions", { limit: 100 });
    h.sandbox.misbehave({ kind: "fixed_total", total: 5_000, path: /\/transactions$/ });
    h.sandbox.misbehave({ kind: "first_page_again", path: /\/transactions$/ });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let call = 0; call < 60; call++) {
      const r = await h.call("list_transactions", { limit: 100, ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBe(false);
      seen.push(...r.data.transactions.map((t: { id: string }) => t.id));
      cursor = r.data.next_cursor;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(behaved.data.transactions.map((t: { id: string }) => t.id));
  });
});
