import { z } from "zod";
import type { PosVariation } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { sanitizeName } from "../../format/text.js";

export const variationRowSchema = z.looseObject({
  variation_id: z.string(),
  name: z.string().optional(),
  sku: z.string().optional(),
  price: z.number().optional(),
  stock: z.number().optional(),
});

/** "Trắng - M": the values of a variation's attribute fields. */
export function variantText(v: PosVariation): string | undefined {
  const values = (v.fields ?? []).map((f) => (typeof f === "object" && f !== null ? (f as { value?: unknown }).value : f));
  return sanitizeName(values.filter((x) => x !== undefined && x !== null && x !== "").join(" - "));
}

/** A variation with its price and its stock, in total and per warehouse. */
export function variationRow(v: PosVariation, warehouseNames?: ReadonlyMap<string, string>) {
  return {
    variation_id: String(v.id),
    product_id: id(v.product_id),
    name: sanitizeName(v.product?.name),
    variant: variantText(v),
    sku: id(v.display_id),
    barcode: v.barcode ?? undefined,
    price: num(v.retail_price),
    stock: num(v.remain_quantity),
    stock_by_warehouse: (v.variations_warehouses ?? []).map((s) => {
      const warehouseId = id(s.warehouse_id);
      return {
        warehouse_id: warehouseId,
        warehouse: warehouseId ? warehouseNames?.get(warehouseId) : undefined,
        remain: num(s.remain_quantity) ?? 0,
        available: num(s.actual_remain_quantity),
      };
    }),
  };
}
