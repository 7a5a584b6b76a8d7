import type { SandboxRequest } from "../server.js";
import { invalid, listParam } from "./api.js";
import { figuresOf } from "./derived.js";
import { posLists } from "./lists.js";
import type { PosState } from "./state.js";
import { HOUR, ms } from "./time.js";
import type { FormulaRecord, OrderItem, OrderRecord } from "./types.js";

/** Shop time of the sandbox shop (Vietnam, no daylight saving). */
const SHOP_OFFSET = 7 * HOUR;
const DEFAULT_FIELDS = ["cod", "discount", "order_count", "price", "avg_price", "product_count", "shipping_fee"];

type Metrics = Record<string, number>;
interface Contribution {
  order: OrderRecord;
  items: OrderItem[];
}

function shopTime(text: string | null): number | undefined {
  if (!text) return undefined;
  const at = Date.parse(`${text.replace(" ", "T")}+07:00`);
  if (Number.isNaN(at)) throw invalid();
  return at;
}

/** Evaluates a formula like "{price} - {shipping_fee}" over metrics (+ - * /, usual precedence). */
function evaluateFormula(formula: string, metrics: Metrics): number {
  const text = formula.replace(/\{(\w+)\}/g, (_, name: string) => String(metrics[name] ?? 0));
  const terms = text.replace(/\s+/g, "").match(/[+-]?[^+-]+/g) ?? [];
  const value = terms.reduce((sum, term) => {
    const factors = term.match(/[*/]?[^*/]+/g) ?? [];
    return (
      sum +
      factors.reduce((product, factor, i) => {
        const n = Number(factor.replace(/^[*/]/, ""));
        if (i === 0) return n;
        return factor.startsWith("/") ? (n === 0 ? 0 : product / n) : product * n;
      }, 0)
    );
  }, 0);
  return Math.round(value);
}

/**
 * What the service's figures mean, as its field list and response name them: `price` the goods at
 * their retail price ("Giá hàng"), `discount` every discount on them ("Tổng tiền giảm giá"), each
 * product's and the order's, `cod` the money to collect, `shipping_fee` the fee charged to the
 * customer ("Phí VC thu của khách": none for a free-shipping order). So price - discount is an
 * order's goods after discounts (total_price_after_sub_discount), which search_orders counts by
 * these figures (order-pushdown.ts). Nothing shows whether the live `discount` holds the order's
 * discount besides the products' (its tooltip speaks of the products'), nor how it treats a free
 * shipping order's recorded fee: the pushdown relies on this reading.
 */
function metricsOf(rows: Contribution[], wholeOrders: boolean): Metrics {
  const orders = new Set(rows.map((r) => r.order.id));
  const lines = rows.flatMap((r) => r.items);
  const price = lines.reduce((sum, it) => sum + it.variation_info.retail_price * it.quantity, 0);
  const metrics: Metrics = {
    order_count: orders.size,
    total_order_count: orders.size,
    price,
    product_count: lines.reduce((sum, it) => sum + it.quantity, 0),
    avg_price: orders.size ? Math.round(price / orders.size) : 0,
  };
  if (wholeOrders) {
    const sum = (pick: (o: OrderRecord) => number) => rows.reduce((total, r) => total + pick(r.order), 0);
    const itemDiscounts = (o: OrderRecord) => figuresOf(o).items.reduce((total, it) => total + it.discount_each_product * it.quantity, 0);
    Object.assign(metrics, {
      cod: sum((o) => o.cod),
      discount: sum((o) => o.total_discount + itemDiscounts(o)),
      shipping_fee: sum((o) => (o.is_free_shipping ? 0 : o.shipping_fee)),
      partner_fee: sum((o) => o.partner_fee),
      surcharge: 0,
      fee_marketplace: 0,
    });
  }
  return metrics;
}

function select(metrics: Metrics, fields: string[], formulas: FormulaRecord[]): Metrics {
  const out: Metrics = {};
  for (const field of fields) {
    const formula = field.startsWith("custom_formula_")
      ? formulas.find((f) => `custom_formula_${f.id}` === field)
      : undefined;
    if (formula) out[field] = evaluateFormula(formula.formula, metrics);
    else if (field in metrics) out[field] = metrics[field]!;
  }
  return out;
}

const userOf: Record<string, (o: OrderRecord) => string | null | undefined> = {
  create: (o) => o.creator.id,
  update: (o) => figuresOf(o).status_history.at(-1)?.editor_id,
  assign: (o) => o.assigning_seller_id,
  care: (o) => o.assigning_care_id,
  marketer: (o) => o.marketer?.id,
};

type OrderKey = (o: OrderRecord, user: (o: OrderRecord) => string | null | undefined) => string | number | null;

/**
 * The order-level keys, each an order's value as `split_by[]` answers it and `filter` matches it.
 * The OpenAPI calls every `<Table>.<field>` key by what it holds ("Order.status — by order status
 * code", partner, warehouse, province by id) and takes the same keys as filters, whose values are
 * ids or codes: so `Order.source` answers the source's id (`order_sources`, "-1" for Facebook),
 * not its name, as the filter on it takes the id.
 */
const ORDER_KEYS: Record<string, OrderKey> = {
  "Order.source": (o) => o.order_sources,
  "Order.status": (o) => o.status,
  "Order.partner_id": (o) => figuresOf(o).partner?.partner_id ?? null,
  "Order.province_id": (o) => o.shipping_address.province_id || null,
  "Order.warehouse_id": (o) => o.warehouse_id,
  "Customer.id": (o) => o.shop_customer_id ?? o.customer?.id ?? null,
  "User.id": (o, user) => user(o) ?? "",
};
const ITEM_KEYS: Record<string, (it: OrderItem) => string> = {
  "Variation.id": (it) => it.variation_id,
  "Variation.product_id": (it) => it.product_id,
};
const EXCLUDE = "_exclude";

