import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// Issue 39: a chat row showed an open order as {"id":"58444"}; the owner knows it as #444. Every
// row that names an order names it by the shop's number, and every tool taking an order takes it.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;
const order444 = () => pos().orders.find((o) => o.display_id === 444)!;

describe("orders by the shop's number, in and out", () => {
  it("shows #444 in get_order, search_orders and track_order, given as \"#444\" or 444", async () => {
    const order = order444();
    expect(String(order.id)).not.toBe("444");
    for (const ref of ["#444", "444", 444]) {
      const r = await h.call("get_order", { order_id: ref });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.order).toMatchObject({ id: String(order.id), number: "#444" });
    }
    const searched = await h.call("search_orders", { search: "#444" });
    expect(searched.data.orders.map((o: { id: string; number: string }) => [o.id, o.number])).toEqual([[String(order.id), "#444"]]);
    const tracked = await h.call("track_order", { order_id: "#444" });
    expect(tracked.data).toMatchObject({ order_id: String(order.id), number: "#444" });
  });

  it("names the order of a debt, a bank payment, a customer note and a cash-book entry by its number", async () => {
    const debts = await h.call("list_debts", { status: "all", limit: 100 });
    const owed = pos().debts.filter((d) => d.order_id !== null);
    expect(owed.length).toBeGreaterThan(0);
    for (const raw of owed) {
      const row = debts.data.debts.find((d: { id: string }) => d.id === raw.id);
      if (!row) continue;
      expect(row).toMatchObject({ order: `#${(raw.order as { display_id: number }).display_id}`, order_id: String(raw.order_id) });
    }
    expect(debts.data.debts.some((d: { order?: string }) => d.order)).toBe(true);

    const payments = await h.call("list_payment_histories", { limit: 20 });
    for (const row of payments.data.payments) {
      const raw = pos().paymentHistories.find((p) => String(p.id) === row.id)!;
      expect(row.order, row.id).toBe(`#${(raw.order as { display_id: number }).display_id}`);
    }

    const order = order444();
    const customer = pos().customers.find((c) => c.id === order.shop_customer_id)!;
    const noted = await h.call("add_customer_note", { customer_id: customer.id, message: "Khách hẹn đổi size", order_id: "#444" });
    expect(noted.isError, noted.text).toBe(false);
    const notes = await h.call("list_customer_notes", { customer_id: customer.id });
    expect(notes.data.notes.find((n: { staff_text: string }) => n.staff_text === "Khách hẹn đổi size")).toMatchObject({ order: "#444", order_id: String(order.id) });

    const entry = await h.call("create_transaction", { name: "Thu tiền đơn 444", amount: 250_000, order_id: "444" });
    expect(entry.isError, entry.text).toBe(false);
    expect(entry.data.order).toBe("#444");
    const book = await h.call("list_transactions", { since: "today", until: "today", time_field: "entered" });
    expect(book.data.transactions.find((t: { id: string }) => t.id === entry.data.id)).toMatchObject({ order: "#444", order_id: String(order.id) });
  });
});
