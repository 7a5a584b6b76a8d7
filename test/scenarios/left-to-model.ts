import type { Sandbox } from "../../src/sandbox/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/types.js";
import { type Scenario, shopDay } from "./framework.js";

// The question shapes issue 28 found still left to the model (paging, counting, guessing), each
// now one or two calls. Truths count the sandbox's raw records.

const at = (time: string) => Date.parse(`${time.slice(0, 23)}Z`);
const activePages = (s: Sandbox) => new Set(s.messaging.pages.map((p) => p.id));
const live = (s: Sandbox) => s.messaging.conversations.filter((c) => activePages(s).has(c.page_id));
const counted = (o: OrderRecord) => !o.is_removed && o.status !== 6 && o.status !== 7;
/** A buyer: the POS customer an order names, else the phone it was placed with. */
const buyerOf = (o: OrderRecord) => o.shop_customer_id ?? o.customer?.id ?? o.bill_phone_number;
const keyOf = (g: { customer_id?: string; phone?: string }) => g.customer_id ?? g.phone;

function ordersPerBuyer(orders: OrderRecord[]): Map<string, { orders: number; amount: number }> {
  const out = new Map<string, { orders: number; amount: number }>();
  for (const o of orders.filter(counted)) {
    const b = out.get(buyerOf(o)) ?? { orders: 0, amount: 0 };
    b.orders++;
    b.amount += o.total_price_after_sub_discount;
    out.set(buyerOf(o), b);
  }
  return out;
}

export const leftToModelScenarios: Scenario<unknown>[] = [
  {
    question: "How many unread conversations does each page have?",
    async ask(q) {
      const r = await q.call("list_conversations", { unread: true, group_by: ["page"] });
      return Object.fromEntries((r.data.groups as { page: string; count: number }[]).map((g) => [g.page, g.count]));
    },
    truth: (s) => {
      const out: Record<string, number> = {};
      for (const c of live(s).filter((x) => !x.seen)) {
        const name = s.messaging.pages.find((p) => p.id === c.page_id)!.name;
        out[name] = (out[name] ?? 0) + 1;
      }
      return out;
    },
  },
  {
    question: "How many customers are waiting for a reply right now?",
    async ask(q) {
      return (await q.call("list_conversations", { awaiting_reply: true, limit: 5 })).data.total;
    },
    truth: (s) => live(s).filter((c) => (s.messaging.messages[c.id]?.length ?? 0) > 0 && s.messaging.messages[c.id]!.at(-1)!.from.admin_id === undefined).length,
  },
  {
    question: "Which customers ordered more than once in the last 30 days?",
    async ask(q) {
      const r = await q.call("search_orders", { group_by: ["customer"], since: "last 30 days", min_orders: 2, limit: 100 });
      return (r.data.groups as { customer_id?: string; phone?: string }[]).map(keyOf).sort();
    },
    truth: (s) => {
      const since = Date.parse(`${shopDay(s, 29)}T00:00:00+07:00`);
      return [...ordersPerBuyer(s.pos.orders.filter((o) => at(o.inserted_at) >= since))]
        .filter(([, b]) => b.orders >= 2)
        .map(([k]) => k)
        .sort();
    },
  },
  {
    question: "Who are our top 5 customers by what they spent?",
    async ask(q) {
      const r = await q.call("search_orders", { group_by: ["customer"], group_sort: "amount", limit: 5 });
      return (r.data.groups as { customer_id?: string; phone?: string; amount: number }[]).slice(0, 5).map((g) => [keyOf(g), g.amount]);
    },
    truth: (s) =>
      [...ordersPerBuyer(s.pos.orders)]
        .sort(([ka, a], [kb, b]) => b.amount - a.amount || ka.localeCompare(kb))
        .slice(0, 5)
        .map(([k, b]) => [k, b.amount]),
  },
  {
    // The demo shop's stock runs from 19 units a variant up: "fewer than 50" finds a few.
    question: "Which variants have fewer than 50 units left across all warehouses?",
    async ask(q) {
      const r = await q.call("search_products", { max_total_stock: 49, limit: 50 });
      return (r.data.variations as { variation_id: string }[]).map((v) => v.variation_id).sort();
    },
    truth: (s) =>
      s.pos.variations
        .filter((v) => v.variations_warehouses.reduce((t, w) => t + w.remain_quantity, 0) <= 49)
        .map((v) => v.id)
        .sort(),
  },
  {
    question: "How many units do we hold in all, across every warehouse?",
    async ask(q) {
      const r = await q.call("search_products", { limit: 0 });
      return r.data.stock_totals.stock_available;
    },
    truth: (s) => s.pos.variations.reduce((t, v) => t + v.variations_warehouses.reduce((u, w) => u + w.remain_quantity, 0), 0),
  },
  {
    question: "How many orders did we take this month, returned ones left out?",
    async ask(q) {
      const r = await q.call("search_orders", { since: "this month", statuses: ["returned"], exclude_statuses: true, limit: 0 });
      return r.data.total;
    },
    truth: (s) => s.pos.orders.filter((o) => !o.is_removed && o.status !== 5 && at(o.inserted_at) >= Date.parse(`${shopDay(s).slice(0, 7)}-01T00:00:00+07:00`)).length,
  },
  {
    question: "Find the customer I typed with one wrong letter.",
    async ask(q) {
      const real = q.sandbox.pos.customers.find((c) => /^[A-Za-zÀ-ỹ ]+$/.test(c.name) && c.name.split(" ").length >= 3)!;
      const typo = `${real.name.slice(0, -1)}${real.name.endsWith("x") ? "y" : "x"}`;
      const r = await q.call("search_customers", { search: typo });
      return (r.data.suggestions as { id: string }[] | undefined)?.some((c) => c.id === real.id) ?? false;
    },
    truth: () => true,
  },
];
