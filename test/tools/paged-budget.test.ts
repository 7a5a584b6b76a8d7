import { describe, expect, it } from "vitest";
import { useHarness } from "../helpers/harness.js";

// Issue 21: a page over its result budget lost rows at its end while its next_cursor pointed past
// them. Expectations come from the sandbox's records, not from the tool.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

/** Large raw objects on every row: 100 of them are well over the 100,000-character budget. */
const LARGE = ["shipping_address", "partner", "items", "histories", "status_history"];

async function walk(name: string, key: string, args: Record<string, unknown>) {
  const pages: { rows: { id: string }[]; cut?: string; text: number }[] = [];
  let cursor: string | undefined;
  do {
    const r = await h.call(name, { ...args, ...(cursor ? { cursor } : {}) });
    expect(r.isError, r.text).toBe(false);
    pages.push({ rows: r.data[key], cut: r.data.result_cut, text: r.text.length });
    cursor = r.data.next_cursor;
  } while (cursor && pages.length < 200);
  return pages;
}

describe("a page over its result budget", () => {
  it("search_orders with large fields: every order once, cut to whole rows that say so", async () => {
    const visible = h.sandbox.pos.orders.filter((o) => !o.is_removed).map((o) => String(o.id));
    const pages = await walk("search_orders", "orders", { limit: 100, fields: LARGE });
    const seen = pages.flatMap((p) => p.rows.map((o) => String(o.id)));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual([...visible].sort());
    const first = pages[0]!;
    expect(first.rows.length).toBeLessThan(100);
    expect(first.text).toBeLessThanOrEqual(100_000);
    expect(first.cut).toContain(`${first.rows.length} of the 100 rows`);
    expect(first.cut).toContain("next_cursor");
    // Whole rows: the large objects of a kept row are all there.
    const byId = new Map(h.sandbox.pos.orders.map((o) => [String(o.id), o]));
    for (const row of first.rows as unknown as { id: string; items: unknown[]; status_history: unknown[] }[]) {
      expect(row.items).toHaveLength(byId.get(String(row.id))!.items.length);
      expect(row.status_history).toHaveLength(byId.get(String(row.id))!.status_history.length);
    }
  });
});

describe("a row over the result budget on its own", () => {
  it("is cut inside, and the walk goes on with the next row", async () => {
    const visible = h.sandbox.pos.orders.filter((o) => !o.is_removed);
    const shipped = visible.filter((o) => o.status === 2).sort((a, b) => b.inserted_at.localeCompare(a.inserted_at));
    const big = shipped[4]!;
    const history = big.status_history;
    // A broken upstream record: 5,000 status changes.
    big.status_history = Array.from({ length: 5_000 }, (_, i) => ({ ...history[0]!, id: i }));
    try {
      const pages = await walk("search_orders", "orders", { limit: 10, fields: ["status_history"], statuses: [2] });
      const seen = pages.flatMap((p) => p.rows.map((o) => String(o.id)));
      expect(seen.sort()).toEqual(shipped.map((o) => String(o.id)).sort());
      const alone = pages.find((p) => p.rows.some((o) => String(o.id) === String(big.id)))!;
      expect(alone.rows).toHaveLength(1);
      expect(alone.text).toBeLessThanOrEqual(100_000);
      expect(alone.cut).toMatch(/the row shown is over the 100000-character budget for one result on its own: status_history: first \d+ of 5000 entries; next_cursor continues/);
      // The four rows before it came whole, in a page of their own.
      expect(pages[0]!.rows).toHaveLength(4);
      expect(pages[0]!.cut).toContain("4 of the 10 rows asked for fit");
    } finally {
      big.status_history = history;
    }
  });
});

describe("PANCAKE_MAX_RESULT_CHARS", () => {
  const small = useHarness({ sandbox: { ratePerSecond: 10_000 }, config: { maxResultChars: 3_000 } });

  it("holds every result to it: a page to whole rows, a record cut inside", async () => {
    const page = await small.call("search_orders", { limit: 50 });
    expect(page.text.length).toBeLessThanOrEqual(3_000);
    expect(page.data.orders.length).toBeGreaterThan(0);
    expect(page.data.result_cut).toContain(`${page.data.orders.length} of the 50 rows asked for fit the 3000-character budget`);
    const next = await small.call("search_orders", { limit: 50, cursor: page.data.next_cursor });
    const newest = small.sandbox.pos.orders.filter((o) => !o.is_removed).sort((a, b) => b.inserted_at.localeCompare(a.inserted_at));
    expect([...page.data.orders, ...next.data.orders].map((o: { id: string }) => o.id)).toEqual(
      newest.slice(0, page.data.orders.length + next.data.orders.length).map((o) => String(o.id)),
    );
    const order = await small.call("get_order", { order_id: String(newest[0]!.id), detail: "full" });
    expect(order.text.length).toBeLessThanOrEqual(3_000);
    expect(order.data.result_cut).toContain("over the 3000-character budget");
  });
});

