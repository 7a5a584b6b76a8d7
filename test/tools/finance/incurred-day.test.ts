import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";
import { allPages } from "../../helpers/all-pages.js";

// Issue 39: an ad cost recorded for 3 December was not found by list_transactions for 3 December
// (the list ranged by the day the entry was written), so a write that worked looked failed. The
// cash book ranges by the day money was incurred (an ad cost's: its cost date), says so, and no
// entry from outside the span appears in rows or totals; the entry date stays one parameter away.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;
/** Unix seconds of a shop-time (UTC+7) wall clock, and of a sandbox record time (UTC, no suffix). */
const shopUnix = (text: string) => Date.parse(`${text}+07:00`) / 1000;
const unixOf = (recordTime: unknown) => Date.parse(`${String(recordTime)}Z`) / 1000;

type Entry = (typeof h.sandbox.pos.transactions)[number];
/** The raw entries of a shop-time span by one of their dates, in the statuses given. */
const rawIn = (since: string, until: string, field: "time_incurred" | "inserted_at", statuses = [1]) =>
  pos().transactions.filter((t) => {
    const at = unixOf(t[field]);
    return statuses.includes(Number(t.status)) && at >= shopUnix(`${since}T00:00:00`) && at <= shopUnix(`${until}T23:59:59`);
  });
const sums = (entries: Entry[]) => {
  const amounts = entries.map((t) => Number(t.amount));
  const income = amounts.filter((a) => a > 0).reduce((a, b) => a + b, 0);
  const expense = -amounts.filter((a) => a < 0).reduce((a, b) => a + b, 0);
  return { income, expense, net: income - expense };
};

describe("list_transactions by the day incurred", () => {
  it("finds an ad cost recorded today for 3 December on 3 December, and its entry by today's entry date", async () => {
    const recorded = await h.call("record_ad_cost", { cost_date: "2026-12-03", transaction: { name: "QC Facebook 3/12", status: "in_effect" }, items: [{ cost: 640_000 }] });
    expect(recorded.isError, recorded.text).toBe(false);
    const entry = pos().transactions.find((t) => t.id === recorded.data.transaction_id)!;
    // Written today (22 November), incurred on 3 December.
    expect(unixOf(entry.inserted_at)).toBeLessThan(shopUnix("2026-12-01T00:00:00"));

    const day = await h.call("list_transactions", { since: "2026-12-03", until: "2026-12-03" });
    expect(day.isError, day.text).toBe(false);
    const expected = rawIn("2026-12-03", "2026-12-03", "time_incurred");
    expect(expected.map((t) => t.id)).toContain(entry.id);
    expect(day.data.transactions.map((t: { id: string }) => t.id)).toEqual(expected.map((t) => t.id));
    expect(day.data.transactions[0]).toMatchObject({ ad_cost_id: recorded.data.ad_cost_id, amount: -640_000 });
    expect(day.data.total).toBe(expected.length);
    expect(day.data.totals).toEqual(sums(expected));
    expect(day.data.range).toEqual({ since: "2026-12-03T00:00:00+07:00", until: "2026-12-03T23:59:59+07:00", by: "time_incurred" });
    expect(day.data.note).toMatch(/time_incurred.*written .*filters by the day written only/);

    // By the day it was entered, it is today's.
    const entered = await h.call("list_transactions", { since: "today", until: "today", time_field: "entered" });
    expect(entered.data.transactions.map((t: { id: string }) => t.id)).toContain(entry.id);
    expect(entered.data.range.by).toBe("inserted_at");
    const none = await h.call("list_transactions", { since: "2026-12-03", until: "2026-12-03", time_field: "entered" });
    expect(none.data.total).toBe(0);
  });

  it("sums a month by the day incurred: an entry written now for October counts in October, one for December does not, per status too", async () => {
    const late = await h.call("create_transaction", { name: "Tiền điện tháng 10", amount: -730_000, time_incurred: "2026-10-15" });
    expect(late.isError, late.text).toBe(false);
    const month = { since: "2026-10-01", until: "2026-10-31" };
    const expected = rawIn(month.since, month.until, "time_incurred");
    expect(expected.map((t) => t.id)).toContain(late.data.id);
    // By the entry date, October holds other entries: the two ranges differ.
    expect(rawIn(month.since, month.until, "inserted_at").map((t) => t.id)).not.toContain(late.data.id);

    const r = await h.call("list_transactions", { ...month, limit: 100 });
    expect(r.data.total).toBe(expected.length);
    expect(r.data.totals).toEqual(sums(expected));
    expect(r.data.transactions.map((t: { id: string }) => t.id).sort()).toEqual(expected.map((t) => t.id).sort());
    for (const row of r.data.transactions) {
      const at = Date.parse(row.time_incurred) / 1000;
      expect(at).toBeGreaterThanOrEqual(shopUnix("2026-10-01T00:00:00"));
      expect(at).toBeLessThanOrEqual(shopUnix("2026-10-31T23:59:59"));
    }
    // Latest incurred first.
    const times = r.data.transactions.map((t: { time_incurred: string }) => Date.parse(t.time_incurred));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // A few rows at a time, the cursor walks the same entries.
    const walked = await allPages(h, "list_transactions", "transactions", { ...month, limit: 4 });
    expect(walked.map((t) => t.id).sort()).toEqual(expected.map((t) => t.id).sort());

    // Every status, each apart.
    const all = await h.call("list_transactions", { ...month, status: "all", limit: 0 });
    for (const [name, code] of [["new", 0], ["in_effect", 1], ["cancelled", 2], ["deleted", 3]] as const) {
      const these = rawIn(month.since, month.until, "time_incurred", [code]);
      expect(all.data.by_status[name], name).toEqual({ count: these.length, ...sums(these) });
    }
    expect(all.data.total).toBe(rawIn(month.since, month.until, "time_incurred", [0, 1, 2, 3]).length);
  });
});
