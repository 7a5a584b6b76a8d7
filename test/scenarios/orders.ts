import type { Sandbox } from "../../src/sandbox/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/types.js";
import { type Scenario, shopDay } from "./framework.js";

// Point-of-sale questions: orders by the number people say, customers by any phone form, stock,
// money owed, and the mistakes a model makes on its first try.

const at = (recordTime: string) => Date.parse(`${recordTime}Z`);
const liveOrders = (s: Sandbox) => s.pos.orders.filter((o) => !o.is_removed);
const digits = (phone: string) => phone.replace(/\D/g, "");

/** An order somewhere in the middle of the list, so its number is not on the first page. */
const someOrder = (s: Sandbox): OrderRecord => liveOrders(s)[Math.floor(liveOrders(s).length / 2)]!;

/** A customer whose phone appears on some orders, written the way people type it. */
function customerPhone(s: Sandbox) {
  const customer = s.pos.customers.find((c) => c.phone_numbers[0] && liveOrders(s).some((o) => digits(o.bill_phone_number) === digits(c.phone_numbers[0]!)))!;
  const phone = customer.phone_numbers[0]!;
  return { customer, phone, dotted: `${phone.slice(0, 4)}.${phone.slice(4, 7)}.${phone.slice(7)}`, international: `+84 ${phone.slice(1, 4)} ${phone.slice(4, 7)} ${phone.slice(7)}` };
}