describe("an answer no cursor continues, over its budget", () => {
  // The same calls at the default budget and at a small one: the rows that fit are cut from what
  // the call read, not read again.
  const wide = useHarness({ sandbox: { ratePerSecond: 10_000 }, config: { pageRatePerSecond: 10_000 }, callCenters: true });
  const narrow = useHarness({ sandbox: { ratePerSecond: 10_000 }, config: { pageRatePerSecond: 10_000, maxResultChars: 5_000 }, callCenters: true });
  const reads = (harness: typeof wide, run: () => Promise<unknown>, path: string) => async () => {
    const before = harness.sandbox.server.requests.length;
    await run();
    return harness.sandbox.server.requests.slice(before).filter((q) => q.path.endsWith(path)).length;
  };

  it("list_conversations over every page: the leading rows that fit, each page's list read once", async () => {
    const args = { awaiting_reply: true, since: "last 30 days", detail: "full", limit: 10 };
    let whole: Awaited<ReturnType<typeof wide.call>> | undefined;
    let cut: typeof whole;
    const wideReads = await reads(wide, async () => (whole = await wide.call("list_conversations", args)), "/conversations")();
    const narrowReads = await reads(narrow, async () => (cut = await narrow.call("list_conversations", args)), "/conversations")();
    expect(cut!.isError, cut!.text).toBe(false);
    expect(whole!.data.conversations.length).toBeGreaterThan(cut!.data.conversations.length);
    expect(cut!.data.conversations.length).toBeGreaterThan(0);
    expect(cut!.text.length).toBeLessThanOrEqual(5_000);
    expect(cut!.data.conversations).toEqual(whole!.data.conversations.slice(0, cut!.data.conversations.length));
    expect(cut!.data.result_cut).toContain(`${cut!.data.conversations.length} of the 10 rows asked for fit the 5000-character budget for one result; the others are left out (no cursor continues this answer)`);
    expect(narrowReads).toBeGreaterThan(0);
    expect(cut!.data.total).toBe(whole!.data.total);
    expect(narrowReads).toBe(wideReads);
  });

  it("list_call_logs over every page: the same, each page's calls read once", async () => {
    const args = { since: "last 30 days", limit: 30 };
    let whole: Awaited<ReturnType<typeof wide.call>> | undefined;
    let cut: typeof whole;
    const wideReads = await reads(wide, async () => (whole = await wide.call("list_call_logs", args)), "/sip_call_logs")();
    const narrowReads = await reads(narrow, async () => (cut = await narrow.call("list_call_logs", args)), "/sip_call_logs")();
    expect(cut!.isError, cut!.text).toBe(false);
    expect(whole!.data.calls.length).toBe(30);
    expect(cut!.data.calls.length).toBeGreaterThan(0);
    expect(cut!.data.calls.length).toBeLessThan(30);
    expect(cut!.text.length).toBeLessThanOrEqual(5_000);
    expect(cut!.data.calls).toEqual(whole!.data.calls.slice(0, cut!.data.calls.length));
    expect(cut!.data.result_cut).toContain("no cursor continues this answer");
    expect(cut!.data.totals).toEqual(whole!.data.totals);
    expect(narrowReads).toBeGreaterThan(0);
    expect(narrowReads).toBe(wideReads);
  });

  it("one page's list is still asked again, so its next_cursor starts after the last row shown", async () => {
    const pageId = narrow.sandbox.messaging.pages[0]!.id;
    const first = await narrow.call("list_conversations", { page_ids: pageId, detail: "full", limit: 50 });
    expect(first.data.result_cut).toContain("next_cursor continues with the next row");
    const next = await narrow.call("list_conversations", { page_ids: pageId, detail: "full", limit: 50, cursor: first.data.next_cursor });
    const all = await wide.call("list_conversations", { page_ids: pageId, limit: 50 });
    const ids = (rows: { id: string }[]) => rows.map((c) => c.id);
    expect([...ids(first.data.conversations), ...ids(next.data.conversations)]).toEqual(ids(all.data.conversations).slice(0, first.data.conversations.length + next.data.conversations.length));
  });
});
