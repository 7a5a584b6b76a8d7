import { z } from "zod";
import type { PosVariation } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { setOwn } from "../../text/own-property.js";
import { sanitizeName } from "../../text/sanitize.js";

export const variationRowSchema = z.looseObject({
  variation_id: z.string(),
  name: z.string().optional(),
  sku: z.string().optional(),
  price: z.number().optional(),
  stock_available: z.number().optional(),
});

/** "Trắng - M": the values of a variation's attribute fields. */
export function variantText(v: PosVariation): string | undefined {
  const values = (v.fields ?? []).map((f) => (typeof f === "object" && f !== null ? (f as { value?: unknown }).value : f));
  return sanitizeName(values.filter((x) => x !== undefined && x !== null && x !== "").join(" - "));
}

/**
 * What the stock figures of a row count, said once per answer (search_products), in the POS
 * OpenAPI's terms (see variationRow). remain_quantity "may include incoming/waiting stock
 * depending on shop settings", so available and incoming may overlap: the line says not to add them.
 */
export const STOCK_FIGURES =
  "stock_available: units it can sell (remain_quantity; by shop setting it may already count incoming ones); stock_physical: on the shelf, units of orders not yet shipped included; stock_incoming: on purchases not yet received; stock_by_warehouse: stock_available per warehouse (physical_ and incoming_by_warehouse likewise). They overlap: never add them up.";

const warehouseStocks = (v: PosVariation, only: string | undefined) =>
  (v.variations_warehouses ?? []).filter((s) => only === undefined || id(s.warehouse_id) === only);

type StockRow = NonNullable<PosVariation["variations_warehouses"]>[number];

function sumOf(stocks: StockRow[], field: "remain_quantity" | "actual_remain_quantity" | "pending_quantity"): number | undefined {
  const values = stocks.map((s) => num(s[field]));
  return values.some((n) => n !== undefined) ? values.reduce<number>((t, n) => t + (n ?? 0), 0) : undefined;
}

/**
 * A row's stock_available: the variation's remain_quantity (every warehouse together), or with
 * `only` that warehouse's. Stock filters and orders read this very figure, so a row never shows
 * a number other than the one it was chosen by.
 */
export const availableStock = (v: PosVariation, only?: string): number | undefined =>
  only === undefined ? num(v.remain_quantity) : (sumOf(warehouseStocks(v, only), "remain_quantity") ?? 0);

/**
 * A variation with its price and its stock, in the terms of the POS OpenAPI's VariationWarehouse:
 * `stock_available` is remain_quantity, what it can still sell ("may include incoming/waiting
 * stock depending on shop settings"); `stock_physical` is actual_remain_quantity, what is on the
 * shelf, units of orders not yet shipped included (shown where it differs); `stock_incoming` is
 * pending_quantity, units on purchases not yet received (shown when any). With `only` (a
 * warehouse id) the figures are that warehouse's, never the shop's sum; without, they are totals,
 * with the available units keyed by warehouse name ({"Kho Hà Nội": 12}: a list of objects with
 * the warehouse's id made a page of 100 variations 58k characters).
 */
export function variationRow(v: PosVariation, warehouseNames?: ReadonlyMap<string, string>, only?: string) {
  const stocks = warehouseStocks(v, only);
  const available = availableStock(v, only);
  const physical = sumOf(stocks, "actual_remain_quantity");
  const incoming = sumOf(stocks, "pending_quantity");
  const byWarehouse: Record<string, number> = {};
  for (const s of only === undefined ? stocks : []) {
    const warehouseId = id(s.warehouse_id);
    if (warehouseId === undefined) continue;
    const name = warehouseNames?.get(warehouseId);
    setOwn(byWarehouse, name && !Object.hasOwn(byWarehouse, name) ? name : warehouseId, num(s.remain_quantity) ?? 0);
  }
  return {
    variation_id: String(v.id),
    name: sanitizeName(v.product?.name),
    variant: variantText(v),
    sku: id(v.display_id),
    barcode: v.barcode ?? undefined,
    price: num(v.retail_price),
    warehouse: only === undefined ? undefined : (warehouseNames?.get(only) ?? only),
    stock_available: available,
    stock_physical: physical !== undefined && physical !== available ? physical : undefined,
    stock_incoming: incoming || undefined,
    stock_by_warehouse: byWarehouse,
  };
}

export const stockTotalsSchema = z.looseObject({ variations: z.number(), stock_available: z.number() });

/**
 * The stock of every variation given, summed from the rows' own figures, in all and per warehouse
 * (keyed by name), so a total never counts otherwise than the rows it sums. On the shelf is summed
 * only where every warehouse row reports it: a partial sum would read as the shop's.
 */
export function stockTotals(vs: readonly PosVariation[], warehouseNames: ReadonlyMap<string, string>, only?: string) {
  const stocks = vs.flatMap((v) => warehouseStocks(v, only));
  const perWarehouse = new Map<string, StockRow[]>();
  const taken = new Map<string, string>();
  for (const s of only === undefined ? stocks : []) {
    const warehouseId = id(s.warehouse_id);
    if (warehouseId === undefined) continue;
    const name = warehouseNames.get(warehouseId);
    // A name two warehouses share keys the second by its id.
    if (name && !taken.has(name)) taken.set(name, warehouseId);
    const key = name && taken.get(name) === warehouseId ? name : warehouseId;
    const rows = perWarehouse.get(key) ?? [];
    rows.push(s);
    perWarehouse.set(key, rows);
  }
  const physical = (rows: StockRow[]) => (rows.length > 0 && rows.every((s) => num(s.actual_remain_quantity) !== undefined) ? sumOf(rows, "actual_remain_quantity") : undefined);
  const byWarehouse = (figure: (rows: StockRow[]) => number | undefined) => {
    const out: Record<string, number> = {};
    for (const [key, rows] of perWarehouse) {
      const value = figure(rows);
      if (value !== undefined) setOwn(out, key, value);
    }
    return only === undefined && Object.keys(out).length ? out : undefined;
  };
  const available = byWarehouse((rows) => sumOf(rows, "remain_quantity") ?? 0);
  const shelf = byWarehouse(physical);
  return {
    variations: vs.length,
    warehouse: only === undefined ? undefined : (warehouseNames.get(only) ?? only),
    stock_available: vs.reduce((total, v) => total + (availableStock(v, only) ?? 0), 0),
    stock_physical: physical(stocks),
    stock_incoming: sumOf(stocks, "pending_quantity") || undefined,
    stock_by_warehouse: available,
    // As in the rows, the shelf is shown where it differs from what can be sold.
    physical_by_warehouse: JSON.stringify(shelf) === JSON.stringify(available) ? undefined : shelf,
    incoming_by_warehouse: byWarehouse((rows) => sumOf(rows, "pending_quantity") || undefined),
  };
}