export const orderScenarios: Scenario<unknown>[] = [
  {
    question: "What is in order #N (the number on the customer's receipt)?",
    async ask(q) {
      const r = await q.call("get_order", { order_id: `#${someOrder(q.sandbox).display_id}` });
      return { id: r.data.order.id, items: r.data.order.items.length };
    },
    truth: (s) => ({ id: String(someOrder(s).id), items: someOrder(s).items.length }),
  },
  {
    question: "Find the customer who called from +84 9xx xxx xxx.",
    async ask(q) {
      const r = await q.call("search_customers", { search: customerPhone(q.sandbox).international });
      return r.data.customers.map((c: { id: string }) => c.id);
    },
    truth: (s) => {
      const phone = digits(customerPhone(s).phone);
      return s.pos.customers.filter((c) => c.phone_numbers.some((p) => digits(p) === phone)).map((c) => String(c.id));
    },
  },
  {
    question: "How many orders has the customer with phone 09xx.xxx.xxx placed?",
    async ask(q) {
      const r = await q.call("search_orders", { search: customerPhone(q.sandbox).dotted, limit: 5 });
      return r.data.total;
    },
    truth: (s) => liveOrders(s).filter((o) => digits(o.bill_phone_number) === digits(customerPhone(s).phone)).length,
  },
  {
    question: "What is running low (5 or fewer) in the Ha Noi warehouse?",
    async ask(q) {
      const r = await q.call("search_products", { max_stock: 5, warehouse_id: "ha noi", limit: 50 });
      return r.data.variations.map((v: { variation_id: string }) => v.variation_id).sort();
    },
    truth: (s) => {
      const hanoi = s.pos.warehouses.find((w) => w.name === "Kho Hà Nội")!.id;
      const stock = (v: (typeof s.pos.variations)[number]) => v.variations_warehouses.find((w) => w.warehouse_id === hanoi)?.remain_quantity ?? 0;
      const low = s.pos.variations.filter((v) => !v.is_hidden && stock(v) <= 5).map((v) => String(v.id));
      if (low.length === 0) throw new Error("the demo shop has no low stock to find");
      return low.sort();
    },
  },
  {
    question: "What is running low (5 or fewer), and in which warehouse?",
    async ask(q) {
      const r = await q.call("search_products", { max_stock: 5, limit: 50 });
      if (r.data.next_cursor) throw new Error("more low rows than one call holds");
      return r.data.variations.map((v: { variation_id: string; low_in: string[] }) => `${v.variation_id}@${v.low_in.join("+")}`).sort();
    },
    truth: (s) => {
      const names = new Map(s.pos.warehouses.map((w) => [w.id, w.name]));
      const low = s.pos.variations.flatMap((v) => {
        const where = v.variations_warehouses.filter((w) => w.remain_quantity <= 5).map((w) => names.get(w.warehouse_id));
        return !v.is_hidden && where.length ? [`${v.id}@${where.join("+")}`] : [];
      });
      if (low.length === 0) throw new Error("the demo shop has no low stock to find");
      return low.sort();
    },
  },
  {
    question: "How much COD is out with the carriers (orders shipped, not yet delivered)?",
    async ask(q) {
      const r = await q.call("search_orders", { statuses: ["shipped"], limit: 1 });
      return r.data.totals.shipped.cod;
    },
    truth: (s) => s.pos.orders.filter((o) => !o.is_removed && o.status === 2).reduce((t, o) => t + o.cod, 0),
  },
  {
    question: "Which 3 customers have the most reward points?",
    async ask(q) {
      const r = await q.call("search_customers", { sort_by: "reward_point", limit: 3 });
      return r.data.customers.map((c: { customer_name: string; reward_point: number }) => `${c.customer_name}: ${c.reward_point}`);
    },
    truth: (s) =>
      [...s.pos.customers]
        .sort((a, b) => (b.reward_point ?? 0) - (a.reward_point ?? 0))
        .slice(0, 3)
        .map((c) => `${c.name}: ${c.reward_point ?? 0}`),
  },
  {
    question: "What is our cash flow this month (income, expenses, net)?",
    async ask(q) {
      const r = await q.call("list_transactions", { since: "this month", limit: 100 });
      if (!r.data.totals) throw new Error("the month's transactions did not fit one call");
      return r.data.totals;
    },
    truth: (s) => {
      const first = Date.parse(`${shopDay(s).slice(0, 7)}-01T00:00:00+07:00`);
      const amounts = s.pos.transactions.filter((t) => t.status === 1 && Date.parse(`${t.inserted_at}Z`) >= first).map((t) => Number(t.amount));
      const income = amounts.filter((a) => a > 0).reduce((a, b) => a + b, 0);
      const expense = -amounts.filter((a) => a < 0).reduce((a, b) => a + b, 0);
      return { income, expense, net: income - expense };
    },
  },
  {
    question: "How much do customers still owe us?",
    async ask(q) {
      const r = await q.call("list_debts", { direction: "receivable", status: "open" });
      return r.data.totals.receivable.remaining;
    },
    truth: (s) =>
      s.pos.debts
        .filter((d) => d.type === 1 && d.status === 0)
        .reduce((t, d) => t + Number(d.money_must_pay_or_collect) - Number(d.money_payed_or_collected), 0),
  },
  {
    question: "How many orders were canceled this month?",
    async ask(q) {
      const r = await q.call("search_orders", { statuses: ["canceled"], since: `${shopDay(q.sandbox).slice(0, 7)}-01`, limit: 5 });
      return r.data.total;
    },
    truth: (s) => {
      const from = Date.parse(`${shopDay(s).slice(0, 7)}-01T00:00:00+07:00`);
      return liveOrders(s).filter((o) => o.status === 6 && at(o.inserted_at) >= from).length;
    },
  },
  {
    question: "How many orders were shipped yesterday? (the model first guesses `status`)",
    async ask(q) {
      const guess = await q.call("search_orders", { status: "shipped", since: "yesterday", until: "yesterday" });
      if (!guess.isError) return "a guessed key was silently accepted";
      // The error names the real parameters; the model's second call uses them.
      const r = await q.call("search_orders", { time_field: "shipped", since: "yesterday", until: "yesterday", limit: 5 });
      return r.data.total;
    },
    truth: (s) => {
      const from = Date.parse(`${shopDay(s, 1)}T00:00:00+07:00`);
      const to = from + 86_400_000 - 1;
      return liveOrders(s).filter((o) => o.status_history.some((h) => h.status === 2 && at(h.updated_at) >= from && at(h.updated_at) <= to)).length;
    },
  },
];
