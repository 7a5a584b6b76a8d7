import type { SandboxRequest } from "../server.js";
import { invalid, listParam } from "./api.js";
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
    Object.assign(metrics, {
      cod: sum((o) => o.cod),
      discount: sum((o) => o.total_discount),
      shipping_fee: sum((o) => o.shipping_fee),
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
  update: (o) => o.status_history.at(-1)?.editor_id,
  assign: (o) => o.assigning_seller_id,
  care: (o) => o.assigning_care_id,
  marketer: (o) => o.marketer?.id,
};

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
  let filter: Record<string, string[]> = {};
  try {
    filter = JSON.parse(req.query.get("filter") ?? "{}") as Record<string, string[]>;
  } catch {
    throw invalid();
  }
  const userKey = userOf[userType];
  const reached = successStatus === "send_to_partner" ? 9 : Number(successStatus);
  if (!userKey || !["inserted_at", "updated_at"].includes(record) || ![4, 5].includes(returnedStatus)) throw invalid();
  if (!["inserted_at", "updated_at", "success_record"].includes(returnedRecord)) throw invalid();
  if (Number.isNaN(reached)) throw invalid();
  const variationFilter = filter["Variation.id"];
  const productFilter = filter["Variation.product_id"];
  const itemMatches = (it: OrderItem) =>
    (!variationFilter || variationFilter.includes(it.variation_id)) &&
    (!productFilter || productFilter.includes(it.product_id));
  const byItem = split.some((s) => s.startsWith("Variation."));

  const groups = new Map<string, { keys: Record<string, string>; success: Contribution[]; returned: Contribution[] }>();
  for (const order of state.orders) {
    if (order.is_removed || !order.status_history.some((h) => h.status === reached)) continue;
    const at = ms(record === "inserted_at" ? order.inserted_at : order.last_update_status_at);
    if ((since !== undefined && at < since) || (until !== undefined && at > until)) continue;
    const items = order.items.filter(itemMatches);
    if (!items.length) continue;
    const returned = order.status === returnedStatus || (returnedStatus === 4 && order.status === 5);
    const returnedAt =
      returnedRecord === "inserted_at" ? ms(order.inserted_at) : returnedRecord === "updated_at" ? ms(order.last_update_status_at) : at;
    const parts = byItem ? items.map((it) => [it]) : [items];
    for (const part of parts) {
      const add = (time: number, kind: "success" | "returned") => {
        const keys: Record<string, string> = {};
        for (const s of split) {
          if (s === "Time.day") keys[s] = new Date(time + SHOP_OFFSET).toISOString().slice(0, 10);
          else if (s === "Order.source") keys[s] = order.order_sources_name;
          else if (s === "Variation.id") keys[s] = part[0]!.variation_id;
          else if (s === "Variation.product_id") keys[s] = part[0]!.product_id;
          else if (s === "User.id") keys[s] = userKey(order) ?? "";
          else throw invalid();
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
