import { describe, expect, it } from "vitest";
import { allTools } from "../../../src/tools/index.js";
import { listedTool } from "../../../src/tools/listing.js";
import { DEFAULT_TOOLS } from "../../../src/toolsets.js";
import { useHarness } from "../../helpers/harness.js";
import { amount, asking, buyerOf, cameBackIn, type Row, reachedAt, recordMs, shopDay, sum, truthOf } from "./truth.js";

// Issue 39, as an assistant with the default tools answered 20 owner questions: 16 right, 4 partly.
// Each test is one of the four (and what the checker found beside them), asked the way the
// assistant asked it, and read against the sandbox's raw records. Each failed before its fix.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const ask = asking(h);
const pos = () => h.sandbox.pos;

const NOVEMBER = { since: "2026-11-01", until: "2026-11-30" };
const inNovember = (recordTime: unknown) => typeof recordTime === "string" && shopDay(recordTime) >= NOVEMBER.since && shopDay(recordTime) <= NOVEMBER.until;

describe("Q11 cash book: what the totals count, and what they leave out", () => {
  type Entry = { amount: number; status: number; time_incurred?: string | null; inserted_at: string };
  const money = (entries: Entry[]) => {
    const income = entries.filter((t) => t.amount > 0).reduce((n, t) => n + t.amount, 0);
    const expense = -entries.filter((t) => t.amount < 0).reduce((n, t) => n + t.amount, 0);
    return { income, expense, net: income - expense };
  };
  const entries = () => pos().transactions as unknown as Entry[];

  it("November by the day incurred: in effect summed, the new entries' money and the cancelled and deleted ones counted beside", async () => {
    const month = entries().filter((t) => inNovember(t.time_incurred ?? t.inserted_at));
    const of = (status: number) => month.filter((t) => t.status === status);
    expect(of(0).length).toBeGreaterThan(0);
    const r = await ask("list_transactions", { ...NOVEMBER, limit: 0 });
    expect(r.data.total).toBe(of(1).length);
    expect(r.data.totals).toEqual(money(of(1)));
    expect(r.data.left_out).toEqual({ new: { count: of(0).length, ...money(of(0)) }, cancelled: of(2).length || undefined, deleted: of(3).length || undefined });
    expect(r.data.figures).toMatch(/^totals: entries in effect \(approved\); left_out: new ones \(entered, not yet approved\)/);
    // Named, a status is what is counted, and nothing is said beside it.
    const named = await ask("list_transactions", { ...NOVEMBER, status: ["in_effect"], limit: 0 });
    expect(named.data.totals).toEqual(r.data.totals);
    expect(named.data.left_out).toBeUndefined();
  });

  it("all time, as the POS lists it: the same split", async () => {
    const of = (status: number) => entries().filter((t) => t.status === status);
    const r = await ask("list_transactions", { limit: 5 });
    expect(r.data.total).toBe(of(1).length);
    expect(r.data.totals).toEqual(money(of(1)));
    expect(r.data.left_out).toEqual({ new: { count: of(0).length, ...money(of(0)) }, cancelled: of(2).length, deleted: of(3).length });
  });
});

describe("Q13 debts: the biggest and the overdue, whatever the list's order", () => {
  type Debt = { type: number; status: number; money_must_pay_or_collect: number; money_payed_or_collected: number; expired_at: string; id: string };
  const remaining = (d: Debt) => d.money_must_pay_or_collect - d.money_payed_or_collected;
  const overdue = (d: Debt) => remaining(d) > 0 && recordMs(d.expired_at) < Date.now();
  const owedToUs = () => (pos().debts as unknown as Debt[]).filter((d) => d.type === 1 && d.status === 0);

  it("sorted by what is still owed, both ways, with the overdue counted in the totals of every page", async () => {
    const open = owedToUs();
    const byOwed = open.map(remaining).sort((a, b) => b - a);
    const most = await ask("list_debts", { direction: "receivable", status: "open", sort_by: "remaining", limit: 5 });
    expect(most.data.debts.map((d: Row) => d.remaining)).toEqual(byOwed.slice(0, 5));
    // The one the newest ten left out: the largest overdue debt is among the five largest.
    const worstOverdue = open.filter(overdue).sort((a, b) => remaining(b) - remaining(a))[0]!;
    expect(most.data.debts.find((d: Row) => d.id === worstOverdue.id)).toMatchObject({ overdue: true, remaining: remaining(worstOverdue) });
    expect(most.data.totals.receivable).toEqual({
      count: open.length,
      due: open.reduce((n, d) => n + d.money_must_pay_or_collect, 0),
      settled: open.reduce((n, d) => n + d.money_payed_or_collected, 0),
      remaining: open.reduce((n, d) => n + remaining(d), 0),
      overdue: { count: open.filter(overdue).length, remaining: open.filter(overdue).reduce((n, d) => n + remaining(d), 0) },
    });
    const next = await ask("list_debts", { cursor: most.data.next_cursor, limit: 5 });
    expect(next.data.debts.map((d: Row) => d.remaining)).toEqual(byOwed.slice(5, 10));
    expect(next.data.totals).toEqual(most.data.totals);
    const least = await ask("list_debts", { direction: "receivable", status: "open", sort_by: "remaining", ascending: true, limit: 3 });
    expect(least.data.debts.map((d: Row) => d.remaining)).toEqual([...byOwed].reverse().slice(0, 3));
  });

  it("sorted by due date, earliest first; limit 0 answers the totals alone", async () => {
    const due = owedToUs()
      .map((d) => recordMs(d.expired_at))
      .sort((a, b) => a - b);
    const soonest = await ask("list_debts", { direction: "receivable", status: "open", sort_by: "expires_at", ascending: true, limit: 4 });
    expect(soonest.data.debts.map((d: Row) => Date.parse(d.expires_at))).toEqual(due.slice(0, 4));
    const latest = await ask("list_debts", { direction: "receivable", status: "open", sort_by: "expires_at", limit: 4 });
    expect(latest.data.debts.map((d: Row) => Date.parse(d.expires_at))).toEqual([...due].reverse().slice(0, 4));
    const totals = await ask("list_debts", { direction: "receivable", status: "open", limit: 0 });
    expect(totals.data.debts).toEqual([]);
    expect(totals.data.next_cursor).toBeUndefined();
    expect(totals.data.totals).toEqual(soonest.data.totals);
    const unsorted = await h.call("list_debts", { ascending: true });
    expect(unsorted.isError).toBe(true);
    expect(unsorted.text).toContain("sort_by");
  });
});

