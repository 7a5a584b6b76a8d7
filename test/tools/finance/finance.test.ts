import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const pos = () => h.sandbox.pos;
/** Unix seconds of a shop-time (UTC+7) wall clock. */
const shopUnix = (text: string) => Date.parse(`${text}+07:00`) / 1000;
const unixOf = (recordTime: string) => Date.parse(`${recordTime}Z`) / 1000;

describe("list_transactions", () => {
  it("filters by status name, newest first, with signed amounts and a working cursor", async () => {
    const expected = pos()
      .transactions.filter((t) => t.status === 1)
      .sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : 0));
    const first = await h.call("list_transactions", { status: "in_effect", limit: 10 });
    expect(first.isError, first.text).toBe(false);
    expect(first.data.currency).toBe("VND");
    expect(first.data.total).toBe(expected.length);
    expect(first.data.transactions.every((t: { status: string }) => t.status === "in_effect")).toBe(true);
    const second = await h.call("list_transactions", { status: 1, limit: 10, cursor: first.data.next_cursor });
    const seen = [...first.data.transactions, ...second.data.transactions];
    expect(new Set(seen.map((t: { id: string }) => t.id)).size).toBe(20);
    for (const row of seen) {
      const record = expected.find((t) => t.id === row.id)!;
      expect(row.amount).toBe(record.amount);
    }
    const times = seen.map((t: { inserted_at: string }) => Date.parse(t.inserted_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(seen[0].inserted_at).toMatch(/\+07:00$/);
  });

  it("applies since/until in shop time, lists what is in effect unless told, and totals a whole answer", async () => {
    const r = await h.call("list_transactions", { since: "2026-10-01", until: "2026-10-31", limit: 100 });
    const [from, to] = [shopUnix("2026-10-01T00:00:00"), shopUnix("2026-10-31T23:59:59")];
    const inMonth = pos().transactions.filter((t) => unixOf(t.inserted_at) >= from && unixOf(t.inserted_at) <= to);
    const expected = inMonth.filter((t) => t.status === 1);
    // The month holds entries not in effect: summed in, they changed the net.
    expect(expected.length).toBeLessThan(inMonth.length);
    expect(r.data.total).toBe(expected.length);
    expect(r.data.next_cursor).toBeUndefined();
    const amounts = expected.map((t) => Number(t.amount));
    const income = amounts.filter((a) => a > 0).reduce((a, b) => a + b, 0);
    const expense = -amounts.filter((a) => a < 0).reduce((a, b) => a + b, 0);
    expect(r.data.totals).toEqual({ income, expense, net: income - expense });
    const all = await h.call("list_transactions", { status: "all", since: "2026-10-01", until: "2026-10-31", limit: 100 });
    expect(all.data.total).toBe(inMonth.length);
    // An answer showing fewer rows than match is still summed over all of them; its next page is not.
    const paged = await h.call("list_transactions", { since: "2026-10-01", until: "2026-10-31", limit: 2 });
    expect(paged.data.next_cursor).toBeDefined();
    expect(paged.data.totals).toEqual({ income, expense, net: income - expense });
    expect((await h.call("list_transactions", { cursor: paged.data.next_cursor, limit: 2 })).data.totals).toBeUndefined();
  });

  it("answers the totals alone with limit 0, and each status apart when several (or all) are asked", async () => {
    const [from, to] = [shopUnix("2026-10-01T00:00:00"), shopUnix("2026-10-31T23:59:59")];
    const inMonth = pos().transactions.filter((t) => unixOf(t.inserted_at) >= from && unixOf(t.inserted_at) <= to);
    const sums = (status: number) => {
      const amounts = inMonth.filter((t) => t.status === status).map((t) => Number(t.amount));
      const income = amounts.filter((a) => a > 0).reduce((a, b) => a + b, 0);
      const expense = -amounts.filter((a) => a < 0).reduce((a, b) => a + b, 0);
      return { count: amounts.length, income, expense, net: income - expense };
    };
    const month = { since: "2026-10-01", until: "2026-10-31" };
    const { count, ...money } = sums(1);
    const alone = await h.call("list_transactions", { ...month, limit: 0 });
    expect(alone.isError, alone.text).toBe(false);
    expect(alone.data).toMatchObject({ total: count, totals: money, transactions: [] });
    expect(alone.data.next_cursor).toBeUndefined();

    // Cancelled and deleted entries are money that never moved: summed into "all", they read as income.
    expect(sums(2).count + sums(3).count).toBeGreaterThan(0);
    const all = await h.call("list_transactions", { ...month, status: "all", limit: 0 });
    expect(all.data.totals).toBeUndefined();
    expect(all.data.by_status).toEqual({ new: sums(0), in_effect: sums(1), cancelled: sums(2), deleted: sums(3) });
    expect(all.data.total).toBe(inMonth.length);

    const two = await h.call("list_transactions", { ...month, status: ["in_effect", "cancelled"], limit: 100 });
    expect(two.data.by_status).toEqual({ in_effect: sums(1), cancelled: sums(2) });
    const listed = inMonth.filter((t) => t.status === 1 || t.status === 2).map((t) => t.id);
    expect(two.data.transactions.map((t: { id: string }) => t.id).sort()).toEqual([...listed].sort());
    expect(two.data.total).toBe(listed.length);
  });

  it("refuses limit 0 with a cursor, and a bad status in a list, naming the valid ones", async () => {
    const first = await h.call("list_transactions", { limit: 1 });
    const r = await h.call("list_transactions", { limit: 0, cursor: first.data.next_cursor });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("limit");
    const bad = await h.call("list_transactions", { status: ["in_effect", "refunded"] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("status[1]");
    expect(bad.text).toContain("cancelled (2)");
  });

  it("rejects an unknown status name, listing the valid ones", async () => {
    const r = await h.call("list_transactions", { status: "paid" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("status");
    expect(r.text).toContain("in_effect (1)");
  });
});

describe("list_transactions past a capped page", () => {
  it("keeps walking while total_entries says more rows exist", async () => {
    const real = pos().transactions.slice(0, 4).map((t) => ({ ...t }));
    const path = `/pos/api/v1/shops/${pos().shop.id}/transactions`;
    h.sandbox.server.injectFault({ method: "GET", path, kind: "status", status: 200, body: { success: true, data: real, total_entries: pos().transactions.length } });
    h.sandbox.server.resetRecords();
    const r = await h.call("list_transactions", { limit: 10 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.transactions.length).toBe(10);
    const pages = h.sandbox.server.requests.filter((q) => q.path === path).map((q) => q.query.page?.[0] ?? q.query.page_number?.[0]);
    // The listing's two pages; the reads after them sum the totals (pages of 100).
    expect(pages.slice(0, 2)).toEqual(["1", "2"]);
  });
});

describe("create_transaction", () => {
  it("records an expense that list_transactions then shows", async () => {
    const r = await h.call("create_transaction", {
      name: "Tiền điện tháng 11",
      amount: -1_200_000,
      payments: ["cash"],
      time_incurred: "2026-11-20",
      fields: '{"is_accounting": true}',
    });
    expect(r.isError, r.text).toBe(false);
    const sent = h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/transactions")).at(-1);
    expect(sent?.body).toMatchObject({ transaction: { time_incurred: "2026-11-19T17:00:00.000Z" } });
    const stored = pos().transactions.find((t) => t.id === r.data.id)!;
    expect(stored).toMatchObject({ name: "Tiền điện tháng 11", amount: -1_200_000, payments: ["cash"], is_accounting: true });
    const listed = await h.call("list_transactions", { limit: 5 });
    expect(listed.data.transactions[0]).toMatchObject({ id: r.data.id, amount: -1_200_000 });
  });

  it("ties a transaction to an order given by its shop number, refusing one that does not exist", async () => {
    const order = pos().orders.find((o) => !o.is_removed && o.display_id > 100)!;
    const r = await h.call("create_transaction", { name: "Thu tiền đơn", amount: 200_000, order_id: `#${order.display_id}` });
    expect(r.isError, r.text).toBe(false);
    expect(pos().transactions.find((t) => t.id === r.data.id)).toMatchObject({ orderId: String(order.id) });
    const before = pos().transactions.length;
    const none = await h.call("create_transaction", { name: "Thu", amount: 1, order_id: "#99999" });
    expect(none.isError).toBe(true);
    expect(none.text).toContain("no order numbered #99999");
    expect(pos().transactions).toHaveLength(before);
  });

  it("names the missing required field before any call", async () => {
    const before = h.sandbox.server.count("POST", `/pos/api/v1/shops/${pos().shop.id}/transactions`);
    const noName = await h.call("create_transaction", { amount: 1000 });
    expect(noName.isError).toBe(true);
    expect(noName.text).toMatch(/\bname\b/);
    const noAmount = await h.call("create_transaction", { name: "Thu" });
    expect(noAmount.isError).toBe(true);
    expect(noAmount.text).toMatch(/\bamount\b/);
    const badPayment = await h.call("create_transaction", { name: "Thu", amount: 1, payments: ["bitcoin"] });
    expect(badPayment.text).toMatch(/payments/);
    expect(h.sandbox.server.count("POST", `/pos/api/v1/shops/${pos().shop.id}/transactions`)).toBe(before);
  });
});

describe("record_ad_cost", () => {
  it("books the cost as an expense transaction visible in list_transactions", async () => {
    const marketer = pos().users.find((u) => u.department.name === "Marketing")!;
    const page = pos().shop.pages[0]!;
    const items = [
      { cost: 500_000, tax: 10, marketer: marketer.email, post_ids: [`${page.id}_1`] },
      { cost: 200_000, source: { key: "-1", account: page.id } },
    ];
    const r = await h.call("record_ad_cost", {
      cost_date: "2026-11-20",
      transaction: JSON.stringify({ name: "Quảng cáo FB tuần 47", status: "in_effect", tags: ["FB"], time_incurred: "2026-11-20 22:00" }),
      items,
    });
    expect(r.isError, r.text).toBe(false);
    const total = items.reduce((sum, it) => sum + Math.round(it.cost * (1 + (it.tax ?? 0) / 100)), 0);
    expect(r.data.total_cost).toBe(total);
    // The result says what was recorded and what each cost was resolved to.
    expect(r.data.cost_date).toBe("2026-11-20T00:00:00+07:00");
    // The entry's own time, given apart from the cost's day, is what the cash book holds.
    expect(r.data.time_incurred).toBe("2026-11-20T22:00:00+07:00");
    expect(r.data.tags).toEqual(["FB"]);
    expect(r.data.not_applied).toBeUndefined();
    expect(r.data.items).toHaveLength(2);
    expect(r.data.items[0]).toContain(marketer.name);
    expect(r.data.items[1]).toContain(page.name);
    const sent = pos().adCosts.at(-1)!;
    expect(sent.cost_date).toBe("2026-11-20 00:00:00");
    const request = h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/adv_costs")).at(-1);
    expect(request?.body).toMatchObject({ params: { transaction: { time_incurred: "2026-11-20 15:00:00" } } });
    expect((sent.items as { pke_mkter?: string }[])[0]!.pke_mkter).toBe(marketer.id);
    const listed = await h.call("list_transactions", { status: "in_effect", limit: 5 });
    const row = listed.data.transactions.find((t: { ad_cost_id?: string }) => t.ad_cost_id === r.data.ad_cost_id);
    expect(row).toMatchObject({ id: r.data.transaction_id, name: "Quảng cáo FB tuần 47", amount: -total, status: "in_effect" });
  });

  it("validates cost date, transaction and items before calling", async () => {
    const path = `/pos/api/v1/shops/${pos().shop.id}/adv_costs`;
    const before = h.sandbox.server.count("POST", path);
    const base = { cost_date: "2026-11-20", transaction: { name: "QC", status: "new" }, items: [{ cost: 1000 }] };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...base, cost_date: "2026-02-30" }, /cost_date: cannot read "2026-02-30" as a date/],
      [{ ...base, transaction: { name: "QC", status: "new", time_incurred: "soon" } }, /transaction\.time_incurred: cannot read "soon"/],
      [{ ...base, items: [{ cost: -850_000 }] }, /must be above 0 at items\[0\]\.cost/],
      [{ ...base, items: [{ cost: 0 }] }, /must be above 0 at items\[0\]\.cost/],
      [{ ...base, items: [{ cost: "850,000 đ" }] }, /items\[0\]\.cost/],
      [{ ...base, items: [{ cost: 850_000.5 }] }, /items\[0\]\.cost/],
      [{ ...base, campaign: "" }, /campaign/],
      [{ ...base, transaction: { name: "QC" } }, /transaction\.status/],
      [{ ...base, transaction: { status: "new" } }, /transaction\.name/],
      [{ ...base, transaction: { name: "QC", status: "paid" } }, /transaction\.status: unknown/],
      [{ ...base, items: [] }, /items/],
      [{ ...base, items: [{ tax: 5 }] }, /items\[0\]\.cost/],
      [{ ...base, cost_date: "next week" }, /cost_date: cannot read/],
    ];
    for (const [args, message] of cases) {
      const r = await h.call("record_ad_cost", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(message);
    }
    expect(h.sandbox.server.count("POST", path)).toBe(before);
  });
});

describe("record_ad_cost references", () => {
  const post = (args: Record<string, unknown>) =>
    h.call("record_ad_cost", { cost_date: "2026-11-20", transaction: { name: "QC", status: "new" }, ...args });

  it("resolves source, page, warehouse, product and marketer names to the ids the shop keys them by", async () => {
    const kids = pos().shop.pages.find((p) => p.name.startsWith("Mây Kids"))!;
    const warehouse = pos().warehouses[1]!;
    const product = pos().products[4]!;
    const marketer = pos().users.find((u) => u.department.name === "Marketing")!;
    const r = await post({
      items: [
        { cost: 100_000, source: { key: "Facebook" } },
        { cost: 200_000, source: { key: "facebook", account: "may kids" }, warehouse_id: "kho ho chi minh", product: product.name.toLowerCase(), marketer: "Võ Thanh Tâm" },
        { cost: 300_000, source: { key: kids.name } },
      ],
    });
    expect(r.isError, r.text).toBe(false);
    expect(h.sandbox.server.count("POST", `/pos/api/v1/shops/${pos().shop.id}/adv_costs`)).toBeGreaterThan(0);
    const sent = pos().adCosts.at(-1)!.items as Record<string, unknown>[];
    expect(sent[0]!.source).toEqual({ key: "-1" });
    expect(sent[1]).toMatchObject({ source: { key: "-1", account: kids.id }, warehouse_id: warehouse.id, product: product.id, pke_mkter: marketer.id });
    expect(sent[2]!.source).toEqual({ key: "-1", account: kids.id });
  });

  it("rejects what does not resolve with the valid values, before writing", async () => {
    const path = `/pos/api/v1/shops/${pos().shop.id}/adv_costs`;
    const before = h.sandbox.server.count("POST", path);
    const cases: [Record<string, unknown>, RegExp[]][] = [
      [{ source: { key: "Myspace" } }, [/items\[0\]\.source: unknown value "Myspace"/, /Facebook \(-1\)/, /Shopee \(-3\)/]],
      [{ source: { key: "-1", account: "406" } }, [/items\[0\]\.source account: unknown value "406"/, /Mây Kids/]],
      [{ source: { key: "Shopee", account: "3" } }, [/lists no accounts/]],
      [{ warehouse_id: "Kho Cần Thơ" }, [/items\[0\]\.warehouse_id: unknown value/, /Kho Hà Nội/]],
      [{ warehouse_id: "kho" }, [/matches 3 values/]],
      [{ marketer: "mkt@example.com" }, [/items\[0\]\.marketer: unknown value/, /Võ Thanh Tâm/]],
      [{ product: "NOPE-1" }, [/items\[0\]\.product: no product has the id, SKU, barcode or name "NOPE-1"/]],
    ];
    for (const [item, messages] of cases) {
      const r = await post({ items: [{ cost: 1000, ...item }] });
      expect(r.isError, JSON.stringify(item)).toBe(true);
      for (const m of messages) expect(r.text).toMatch(m);
    }
    expect(h.sandbox.server.count("POST", path)).toBe(before);
  });
});

describe("list_payment_histories", () => {
  it("lists payments in a range with their orders", async () => {
    const r = await h.call("list_payment_histories", { since: "2026-09-01", until: "2026-11-22", limit: 100 });
    expect(r.isError, r.text).toBe(false);
    const [from, to] = [shopUnix("2026-09-01T00:00:00"), shopUnix("2026-11-22T23:59:59")];
    const expected = pos().paymentHistories.filter((p) => unixOf(p.inserted_at) >= from && unixOf(p.inserted_at) <= to);
    expect(r.data.total).toBe(expected.length);
    const row = r.data.payments[0];
    const record = expected.find((p) => String(p.id) === row.id)!;
    expect(row).toMatchObject({ amount: record.amount, order_id: String((record.order as { id: unknown }).id) });
    expect(row.customer_name).toBe((record.order as { name: string }).name);
  });
});

describe("list_debts", () => {
  type Debt = (typeof h.sandbox.pos.debts)[number];
  const money = (d: Debt) => ({ due: d.money_must_pay_or_collect as number, settled: d.money_payed_or_collected as number });
  /** Open, past its due date, money still owed. */
  const overdue = (d: Debt) => d.status === 0 && money(d).due > money(d).settled && Date.parse(`${d.expired_at}Z`) < Date.now();
  const sums = (debts: Debt[]) => ({
    count: debts.length,
    due: debts.reduce((s, d) => s + money(d).due, 0),
    settled: debts.reduce((s, d) => s + money(d).settled, 0),
    remaining: debts.reduce((s, d) => s + money(d).due - money(d).settled, 0),
    overdue: { count: debts.filter(overdue).length, remaining: debts.filter(overdue).reduce((s, d) => s + money(d).due - money(d).settled, 0) },
  });
  /** What the shop owes, split as the tool splits it: to suppliers and to customers (refunds). */
  const payableSums = (debts: Debt[]) => {
    const toSupplier = (d: Debt) => (d as { supplier_products_id?: unknown }).supplier_products_id != null;
    return { ...sums(debts), to_suppliers: sums(debts.filter(toSupplier)), to_customers: sums(debts.filter((d) => !toSupplier(d))) };
  };
  const newest = (debts: Debt[]) =>
    [...debts].sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : String(a.id) < String(b.id) ? -1 : 1));

  it("names payable/receivable and filters by status name", async () => {
    const r = await h.call("list_debts", { status: "settled", limit: 100 });
    expect(r.isError, r.text).toBe(false);
    const expected = pos().debts.filter((d) => d.status === 1);
    expect(r.data.total).toBe(expected.length);
    for (const row of r.data.debts) {
      const record = expected.find((d) => d.id === row.id)!;
      expect(row.type).toBe(record.type === 0 ? "payable" : "receivable");
      expect(row.status).toBe("settled");
      expect(row.remaining).toBe(money(record).due - money(record).settled);
    }
  });

  it("totals each direction apart over every matching debt, not only the page", async () => {
    const open = pos().debts.filter((d) => d.status === 0);
    const r = await h.call("list_debts", { status: "open", limit: 2 });
    expect(r.data.debts).toHaveLength(2);
    expect(r.data.totals).toEqual({ receivable: sums(open.filter((d) => d.type === 1)), payable: payableSums(open.filter((d) => d.type === 0)) });
    expect(r.data.totals.receivable.count).toBeGreaterThan(0);
    expect(r.data.totals.payable.count).toBeGreaterThan(0);
  });

  it("filters by direction, paged with a cursor, with the matching total and the totals on every page", async () => {
    const receivable = newest(pos().debts.filter((d) => d.type === 1));
    const first = await h.call("list_debts", { direction: "receivable", limit: 4 });
    expect(first.data.total).toBe(receivable.length);
    const seen = [...first.data.debts];
    let cursor = first.data.next_cursor;
    for (let i = 0; cursor && i < 20; i++) {
      const next = await h.call("list_debts", { cursor, limit: 4 });
      expect(next.isError, next.text).toBe(false);
      expect(next.data.totals).toEqual(first.data.totals);
      seen.push(...next.data.debts);
      cursor = next.data.next_cursor;
    }
    expect(seen.map((d: { id: string }) => d.id)).toEqual(receivable.map((d) => d.id));
    expect(seen.every((d: { type: string }) => d.type === "receivable")).toBe(true);
  });

  it("leaves cancelled debts out of the totals unless they are asked for", async () => {
    const payable = pos().debts.filter((d) => d.type === 0);
    expect(payable.some((d) => d.status === 2)).toBe(true);
    const r = await h.call("list_debts", { direction: "payable" });
    expect(r.data.totals).toEqual({ payable: payableSums(payable.filter((d) => d.status !== 2)) });
    const cancelled = await h.call("list_debts", { direction: "payable", status: "cancelled" });
    expect(cancelled.data.totals).toEqual({ payable: payableSums(payable.filter((d) => d.status === 2)) });
  });

  it("totals only the direction asked for", async () => {
    const payable = pos().debts.filter((d) => d.type === 0 && d.status === 0);
    const r = await h.call("list_debts", { direction: "payable", status: "open" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.totals).toEqual({ payable: payableSums(payable) });
    // Open payables here are refunds due to customers; none is a debt to a supplier.
    expect(r.data.totals.payable.to_suppliers.count).toBe(payable.filter((d) => (d as { supplier_products_id?: unknown }).supplier_products_id != null).length);
    for (const row of r.data.debts) expect(row.party).toBe(row.supplier_id ? "supplier" : "customer");
    expect(r.data.total).toBe(payable.length);
  });

  it("reads the direction plainly: what the shop owes is owed to a supplier or a customer, never \"the customer owes\"", async () => {
    const r = await h.call("list_debts", { direction: "payable", limit: 100 });
    const payable = pos().debts.filter((d) => d.type === 0);
    expect(r.data.debts).toHaveLength(payable.length);
    for (const row of r.data.debts) expect(row.description).not.toMatch(/còn nợ$/);
    const toSupplier = r.data.debts.filter((row: { supplier_id?: string }) => row.supplier_id);
    expect(toSupplier.length).toBeGreaterThan(0);
    for (const row of toSupplier) expect(row.customer_id).toBeUndefined();
  });

  it("lists one customer's debts", async () => {
    const customerId = String(pos().debts.find((d) => d.shop_customer_id)!.shop_customer_id);
    const r = await h.call("list_debts", { customer_id: customerId });
    expect(r.data.total).toBe(pos().debts.filter((d) => String(d.shop_customer_id) === customerId).length);
  });
});
