import { z } from "zod";
import type { PosVariation } from "../../clients/schemas/pos.js";
import { id, num, setOwn } from "../../format/compact.js";
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

/**
 * A variation with its price and its stock, in total and per warehouse (`only`: that one). Stock
 * is keyed by warehouse name ({"Kho Hà Nội": 12}): a list of objects with the warehouse's id
 * made a page of 100 variations 58k characters. Available units are listed only where they differ.
 */
export function variationRow(v: PosVariation, warehouseNames?: ReadonlyMap<string, string>, only?: string) {
  const stock: Record<string, number> = {};
  const available: Record<string, number> = {};
  for (const s of v.variations_warehouses ?? []) {
    const warehouseId = id(s.warehouse_id);
    if (warehouseId === undefined || (only !== undefined && warehouseId !== only)) continue;
    const name = warehouseNames?.get(warehouseId);
    const key = name && !Object.hasOwn(stock, name) ? name : warehouseId;
    const remain = num(s.remain_quantity) ?? 0;
    setOwn(stock, key, remain);
    const actual = num(s.actual_remain_quantity);
    if (actual !== undefined && actual !== remain) setOwn(available, key, actual);
  }
  return {
    variation_id: String(v.id),
    name: sanitizeName(v.product?.name),
    variant: variantText(v),
    sku: id(v.display_id),
    barcode: v.barcode ?? undefined,
    price: num(v.retail_price),
    stock: num(v.remain_quantity),
    stock_by_warehouse: stock,
    available_by_warehouse: available,
  };
}
