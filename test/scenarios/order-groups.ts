import type { Sandbox } from "../../src/sandbox/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/types.js";
import { type Scenario, shopDay } from "./framework.js";

// Questions over many orders, answered by counting and summing on the server (group_by) or by the
// time an order has sat in its status (status_older_than): each one call, however many orders.

const at = (recordTime: string) => Date.parse(`${recordTime}Z`);
const DAY = 86_400_000;
/** Orders that are still orders: not deleted, canceled or deleted recently (groups leave those out). */
const live = (s: Sandbox) => s.pos.orders.filter((o) => !o.is_removed && o.status !== 6 && o.status !== 7);
const startOf = (day: string) => Date.parse(`${day}T00:00:00+07:00`);
const createdFrom = (s: Sandbox, first: string, last?: string) =>
  live(s).filter((o) => at(o.inserted_at) >= startOf(first) && (last === undefined || at(o.inserted_at) < startOf(last) + DAY));
const sinceLastChange = (o: OrderRecord) => Date.now() - at(o.last_update_status_at);

function sumBy(orders: OrderRecord[], key: (o: OrderRecord) => string, value: (o: OrderRecord) => number = () => 1): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of orders) out[key(o)] = (out[key(o)] ?? 0) + value(o);
  return out;
}

/** The province an order's address is in today (the old list's province, by what it merged into). */
function provinceNow(s: Sandbox, o: OrderRecord): string {
  const old = s.pos.geo.provinces.find((p) => p.id === o.shipping_address.province_id)!;
  return s.pos.geo.newProvinces.find((p) => p.id === old.new_id)!.name;
}

/** Monday of the shop's previous week, and its Sunday. */
function lastWeek(s: Sandbox): [string, string] {
  const today = new Date(`${shopDay(s)}T00:00:00Z`);
  const monday = new Date(today.getTime() - (((today.getUTCDay() + 6) % 7) + 7) * DAY);
  return [monday.toISOString().slice(0, 10), new Date(monday.getTime() + 6 * DAY).toISOString().slice(0, 10)];
}

type GroupRow = { orders: number; amount: number; cod: number } & Record<string, unknown>;
const rowsBy = (rows: GroupRow[], key: string, figure: "orders" | "amount" | "cod") => Object.fromEntries(rows.map((r) => [r[key], r[figure]]));

const IN_PROGRESS = ["new", "confirmed", "waiting_to_print", "printed", "packing", "waiting_to_ship", "shipped"];
const IN_PROGRESS_CODES = [0, 1, 12, 13, 8, 9, 2];

export const orderGroupScenarios: Scenario<unknown>[] = [
  {
    question: "How many orders did each province send us this month?",
    async ask(q) {
      const r = await q.call("search_orders", { group_by: ["province"], since: "this month" });
      return rowsBy(r.data.groups, "province", "orders");
    },
    truth: (s) => sumBy(createdFrom(s, `${shopDay(s).slice(0, 7)}-01`), (o) => provinceNow(s, o)),
  },
  {
    question: "Which carriers hold our shipped orders, and how much COD is with each?",
    async ask(q) {
      const r = await q.call("search_orders", { statuses: ["shipped"], group_by: ["carrier"] });
      return Object.fromEntries(r.data.groups.map((g: GroupRow) => [g.carrier, { orders: g.orders, cod: g.cod }]));
    },
    truth: (s) => {
      const shipped = live(s).filter((o) => o.status === 2);
      const name = (o: OrderRecord) => s.pos.partners.find((p) => p.id === o.partner?.partner_id)?.name ?? "(none)";
      const orders = sumBy(shipped, name);
      const cod = sumBy(shipped, name, (o) => o.cod);
      return Object.fromEntries(Object.keys(orders).map((c) => [c, { orders: orders[c], cod: cod[c] }]));
    },
  },
  {
    question: "How many orders came through each channel last week?",
    async ask(q) {
      const r = await q.call("search_orders", { group_by: ["source"], since: "last week", until: "last week" });
      return rowsBy(r.data.groups, "source", "orders");
    },
    truth: (s) => sumBy(createdFrom(s, ...lastWeek(s)), (o) => o.order_sources_name),
  },
  {
    question: "Which orders have been sitting in 'new' for more than 2 days?",
    async ask(q) {
      const r = await q.call("search_orders", { statuses: ["new"], status_older_than: "2 days", limit: 100 });
      return r.data.orders.map((o: { number: string }) => o.number).sort();
    },
    truth: (s) =>
      live(s)
        .filter((o) => o.status === 0 && sinceLastChange(o) > 2 * DAY)
        .map((o) => `#${o.display_id}`)
        .sort(),
  },
  {
    question: "How many orders shipped over a week ago are still not delivered, and how much COD do they hold?",
    async ask(q) {
      const r = await q.call("search_orders", { statuses: ["shipped"], status_older_than: "1 week", limit: 1 });
      return { orders: r.data.total, cod: r.data.totals.shipped.cod };
    },
    truth: (s) => {
      const stuck = live(s).filter((o) => o.status === 2 && sinceLastChange(o) > 7 * DAY);
      return { orders: stuck.length, cod: stuck.reduce((t, o) => t + o.cod, 0) };
    },
  },
  {
    question: "What did each seller sell this month (goods after discounts)?",
    async ask(q) {
      const r = await q.call("search_orders", { group_by: ["seller"], since: "this month" });
      return rowsBy(r.data.groups, "seller", "amount");
    },
    truth: (s) => sumBy(createdFrom(s, `${shopDay(s).slice(0, 7)}-01`), (o) => o.assigning_seller?.name ?? "(none)", (o) => o.total_price_after_sub_discount),
  },
  {
    question: "What were our sales day by day over the last 7 days?",
    async ask(q) {
      const r = await q.call("search_orders", { group_by: ["day"], since: "last 7 days" });
      return rowsBy(r.data.groups, "day", "amount");
    },
    truth: (s) =>
      sumBy(
        createdFrom(s, shopDay(s, 6)),
        (o) => new Date(at(o.inserted_at) + 7 * 3_600_000).toISOString().slice(0, 10),
        (o) => o.total_price_after_sub_discount,
      ),
  },
  {
    question: "Which orders are stuck (no status change for 3 days), by status?",
    async ask(q) {
      const r = await q.call("search_orders", { statuses: IN_PROGRESS, status_older_than: "3 days", group_by: ["status"] });
      return rowsBy(r.data.groups, "status", "orders");
    },
    truth: (s) =>
      sumBy(
        live(s).filter((o) => IN_PROGRESS_CODES.includes(o.status) && sinceLastChange(o) > 3 * DAY),
        (o) => o.status_name,
      ),
  },
];
