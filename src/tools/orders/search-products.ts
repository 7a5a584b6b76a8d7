import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosClient, VariationListParams } from "../../clients/pos.js";
import type { PosVariation } from "../../clients/schemas/pos.js";
import { upstreamRecord } from "../../format/orders.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { defineTool, READ, type ToolContext } from "../define.js";
import { cursorInput, detailRowsInput, shopIdInput, totalsLimitInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { warehouseId, warehouses } from "../pos/shop-refs.js";
import { MAX_PAGE_SIZE, pagedList } from "../pos/paging.js";
import { hasVariantWords, splitVariant, variationIds } from "./resolve-items.js";
import { availableStock, STOCK_FIGURES, stockTotals, stockTotalsSchema, variationRow, variationRowSchema } from "./variation-row.js";

/** Upstream pages (of 100 variations) one low-stock call reads before answering with a cursor. */
const STOCK_SCAN_PAGES = 30;

/** Where a catalog read whole (total-stock filter, stock order) stands: the query and the rows already shown. */
const scanCursor = z.looseObject({ q: z.record(z.string(), z.unknown()).optional(), at: z.number().int().min(0).max(100_000).optional() });

type UpstreamQuery = Pick<VariationListParams, "search" | "variation_ids">;

/**
 * Every variation of a query, up to STOCK_SCAN_PAGES pages read together after the first (which
 * says how many there are), each once. A total over all warehouses, or an order by stock, is a
 * question about the whole catalog: one page of it answered "fewer than 5 in total" wrongly.
 */
async function readCatalog(pos: PosClient, shopId: string, query: UpstreamQuery, progress: ToolContext["progress"]) {
  const fetch = (page_number: number) => pos.listVariations(shopId, { ...query, page_number, page_size: MAX_PAGE_SIZE });
  const first = await fetch(1);
  const known = first.total_entries;
  let pages = [first.data];
  let complete: boolean;
  if (known !== undefined) {
    // The live service caps page sizes: the size it served says how many pages the total takes.
    const needed = Math.ceil(known / Math.max(first.data.length, 1));
    const count = Math.min(needed, STOCK_SCAN_PAGES);
    if (count > 1) await progress(first.data.length, known, `reading ${count} pages`);
    pages = [first.data, ...(await Promise.all(Array.from({ length: count - 1 }, (_, i) => fetch(i + 2)))).map((p) => p.data)];
    complete = needed <= STOCK_SCAN_PAGES;
  } else {
    // No total: page by page until a short one.
    while (pages.at(-1)!.length >= MAX_PAGE_SIZE && pages.length < STOCK_SCAN_PAGES) pages.push((await fetch(pages.length + 1)).data);
    complete = pages.at(-1)!.length < MAX_PAGE_SIZE;
  }
  const rows = [...new Map(pages.flat().map((v) => [String(v.id), v])).values()];
  return { rows, complete, total: known };
}

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

/** The upstream query and the filters applied here, as a cursor carries them. */
type Query = UpstreamQuery & { part?: string; max_stock?: number; wh?: string; max_total?: number; sort?: "stock" };

interface Page {
  rows: PosVariation[];
  total?: number;
  next_cursor?: string;
  stopped?: true;
  /** false: the catalog was longer than one call reads (`read`: how many variations it holds). */
  complete?: false;
  /** Every match of a catalog read whole, the page's rows and the others. */
  matched?: PosVariation[];
  read?: number;
  query: Query;
}

/**
 * A page of the matches among the whole catalog: filtered, ordered by stock when asked, and cut at
 * `at`. The next page reads the catalog again (its cursor holds the query and where to go on),
 * so every page is cut from the same complete order.
 */
async function catalogPage(
  input: { cursor?: string | undefined; limit: number; shop_id?: string | undefined },
  ctx: ToolContext,
  shopId: string,
  q: Query,
  at: number,
  served: (n: number) => void,
): Promise<Page> {
  const { search, variation_ids } = q;
  const catalog = await readCatalog(ctx.pos, shopId, { search, variation_ids }, ctx.progress);
  served(catalog.rows.length);
  const stock = (v: PosVariation) => availableStock(v, q.wh) ?? 0;
  const matched = catalog.rows.filter(
    (v) => (q.max_stock === undefined || isLow(v, q.max_stock, q.wh)) && (q.max_total === undefined || (availableStock(v) ?? 0) <= q.max_total),
  );
  // Array sort is stable: equal stock keeps the catalog's order.
  if (q.sort === "stock") matched.sort((a, b) => stock(a) - stock(b));
  const next = at + input.limit;
  return {
    rows: matched.slice(at, next),
    total: catalog.complete ? matched.length : undefined,
    next_cursor: input.limit > 0 && next < matched.length ? encodeCursor("search_products", input, { q, at: next }) : undefined,
    ...(catalog.complete ? { matched } : { complete: false as const, read: catalog.total }),
    query: q,
  };
}

export const searchProducts = defineTool({
  name: "search_products",
  title: "Search products",
  description:
    'Variations (variation_id) by name + variant ("áo thun nâu M"), SKU or barcode, with price and stock per warehouse; limit 0: stock totals alone.',
  toolset: "orders",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    // What it matches the description says; a names-only text is left out of the listing.
    search: z.string().max(200).optional().describe("Search"),
    variation_ids: z.array(z.string().max(64)).max(100).optional().describe("Only these (ids or SKUs)"),
    max_stock: z.number().int().optional().describe("Stock <= this in warehouse_id, else in any warehouse (low_in)"),
    max_total_stock: z.number().int().optional().describe("Summed over warehouses"),
    sort_by: z.enum(["stock"]).optional().describe("Lowest first"),
    warehouse_id: z.string().max(120).optional().describe("Warehouse id or name"),
    // Rows of up to a few hundred characters each: 50 keep a page near 5k tokens.
    limit: totalsLimitInput(50, 20),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({
    variations: z.array(variationRowSchema),
    total: z.number().optional(),
    stock_totals: stockTotalsSchema.optional().describe("Every match summed (limit 0, max_total_stock or sort_by)"),
    next_cursor: z.string().optional(),
    complete: z.boolean().optional().describe("false: the catalog was read only in part"),
    note: z.string().optional(),
    figures: z.string().optional(),
  }),
  async handler(input, ctx) {
    if (input.max_total_stock !== undefined && input.warehouse_id !== undefined) {
      throw new InputError("max_total_stock", "sums every warehouse, so it does not combine with warehouse_id", "Use max_stock for one warehouse's stock, or drop warehouse_id.");
    }
    const shopId = await resolveShopId(ctx, input.shop_id);
    const warehouse = input.warehouse_id === undefined ? undefined : await warehouseId(ctx.pos, shopId, "warehouse_id", input.warehouse_id);
    const scan = input.cursor ? decodeCursor("search_products", input, scanCursor) : undefined;
    if (input.limit === 0 && input.cursor) throw new InputError("cursor", "continues a list of rows; limit 0 lists none", "Drop cursor, or pass a limit from 1 to 50.");
    // Totals are of every match: the catalog is read whole for them, as for a total-stock filter.
    const whole = scan?.at !== undefined || (!input.cursor && (input.max_total_stock !== undefined || input.sort_by !== undefined || input.limit === 0));
    const ids = input.cursor || !input.variation_ids ? undefined : await variationIds(ctx.pos, shopId, input.variation_ids, (i) => `variation_ids[${i}]`);
    const search = input.search?.trim() || undefined;
    let served = 0;
    // Filters this tool applies itself travel in the cursor beside the upstream ones, and so does
    // `part`: rows that are the matches among part of a name's variations, with no total.
    const filters = { max_stock: input.max_stock, wh: warehouse, max_total: input.max_total_stock, sort: input.sort_by };
    const read = (query: UpstreamQuery & { part?: string }): Promise<Page> =>
      whole
        ? catalogPage(input, ctx, shopId, (scan?.q as Query | undefined) ?? { ...query, ...filters }, scan?.at ?? 0, (n) => (served += n))
        : pagedList(
            "search_products",
            input,
            () => ({ ...query, ...filters }),
            async ({ max_stock: _max, wh: _wh, part: _part, max_total: _total, sort: _sort, ...q }, page_number, page_size) => {
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
    const totals = page.matched && !part;
    const named = input.detail !== "full" || totals ? new Map((await warehouses(ctx.pos, shopId).catch(() => [])).map((w) => [w.id, w.name])) : undefined;
    const names = input.detail === "full" ? undefined : named;
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
      stock_totals: totals && named ? stockTotals(page.matched!, named, only) : undefined,
      next_cursor: page.next_cursor,
      complete: page.complete === false ? false : undefined,
      note: page.stopped
        ? `Read ${STOCK_SCAN_PAGES * 100} variations: pass next_cursor to read on.`
        : page.complete === false
          ? `Only the first ${STOCK_SCAN_PAGES * MAX_PAGE_SIZE} of ${page.read ?? "more"} variations were read: narrow with search.`
          : (part ?? missing),
      figures: (names && page.rows.length) || totals ? STOCK_FIGURES : undefined,
    };
  },
});
