import type { Sandbox } from "../../src/sandbox/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/types.js";
import { type Scenario, shopDay } from "./framework.js";

// Sales questions: revenue, sources, best sellers, order counts.

const at = (recordTime: string) => Date.parse(`${recordTime}Z`);
const revenueOf = (o: OrderRecord) => o.items.reduce((t, it) => t + it.variation_info.retail_price * it.quantity, 0);

/** Sales, as every tool counts them by default: orders created in the shop days given, neither canceled nor deleted. */
function sales(s: Sandbox, first: string, last: string): OrderRecord[] {
  const from = Date.parse(`${first}T00:00:00+07:00`);
  const to = Date.parse(`${last}T23:59:59+07:00`);
  return s.pos.orders.filter((o) => !o.is_removed && o.status !== 6 && o.status !== 7 && at(o.inserted_at) >= from && at(o.inserted_at) <= to);
}

function sumBy<K>(orders: OrderRecord[], key: (o: OrderRecord) => K, value: (o: OrderRecord) => number): Map<K, number> {
  const out = new Map<K, number>();
  for (const o of orders) out.set(key(o), (out.get(key(o)) ?? 0) + value(o));
  return out;
}

export const salesScenarios: Scenario<unknown>[] = [
  {
    question: "What was our revenue this month, by order source?",
    async ask(q) {
      const r = await q.call("get_sales_analytics", { split_by: ["Order.source"], since: `${shopDay(q.sandbox).slice(0, 7)}-01` });
      return Object.fromEntries(r.data.rows.map((row: Record<string, number>) => [row["Order.source"], row.price]));
    },
    truth: (s) => Object.fromEntries(sumBy(sales(s, `${shopDay(s).slice(0, 7)}-01`, shopDay(s)), (o) => o.order_sources_name, revenueOf)),
  },
  {
    question: "What were our 5 best-selling products (by revenue) over the last 30 days?",
    async ask(q) {
      const r = await q.call("get_sales_analytics", { split_by: ["Variation.id"], limit: 5 });
      return r.data.rows.map((row: { price: number }) => row.price);
    },
    truth: (s) => {
      const revenue = new Map<number | string, number>();
      for (const o of sales(s, shopDay(s, 29), shopDay(s))) {
        for (const it of o.items) revenue.set(it.variation_id, (revenue.get(it.variation_id) ?? 0) + it.variation_info.retail_price * it.quantity);
      }
      return [...revenue.values()].sort((a, b) => b - a).slice(0, 5);
    },
  },
  {
    question: "How much did we sell yesterday, and in how many orders?",
    async ask(q) {
      const r = await q.call("get_sales_analytics", { since: "yesterday", until: "yesterday" });
      return { revenue: r.data.totals?.success?.price ?? 0, orders: r.data.totals?.success?.order_count ?? 0 };
    },
    truth: (s) => {
      const orders = sales(s, shopDay(s, 1), shopDay(s, 1));
      return { revenue: orders.reduce((t, o) => t + revenueOf(o), 0), orders: orders.length };
    },
  },
  {
    question: "How much did we sell last month?",
    async ask(q) {
      // The call a model writes first: "last month" as since alone used to run to today.
      const guess = await q.call("get_sales_analytics", { since: "last month" });
      if (!guess.isError || !/until "last month"/.test(guess.text)) throw new Error(`expected the two readings, got ${guess.text.slice(0, 200)}`);
      const r = await q.call("get_sales_analytics", { since: "last month", until: "last month" });
      return { revenue: r.data.totals?.success?.price ?? 0, orders: r.data.totals?.success?.order_count ?? 0 };
    },
    truth: (s) => {
      const [year, month] = shopDay(s).split("-").map(Number) as [number, number];
      const first = new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 10);
      const last = new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10);
      const orders = sales(s, first, last);
      if (orders.length === 0) throw new Error("the demo shop sold nothing last month");
      return { revenue: orders.reduce((t, o) => t + revenueOf(o), 0), orders: orders.length };
    },
  },
  {
    question: "Which 5 products sold the most units over the last 30 days?",
    async ask(q) {
      const r = await q.call("get_sales_analytics", { split_by: ["Variation.id"], sort_by: "product_count", limit: 5 });
      return r.data.rows.map((row: { product_count: number }) => row.product_count);
    },
    truth: (s) => {
      const units = new Map<number | string, number>();
      for (const o of sales(s, shopDay(s, 29), shopDay(s))) {
        for (const it of o.items) units.set(it.variation_id, (units.get(it.variation_id) ?? 0) + it.quantity);
      }
      return [...units.values()].sort((a, b) => b - a).slice(0, 5);
    },
  },
  {
    question: "What was our revenue each day this week?",
    async ask(q) {
      const r = await q.call("get_sales_analytics", { since: shopDay(q.sandbox, 6) });
      return Object.fromEntries(r.data.rows.map((row: Record<string, number>) => [row["Time.day"], row.price]));
    },
    truth: (s) => {
      const byDay = sumBy(sales(s, shopDay(s, 6), shopDay(s)), (o) => new Date(at(o.inserted_at) + 7 * 3_600_000).toISOString().slice(0, 10), revenueOf);
      return Object.fromEntries([...byDay].sort((a, b) => a[0].localeCompare(b[0])));
    },
  },
  {
    question: "Which sales channel brought the most orders in the last 30 days?",
    async ask(q) {
      const r = await q.call("get_sales_analytics", { split_by: ["Order.source"], sort_by: "order_count", limit: 1 });
      return r.data.rows[0]["Order.source"];
    },
    truth: (s) => [...sumBy(sales(s, shopDay(s, 29), shopDay(s)), (o) => o.order_sources_name, () => 1)].sort((a, b) => b[1] - a[1])[0]![0],
  },
];