/** `filter`: {key or key_exclude: [values]}, keys as split_by's; any other key is a 400, as an unknown split is. */
function filterOf(req: SandboxRequest): { key: string; values: Set<string>; keep: boolean }[] {
  let filter: unknown;
  try {
    filter = JSON.parse(req.query.get("filter") ?? "{}");
  } catch {
    throw invalid();
  }
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) throw invalid();
  return Object.entries(filter).map(([name, values]) => {
    const key = name.endsWith(EXCLUDE) ? name.slice(0, -EXCLUDE.length) : name;
    if (!(key in ORDER_KEYS || key in ITEM_KEYS) || !Array.isArray(values)) throw invalid();
    return { key, values: new Set(values.map(String)), keep: key === name };
  });
}

/** The orders whose `field` time (an updateStatus value) lies in [since, until], every order when neither is given. */
function ordersBetween(state: PosState, field: string, since: number | undefined, until: number | undefined): readonly OrderRecord[] {
  if (since === undefined && until === undefined) return state.orders;
  const ordering = posLists(state).byTime(field);
  return ordering.items.slice(...ordering.between(since ?? Number.NEGATIVE_INFINITY, until ?? Number.POSITIVE_INFINITY));
}

/** GET /analytics/sale: revenue rows grouped by the `split_by[]` keys, computed from the orders. */
export function saleAnalytics(state: PosState, req: SandboxRequest): Record<string, unknown>[] {
  const since = shopTime(req.query.get("since"));
  const until = shopTime(req.query.get("until"));
  const record = req.query.get("success_record") ?? "inserted_at";
  const successStatus = req.query.get("success_status") ?? "1";
  const returnedStatus = Number(req.query.get("returned_status") ?? 5);
  const userType = req.query.get("user_type") ?? "create";
  const returnedRecord = req.query.get("returned_record") ?? "success_record";
  const splits = listParam(req, "split_by");
  const split = splits.length ? splits : ["Time.day"];
  const filter = filterOf(req);
  const userKey = userOf[userType];
  const reached = successStatus === "send_to_partner" ? 9 : Number(successStatus);
  if (!userKey || !["inserted_at", "updated_at"].includes(record) || ![4, 5].includes(returnedStatus)) throw invalid();
  if (!["inserted_at", "updated_at", "success_record"].includes(returnedRecord)) throw invalid();
  if (Number.isNaN(reached)) throw invalid();
  if (split.some((s) => !(s in ORDER_KEYS || s in ITEM_KEYS || s === "Time.day" || s === "Time.month"))) throw invalid();
  const orderMatches = (o: OrderRecord) =>
    filter.every((f) => !(f.key in ORDER_KEYS) || f.values.has(String(ORDER_KEYS[f.key]!(o, userKey))) === f.keep);
  const itemMatches = (it: OrderItem) => filter.every((f) => !(f.key in ITEM_KEYS) || f.values.has(ITEM_KEYS[f.key]!(it)) === f.keep);
  const byItem = split.some((s) => s in ITEM_KEYS);

  const groups = new Map<string, { keys: Record<string, unknown>; success: Contribution[]; returned: Contribution[] }>();
  for (const order of ordersBetween(state, record === "inserted_at" ? "inserted_at" : "-1", since, until)) {
    const figures = figuresOf(order);
    if (order.is_removed || !figures.status_history.some((h) => h.status === reached) || !orderMatches(order)) continue;
    const at = ms(record === "inserted_at" ? order.inserted_at : order.last_update_status_at);
    if ((since !== undefined && at < since) || (until !== undefined && at > until)) continue;
    const items = figures.items.filter(itemMatches);
    if (!items.length) continue;
    const returned = order.status === returnedStatus || (returnedStatus === 4 && order.status === 5);
    const returnedAt =
      returnedRecord === "inserted_at" ? ms(order.inserted_at) : returnedRecord === "updated_at" ? ms(order.last_update_status_at) : at;
    const parts = byItem ? items.map((it) => [it]) : [items];
    for (const part of parts) {
      const add = (time: number, kind: "success" | "returned") => {
        const day = new Date(time + SHOP_OFFSET).toISOString().slice(0, 10);
        const keys: Record<string, unknown> = {};
        for (const s of split) {
          if (s === "Time.day") keys[s] = day;
          else if (s === "Time.month") keys[s] = day.slice(0, 7);
          else if (s in ITEM_KEYS) keys[s] = ITEM_KEYS[s]!(part[0]!);
          else keys[s] = ORDER_KEYS[s]!(order, userKey);
        }
        const id = JSON.stringify(keys);
        const group = groups.get(id) ?? { keys, success: [], returned: [] };
        group[kind].push({ order, items: part });
        groups.set(id, group);
      };
      add(at, "success");
      if (returned) add(returnedAt, "returned");
    }
  }
  const requested = listParam(req, "select_fields");
  const fields = requested.length ? requested : [...DEFAULT_FIELDS, ...state.formulas.map((f) => `custom_formula_${f.id}`)];
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, g]) => ({
      ...g.keys,
      returned: g.returned.length ? select(metricsOf(g.returned, !byItem), fields, state.formulas) : null,
      success: select(metricsOf(g.success, !byItem), fields, state.formulas),
    }));
}
