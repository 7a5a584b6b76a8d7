import { z } from "zod";
import { num } from "../../format/compact.js";

const variationId = z.string().trim().min(1).max(64);

/** A stock line of an export or purchase: variation, quantity and unit cost are all required. */
export const pricedLine = z.object({
  variation_id: variationId,
  quantity: z.number().int().positive(),
  imported_price: z.number().int().nonnegative(),
});

export const quantityLine = z.object({ variation_id: variationId, quantity: z.number().int().positive() });

/** How many lines and units a slip holds. */
export function lineSummary(items: unknown): { item_count?: number; total_quantity?: number } {
  if (!Array.isArray(items)) return {};
  const quantities = items.map((it) => num((it as { quantity?: unknown }).quantity) ?? 0);
  return { item_count: items.length, total_quantity: quantities.reduce((a, b) => a + b, 0) };
}
