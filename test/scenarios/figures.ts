import type { Sandbox } from "../../src/sandbox/index.js";
import type { CustomerRecord, OrderRecord, VariationRecord } from "../../src/sandbox/pos/types.js";
import { adDays, days } from "../tools/page-stats/expected.js";
import { type Scenario, shopDay } from "./framework.js";

// Figures that say what they count: stock in one warehouse (for sale, on the shelf, on its way),
// a customer's spend (received orders, not cancelled or returned ones), ad spend against budgets.

const variant = (v: VariationRecord) => v.fields.map((f) => f.value).join(" ");
const tee = (s: Sandbox) => s.pos.variations.find((v) => v.product.name === "Áo thun Hàn Quốc" && variant(v) === "Nâu M")!;
const stockIn = (s: Sandbox, v: VariationRecord, warehouse: string) => {
  const id = s.pos.warehouses.find((w) => w.name === warehouse)!.id;
  return v.variations_warehouses.find((x) => x.warehouse_id === id)!;
};
const liveOrdersOf = (s: Sandbox, c: CustomerRecord) => s.pos.orders.filter((o) => o.shop_customer_id === c.id && !o.is_removed);
const received = (o: OrderRecord) => o.status === 3 || o.status === 16;
const spend = (s: Sandbox, c: CustomerRecord) => liveOrdersOf(s, c).filter(received).reduce((t, o) => t + o.total_price, 0);
/** A customer with received orders and some that were cancelled, returned or are still on their way. */
const mixedCustomer = (s: Sandbox) => s.pos.customers.find((c) => liveOrdersOf(s, c).some(received) && liveOrdersOf(s, c).some((o) => !received(o)))!;

export const figureScenarios: Scenario<unknown>[] = [
  {
    question: "How many Áo thun Hàn Quốc nâu M can we still sell from the Hà Nội warehouse, and how many are on the shelf there?",
    async ask(q) {
      const r = await q.call("search_products", { search: "Áo thun Hàn Quốc nâu M", warehouse_id: "Hà Nội" });
      const [row] = r.data.variations;
      return { sell: row.stock_available, shelf: row.stock_physical ?? row.stock_available };
    },
    truth: (s) => {
      const stock = stockIn(s, tee(s), "Kho Hà Nội");
      return { sell: stock.remain_quantity, shelf: stock.actual_remain_quantity };
    },
  },
  {
    question: "How many Ao thun Han Quoc nau M are there in each warehouse (no accents typed)?",
    async ask(q) {
      const r = await q.call("search_products", { search: "ao thun han quoc nau m" });
      return r.data.variations[0].stock_by_warehouse;
    },
    truth: (s) => Object.fromEntries(s.pos.warehouses.map((w) => [w.name, stockIn(s, tee(s), w.name).remain_quantity])),
  },
  {
    question: "How much has the customer with phone 09xx… spent with us, over how many received orders, and how many orders did they place in all?",
    async ask(q) {
      const r = await q.call("search_customers", { search: mixedCustomer(q.sandbox).phone_numbers[0] });
      const [row] = r.data.customers;
      return { spent: row.purchased_amount, received: row.succeeded_orders, placed: row.order_count };
    },
    truth: (s) => {
      const c = mixedCustomer(s);
      return { spent: spend(s, c), received: liveOrdersOf(s, c).filter(received).length, placed: liveOrdersOf(s, c).length };
    },
  },
  {
    question: "Who is our biggest customer by what they actually bought (cancelled and returned orders not counted)?",
    async ask(q) {
      const r = await q.call("search_customers", { sort_by: "purchased_amount", limit: 1 });
      return { id: r.data.customers[0].id, spent: r.data.customers[0].purchased_amount };
    },
    truth: (s) => {
      const best = [...s.pos.customers].sort((a, b) => spend(s, b) - spend(s, a))[0]!;
      return { id: best.id, spent: spend(s, best) };
    },
  },
  {
    question: "What did each running ad campaign spend yesterday against its daily budget?",
    async ask(q) {
      const r = await q.call("get_ad_stats", { since: "yesterday", until: "yesterday" });
      const running = r.data.rows.filter((row: { status: string }) => row.status === "ACTIVE");
      return Object.fromEntries(running.map((row: { campaign_id: string; spend: number; daily_budget: number }) => [row.campaign_id, [row.spend, row.daily_budget]]));
    },
    truth: (s) => {
      const yesterday = days(shopDay(s, 1), shopDay(s, 1));
      const counted = s.messaging.pages.filter((p) => p.id !== s.messaging.adsDeniedPageId).map((p) => p.id);
      const spent = new Map<string, number>();
      for (const d of counted.flatMap((p) => adDays(s.messaging, p, yesterday))) spent.set(d.campaign_id, (spent.get(d.campaign_id) ?? 0) + d.spend);
      const running = s.messaging.campaigns.filter((c) => c.status === "ACTIVE" && counted.includes(c.page_id));
      return Object.fromEntries(running.map((c) => [c.campaign_id, [spent.get(c.campaign_id) ?? 0, c.daily_budget]]));
    },
  },
];