describe("Q14 returns: one call from the default tools gives both notions, dated as they say", () => {
  it("search_orders asked for the carrier's return statuses answers what came back both ways, and dates the orders still returning", async () => {
    const back = cameBackIn(pos(), NOVEMBER);
    const r = await ask("search_orders", { ...NOVEMBER, statuses: ["returning", "partly_returned", "returned"], time_field: "returned", group_by: ["status"] });
    // Orders still returning are in the answer, dated by when they started back: the range says so.
    const returning = pos().orders.filter((o) => !o.is_removed && o.status === 4 && inNovember(reachedAt(o, 4)));
    expect(returning.length).toBeGreaterThan(0);
    expect(r.data.groups.find((g: Row) => g.status === "returning").orders).toBe(returning.length);
    expect(r.data.total).toBe(back.returned.length + back.partly.length + returning.length);
    expect(r.data.range.by).toBe("reached returned, else the status they are in");
    expect(r.data.came_back).toEqual({
      return_orders: expect.objectContaining({ count: back.returnOrders.length, value: back.returnOrdersValue, canceled: back.canceledReturnOrders || undefined, dated_by: "created" }),
      carrier_returned: {
        orders: back.returned.length + back.partly.length,
        value: back.carrierValue,
        returned: back.returned.length,
        partly_returned: back.partly.length,
        dated_by: "reached returned / partly_returned",
      },
    });
    expect(r.data.returned_amount).toBe(back.carrierValue);
    expect(r.data.figures).toContain("came_back.return_orders: return/exchange orders");
    // The same with limit 0 and a single status: every answer about returns names both.
    const one = await ask("search_orders", { ...NOVEMBER, statuses: ["returned"], limit: 0 });
    expect(one.data.came_back.return_orders.count).toBe(back.returnOrders.length);
    // A question about other statuses is not about returns.
    const shipped = await ask("search_orders", { ...NOVEMBER, statuses: ["shipped"], limit: 0 });
    expect(shipped.data.came_back).toBeUndefined();
  });

  it("get_sales_analytics says its returned are orders returned whole, and gives both notions when asked about returns", async () => {
    const t = truthOf(pos(), NOVEMBER);
    const partlyUnits = t.sales.filter((o) => o.status === 15).reduce((n, o) => n + o.items.reduce((m, it) => m + it.returned_count, 0), 0);
    expect(partlyUnits).toBeGreaterThan(0);
    const plain = await ask("get_sales_analytics", { ...NOVEMBER, split_by: ["Time.month"] });
    expect(plain.data.totals.returned.product_count).toBe(t.returned.reduce((n, o) => n + o.items.reduce((m, it) => m + it.quantity, 0), 0));
    expect(plain.data.figures).toContain('returned: of those, now returned whole (partly returned and return orders: search_orders statuses ["returned","partly_returned"])');
    expect(plain.data.came_back).toBeUndefined();
    const back = cameBackIn(pos(), NOVEMBER);
    const asked = await ask("get_sales_analytics", { ...NOVEMBER, split_by: ["Time.month"], returned_record: "updated_at" });
    expect(asked.data.came_back.carrier_returned).toMatchObject({ orders: back.returned.length + back.partly.length, value: back.carrierValue });
    expect(asked.data.came_back.return_orders).toMatchObject({ count: back.returnOrders.length, value: back.returnOrdersValue });
    expect(asked.data.figures).toContain("returned: of those, now returned whole (partly returned and return orders: came_back)");
  });
});

