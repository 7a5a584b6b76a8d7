import { z } from "zod";
import { num } from "../../format/compact.js";
import type { PosClient } from "../../clients/pos.js";
import { variationIds } from "../orders/resolve-items.js";
import { nonEmpty } from "../pos/fields.js";

const variationId = nonEmpty(64);
const count = z.number().int().refine((n) => n > 0, "must be above 0");

/** A stock line of an export or purchase: variation, quantity and unit cost are all required. */
export const pricedLine = z.object({
  variation_id: variationId,
  quantity: count,
  imported_price: z.number().int().refine((n) => n >= 0, "must not be negative"),
});

export const quantityLine = z.object({ variation_id: variationId, quantity: count });

/** How many lines and units a slip holds. */
export function lineSummary(items: unknown): { item_count?: number; total_quantity?: number } {
  if (!Array.isArray(items)) return {};
  const quantities = items.map((it) => num((it as { quantity?: unknown }).quantity) ?? 0);
  return { item_count: items.length, total_quantity: quantities.reduce((a, b) => a + b, 0) };
}

/** Stock lines with each variation_id resolved (an id, SKU or barcode): an unknown one is an error, before the write. */
export async function stockLines<L extends { variation_id: string }>(pos: PosClient, shopId: string, field: string, lines: L[]): Promise<L[]> {
  const ids = await variationIds(pos, shopId, lines.map((l) => l.variation_id), (i) => `${field}[${i}].variation_id`);
  return lines.map((line, i) => ({ ...line, variation_id: ids[i]! }));
}
