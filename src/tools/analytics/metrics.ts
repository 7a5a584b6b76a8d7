import type { ToolContext } from "../define.js";
import { sanitizeName, sanitizeText } from "../../format/text.js";
import { settleAll } from "../settle.js";

export const FORMULA_PREFIX = "custom_formula_";

export interface SalesMetric {
  /** What select_fields takes and analytics rows are keyed by. */
  field: string;
  name?: string;
  formula?: string;
  unit?: string;
}

/** The shop's analytics fields and custom formulas, as metrics keyed the way analytics rows are. */
export async function salesMetrics(ctx: Pick<ToolContext, "pos">, shopId: string): Promise<SalesMetric[]> {
  const [fields, formulas] = await settleAll([ctx.pos.listAnalyticsFields(shopId), ctx.pos.listAnalyticsFormulas(shopId)]);
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