describe("Q3 erased orders: the count says they are not in it", () => {
  it("erased orders of a span are in no count unless include_removed, and the figures say so", async () => {
    const span = { since: "2026-09-01", until: "2026-11-30" };
    const t = truthOf(pos(), span);
    const erased = pos().orders.filter((o) => o.is_removed && inSpan(o.inserted_at, span));
    expect(erased.length).toBeGreaterThan(0);
    const r = await ask("search_orders", { ...span, limit: 0 });
    expect(r.data.total).toBe(t.placed.length);
    expect(r.data.figures).toContain("Orders erased from the list (is_removed): not counted unless include_removed.");
    const all = await ask("search_orders", { ...span, include_removed: true, limit: 0 });
    expect(all.data.total).toBe(t.placed.length + erased.length);
    expect(all.data.figures).not.toContain("erased");
  });
});

const inSpan = (recordTime: string, span: { since: string; until: string }) => shopDay(recordTime) >= span.since && shopDay(recordTime) <= span.until;

describe("Q6 new and returning buyers in one call", () => {
  it('buyers "split": every buyer grouped, and how many are new and returning, with their orders and amount', async () => {
    const t = truthOf(pos(), NOVEMBER);
    const returning = new Set(t.returning);
    const part = (keep: (buyer: string) => boolean) => {
      const orders = t.sales.filter((o) => keep(buyerOf(o)));
      return { customers: [...t.buyers.keys()].filter(keep).length, orders: orders.length, amount: sum(orders, amount) };
    };
    const r = await ask("search_orders", { ...NOVEMBER, group_by: ["customer"], buyers: "split", limit: 0 });
    expect(r.data.buyers).toEqual({ new: part((b) => !returning.has(b)), returning: part((b) => returning.has(b)) });
    expect(r.data.group_count).toBe(t.buyers.size);
    expect(r.data.buyers.new.customers + r.data.buyers.returning.customers).toBe(r.data.group_count);
    expect(r.data.figures).toContain("buyers.new: customers whose first order ever");
    // The same as the two calls it replaces.
    const fresh = await ask("search_orders", { ...NOVEMBER, group_by: ["customer"], buyers: "new", limit: 0 });
    expect(r.data.buyers.new.customers).toBe(fresh.data.group_count);
    const needsSpan = await h.call("search_orders", { group_by: ["customer"], buyers: "split" });
    expect(needsSpan.isError).toBe(true);
    expect(needsSpan.text).toContain("since");
  });
});

describe("Q4 avg_price: defined where it is shown", () => {
  it("a variant's avg_price is its orders' goods over their count, and the metric says so", async () => {
    const t = truthOf(pos(), NOVEMBER);
    const r = await ask("get_sales_analytics", { ...NOVEMBER, split_by: ["Variation.id"], sort_by: "product_count", limit: 1 });
    const top = r.data.rows[0];
    const orders = t.sales.filter((o) => o.items.some((it) => it.variation_id === top["Variation.id"]));
    const price = orders.reduce((n, o) => n + o.items.filter((it) => it.variation_id === top["Variation.id"]).reduce((m, it) => m + it.variation_info.retail_price * it.quantity, 0), 0);
    expect(top).toMatchObject({ order_count: orders.length, price, avg_price: Math.round(price / orders.length) });
    expect(top.avg_price).not.toBe(Math.round(price / top.product_count));
    expect(r.data.metrics.avg_price).toMatch(/= price \/ order_count$/);
  });
});

describe("texts of the default tools send the assistant to no tool a default session lacks", () => {
  const elsewhere = allTools.filter((t) => !DEFAULT_TOOLS.includes(t.name)).map((t) => t.name);
  const named = (text: string) => elsewhere.filter((name) => new RegExp(`\\b${name}\\b`).test(text));

  it("in their listings", () => {
    const found = allTools
      .filter((t) => DEFAULT_TOOLS.includes(t.name))
      .flatMap((t) => named(JSON.stringify(listedTool(t))).map((name) => `${t.name} -> ${name}`));
    expect(found).toEqual([]);
  });

  it("in the answers of statistics and analytics", async () => {
    const answers = await Promise.all([
      ask("get_page_stats", { metric: "new_customers" }),
      ask("get_sales_analytics", { ...NOVEMBER, returned_record: "updated_at", split_by: ["Time.month"] }),
      ask("search_orders", { ...NOVEMBER, statuses: ["returned"], limit: 0 }),
      ask("list_transactions", { ...NOVEMBER, limit: 0 }),
    ]);
    for (const r of answers) expect(named(r.text)).toEqual([]);
  });
});
