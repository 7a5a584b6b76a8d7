import type { PosClient } from "../../clients/pos.js";
import type { ToolContext } from "../define.js";
import { cachedForShop } from "../pos/shop-refs.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";
import { settleAll } from "../settle.js";

export const FORMULA_PREFIX = "custom_formula_";

export interface SalesMetric {
  /** What select_fields takes and analytics rows are keyed by. */
  field: string;
  name?: string;
  formula?: string;
  unit?: string;
}

/**
 * The shop's analytics fields and custom formulas, as metrics keyed the way analytics rows are.
 * Kept briefly: every get_sales_analytics call explains its figures with them.
 */
export function salesMetrics(ctx: Pick<ToolContext, "pos">, shopId: string): Promise<SalesMetric[]> {
  return cachedForShop(ctx.pos, `metrics:${shopId}`, (pos) => readMetrics(pos, shopId));
}

async function readMetrics(pos: PosClient, shopId: string): Promise<SalesMetric[]> {
  const [fields, formulas] = await settleAll([pos.listAnalyticsFields(shopId), pos.listAnalyticsFormulas(shopId)]);
  return [
    ...fields.map((f) => ({ field: String(f.id), name: sanitizeName(f.name) })),
    ...formulas.map((f) => ({
      field: `${FORMULA_PREFIX}${f.id}`,
      name: sanitizeName(f.name),
      formula: sanitizeText(f.formula, { max: 300 }),
      unit: f.unit ?? undefined,
    })),
  ];
}
