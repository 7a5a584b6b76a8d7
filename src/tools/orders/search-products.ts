import { z } from "zod";
import type { PosVariation } from "../../clients/schemas/pos.js";
import { upstreamRecord } from "../../format/orders.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, limitInput, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { warehouseId, warehouses } from "../pos/shop-refs.js";
import { pagedList } from "../pos/paging.js";
import { hasVariantWords, splitVariant, variationIds } from "./resolve-items.js";
import { STOCK_FIGURES, variationRow, variationRowSchema } from "./variation-row.js";

/** Upstream pages (of 100 variations) one low-stock call reads before answering with a cursor. */
const STOCK_SCAN_PAGES = 30;

/** Units of a variation in one warehouse. */
function stockIn(v: PosVariation, warehouseId: string): number {
  return v.variations_warehouses?.find((s) => String(s.warehouse_id) === warehouseId)?.remain_quantity ?? 0;
}

/**
 * The warehouses where a variation is at or below `max`. Low stock is a warehouse's question (the
 * shop ships from each): compared on the total, 0 units in one warehouse hid behind 19 in all.
 * A variation no warehouse stocks is compared on its total.
 */
function lowIn(v: PosVariation, max: number): string[] {
  const rows = v.variations_warehouses ?? [];
  if (rows.length === 0) return (v.remain_quantity ?? 0) <= max ? [""] : [];
  return rows.filter((s) => (s.remain_quantity ?? 0) <= max).map((s) => String(s.warehouse_id));
}

const isLow = (v: PosVariation, max: number, warehouseId: string | undefined) =>
  warehouseId === undefined ? lowIn(v, max).length > 0 : stockIn(v, warehouseId) <= max;

export const searchProducts = defineTool({
  name: "search_products",
  title: "Search products",
  description:
    'Variations (variation_id) by name + variant ("áo thun nâu M"), SKU or barcode, with price and stock per warehouse.',
  toolset: "orders",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    // What it matches the description says; a names-only text is left out of the listing.
    search: z.string().max(200).optional().describe("Search"),
    variation_ids: z.array(z.string().max(64)).max(100).optional().describe("Only these (ids or SKUs)"),
    max_stock: z.number().int().optional().describe("Stock <= this in warehouse_id, else in any warehouse (low_in)"),
    warehouse_id: z.string().max(120).optional().describe("Warehouse id or name"),
    // Rows of up to a few hundred characters each: 50 keep a page near 5k tokens.
    limit: limitInput(50, 20),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({
    variations: z.array(variationRowSchema),
    total: z.number().optional(),
    next_cursor: z.string().optional(),
    note: z.string().optional(),
    figures: z.string().optional(),
  }),
  async handler(input, ctx) {
    const shopId = await resolveShopId(ctx, input.shop_id);
    const warehouse = input.warehouse_id === undefined ? undefined : await warehouseId(ctx.pos, shopId, "warehouse_id", input.warehouse_id);
    const ids = input.cursor || !input.variation_ids ? undefined : await variationIds(ctx.pos, shopId, input.variation_ids, (i) => `variation_ids[${i}]`);
    const search = input.search?.trim() || undefined;
    let served = 0;
    // Filters this tool applies itself travel in the cursor beside the upstream ones, and so does
    // `part`: rows that are the matches among part of a name's variations, with no total.
    const read = (query: { search?: string | undefined; variation_ids?: string[] | undefined; part?: string }) =>
      pagedList(
        "search_products",
        input,
        () => ({ ...query, max_stock: input.max_stock, wh: warehouse }),
        async ({ max_stock: _max, wh: _wh, part: _part, ...q }, page_number, page_size) => {
          const got = await ctx.pos.listVariations(shopId, { ...q, page_number, page_size });
          served += got.data.length;
          return got;
        },
        ctx.progress,
        { active: (q) => q.max_stock !== undefined, keep: (v, q) => isLow(v, q.max_stock!, q.wh), maxPages: STOCK_SCAN_PAGES },
      );
    let page = await read({ search, variation_ids: ids });
    let missing: string | undefined;
    if (!input.cursor && search && !ids && served === 0) {
      const split = await splitVariant(ctx.pos, shopId, search);
      const matched = split?.rows.filter((v) => hasVariantWords(v, split.variant)).map((v) => String(v.id)) ?? [];
      const part =
        split && !split.complete
          ? `Only the variations with ${JSON.stringify(split.variant)} among the first ${split.rows.length} of ${split.total ?? "more"} of ${JSON.stringify(split.product)}: more may be past them, give more of the product's name.`
          : undefined;
      if (matched.length) page = await read({ variation_ids: matched, part });
      else if (split) missing = part ?? `No variation of ${JSON.stringify(split.product)} has ${JSON.stringify(split.variant)}: search ${JSON.stringify(split.product)} for its variants.`;
    }
    const { part } = page.query;
    const names = input.detail === "full" ? undefined : new Map((await warehouses(ctx.pos, shopId).catch(() => [])).map((w) => [w.id, w.name]));
    const only = page.query.wh;
    return {
      variations: page.rows.map((v) => {
        if (!names) return { ...upstreamRecord(v), variation_id: String(v.id) };
        const row = variationRow(v, names, only);
        const max = page.query.max_stock;
        if (max === undefined || only !== undefined) return row;
        const low = lowIn(v, max).filter(Boolean).map((w) => names.get(w) ?? w);
        return low.length ? { ...row, low_in: low } : row;
      }),
      total: part ? undefined : page.total,
      next_cursor: page.next_cursor,
      note: page.stopped ? `Read ${STOCK_SCAN_PAGES * 100} variations: pass next_cursor to read on.` : (part ?? missing),
      figures: names && page.rows.length ? STOCK_FIGURES : undefined,
    };
  },
});
