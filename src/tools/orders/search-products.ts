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
import { asksSales, daysOfCover, type Sales, salesInput, variantSales } from "./variant-sales.js";
import { askAgainIn, readingNote } from "../../format/reading.js";
import { toIsoInZone } from "../../format/time.js";

/** The variation that lasts the shortest: "Áo len form rộng Be - M (AL002-BE-M), 117.5 days". */
function soonestText({ v, days }: { v: PosVariation; days: number }): string {
  const row = variationRow(v);
  return `${[row.name, row.variant].filter(Boolean).join(" ")}${row.sku ? ` (${row.sku})` : ""}, ${days} days`;
}

/** What the sales figures of a row count, said once per answer. */
const SALES_FIGURES =
  "sold: units on orders created within sold_span, canceled and deleted ones left out (as search_orders and get_sales_analytics count sales); returned: of those, units that came back; days_of_cover: stock_available / units sold a day (none: nothing sold); sold_totals: every match summed.";

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

/** Two figures in order, infinite ones equal among themselves. */
const compare = (a: number, b: number) => (a === b ? 0 : a < b ? -1 : 1);

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
type Query = UpstreamQuery & {
  part?: string;
  max_stock?: number;
  wh?: string;
  max_total?: number;
  sort?: "stock" | "sold" | "days_of_cover";
  /** The sort's direction as asked; unset: the sort's own (stock and days of cover lowest first, sold most). */
  asc?: boolean;
  /** Sales over a span (variant-sales.ts): its dates as asked, and the filters on them. */
  ss?: string | number;
  su?: string | number;
  max_sold?: number;
  max_cover?: number;
};

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
  sales?: Sales;
  /** Nothing matched max_days_of_cover: the variation whose stock lasts the shortest, and how long. */
  soonest?: { v: PosVariation; days: number };
  /** The whole catalog read: what sold of variations it no longer holds (in no row). */
  unlisted?: { variations: number; sold: number };
}

/** The sales of every match summed, and how many matches sold anything. */
function soldTotals(vs: readonly PosVariation[], sales: Sales) {
  const totals = { sold: 0, returned: 0, variations_sold: 0, variations_unsold: 0 };
  for (const v of vs) {
    const s = sales.byVariation.get(String(v.id));
    if (!s || s.sold <= 0) totals.variations_unsold += 1;
    else [totals.sold, totals.returned, totals.variations_sold] = [totals.sold + s.sold, totals.returned + s.returned, totals.variations_sold + 1];
  }
  return totals;
}

/** Sales of variations the catalog does not hold (deleted since): summed, so no total silently lacks them. */
function unlistedSales(catalog: readonly PosVariation[], sales: Sales): Page["unlisted"] {
  const held = new Set(catalog.map((v) => String(v.id)));
  const gone = [...sales.byVariation].filter(([id, s]) => !held.has(id) && s.sold > 0);
  return gone.length ? { variations: gone.length, sold: gone.reduce((n, [, s]) => n + s.sold, 0) } : undefined;
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
  const selling = q.ss !== undefined || q.su !== undefined || q.max_sold !== undefined || q.max_cover !== undefined || q.sort === "sold" || q.sort === "days_of_cover";
  const [catalog, sales] = await Promise.all([
    readCatalog(ctx.pos, shopId, { search, variation_ids }, ctx.progress),
    selling ? variantSales(ctx, shopId, { sold_since: q.ss, sold_until: q.su }) : undefined,
  ]);
  served(catalog.rows.length);
  const stock = (v: PosVariation) => availableStock(v, q.wh) ?? 0;
  const sold = (v: PosVariation) => sales?.byVariation.get(String(v.id))?.sold ?? 0;
  const cover = (v: PosVariation) => (sales ? daysOfCover(stock(v), sales.byVariation.get(String(v.id)), sales.days) : undefined);
  const matched = catalog.rows.filter(
    (v) =>
      (q.max_stock === undefined || isLow(v, q.max_stock, q.wh)) &&
      (q.max_total === undefined || (availableStock(v) ?? 0) <= q.max_total) &&
      (q.max_sold === undefined || sold(v) <= q.max_sold) &&
      (q.max_cover === undefined || (cover(v) ?? Number.POSITIVE_INFINITY) <= q.max_cover),
  );
  // None within the days asked: which lasts the shortest, so an empty answer says how far it is.
  const soonest =
    matched.length === 0 && q.max_cover !== undefined
      ? catalog.rows.reduce<{ v: PosVariation; days: number } | undefined>((best, v) => {
          const days = cover(v);
          return days !== undefined && (!best || days < best.days) ? { v, days } : best;
        }, undefined)
      : undefined;
  // Array sort is stable: equal figures keep the catalog's order. Nothing sold lasts forever.
  const figure = { stock, sold, days_of_cover: (v: PosVariation) => cover(v) ?? Number.POSITIVE_INFINITY }[q.sort ?? "stock"];
  const ascending = q.asc ?? q.sort !== "sold";
  if (q.sort) matched.sort((a, b) => (ascending ? 1 : -1) * compare(figure(a), figure(b)));
  const next = at + input.limit;
  return {
    rows: matched.slice(at, next),
    total: catalog.complete ? matched.length : undefined,
    next_cursor: input.limit > 0 && next < matched.length ? encodeCursor("search_products", input, { q, at: next }) : undefined,
    ...(catalog.complete && (sales?.complete ?? true) ? { matched } : { complete: false as const, read: catalog.total }),
    query: q,
    sales,
    soonest,
    unlisted: sales && catalog.complete && !search && !variation_ids ? unlistedSales(catalog.rows, sales) : undefined,
  };
}

export const searchProducts = defineTool({
  name: "search_products",
  title: "Search products",
  description:
    'Variations (variation_id) by name + variant ("áo thun nâu M"), SKU or barcode, with price, stock per warehouse and units sold (sold_since); limit 0: stock totals alone.',
  toolset: "orders",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    // What it matches the description says; a names-only text is left out of the listing.
    search: z.string().max(200).optional().describe("Search"),
    variation_ids: z.array(z.string().max(64)).max(100).optional().describe("Only these (ids or SKUs)"),
    max_stock: z.number().int().optional().describe("Stock <= this in warehouse_id, else in any warehouse (low_in)"),
    max_total_stock: z.number().int().optional().describe("Summed over warehouses"),
    ...salesInput,
    sort_by: z.enum(["stock", "sold", "days_of_cover"]).optional().describe("stock, days_of_cover: lowest first; sold: most"),
    ascending: z.boolean().optional().describe("Lowest first (false: highest)"),
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
    sold_totals: z.object({ sold: z.number(), returned: z.number(), variations_sold: z.number(), variations_unsold: z.number() }).optional(),
    next_cursor: z.string().optional(),
    complete: z.boolean().optional().describe("false: the catalog was read only in part"),
    sold_span: z.object({ since: z.string(), until: z.string(), by: z.string() }).optional(),
    ask_again_in_s: z.number().optional(),
    note: z.string().optional(),
    figures: z.string().optional(),
  }),
  async handler(input, ctx) {
    if (input.max_total_stock !== undefined && input.warehouse_id !== undefined) {
      throw new InputError("max_total_stock", "sums every warehouse, so it does not combine with warehouse_id", "Use max_stock for one warehouse's stock, or drop warehouse_id.");
    }
    if (input.ascending !== undefined && input.sort_by === undefined) throw new InputError("ascending", "orders a sort", 'Pass sort_by too: "stock", "sold" or "days_of_cover".');
    const shopId = await resolveShopId(ctx, input.shop_id);
    const warehouse = input.warehouse_id === undefined ? undefined : await warehouseId(ctx.pos, shopId, "warehouse_id", input.warehouse_id);
    const scan = input.cursor ? decodeCursor("search_products", input, scanCursor) : undefined;
    if (input.limit === 0 && input.cursor) throw new InputError("cursor", "continues a list of rows; limit 0 lists none", "Drop cursor, or pass a limit from 1 to 50.");
    // Totals are of every match: the catalog is read whole for them, as for a total-stock filter.
    const whole = scan?.at !== undefined || (!input.cursor && (input.max_total_stock !== undefined || input.sort_by !== undefined || input.limit === 0 || asksSales(input)));
    const ids = input.cursor || !input.variation_ids ? undefined : await variationIds(ctx.pos, shopId, input.variation_ids, (i) => `variation_ids[${i}]`);
    const search = input.search?.trim() || undefined;
    let served = 0;
    // Filters this tool applies itself travel in the cursor beside the upstream ones, and so does
    // `part`: rows that are the matches among part of a name's variations, with no total.
    const filters = {
      max_stock: input.max_stock,
      wh: warehouse,
      max_total: input.max_total_stock,
      sort: input.sort_by,
      asc: input.ascending,
      ss: input.sold_since,
      su: input.sold_until,
      max_sold: input.max_sold,
      max_cover: input.max_days_of_cover,
    };
    const read = (query: UpstreamQuery & { part?: string }): Promise<Page> =>
      whole
        ? catalogPage(input, ctx, shopId, (scan?.q as Query | undefined) ?? { ...query, ...filters }, scan?.at ?? 0, (n) => (served += n))
        : pagedList(
            "search_products",
            input,
            () => ({ ...query, ...filters }),
            async ({ max_stock: _max, wh: _wh, part: _part, max_total: _total, sort: _sort, asc: _asc, ss: _ss, su: _su, max_sold: _sold, max_cover: _cover, ...q }, page_number, page_size) => {
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
    const { sales } = page;
    const salesOf = (v: PosVariation) => {
      if (!sales) return {};
      const sold = sales.byVariation.get(String(v.id));
      return { sold: sold?.sold ?? 0, returned: sold?.returned || undefined, days_of_cover: daysOfCover(availableStock(v, only) ?? 0, sold, sales.days) };
    };
    return {
      variations: page.rows.map((v) => {
        if (!names) return { ...upstreamRecord(v), variation_id: String(v.id), ...salesOf(v) };
        const row = { ...variationRow(v, names, only), ...salesOf(v) };
        const max = page.query.max_stock;
        if (max === undefined || only !== undefined) return row;
        const low = lowIn(v, max).filter(Boolean).map((w) => names.get(w) ?? w);
        return low.length ? { ...row, low_in: low } : row;
      }),
      total: part ? undefined : page.total,
      stock_totals: totals && named ? stockTotals(page.matched!, named, only) : undefined,
      sold_totals: totals && sales ? soldTotals(page.matched!, sales) : undefined,
      next_cursor: page.next_cursor,
      complete: page.complete === false ? false : undefined,
      sold_span: sales && { since: toIsoInZone(sales.since, ctx.config.timezone), until: toIsoInZone(sales.until, ctx.config.timezone), by: "created" },
      ask_again_in_s: sales?.reading && !sales.reading.failed ? askAgainIn(sales.reading) : undefined,
      note: sales?.reading
        ? `${readingNote("the shop's orders", sales.reading, ctx.config.timezone)}.`
        : page.stopped
          ? `Read ${STOCK_SCAN_PAGES * 100} variations: pass next_cursor to read on.`
          : page.complete === false
            ? `Only the first ${STOCK_SCAN_PAGES * MAX_PAGE_SIZE} of ${page.read ?? "more"} variations were read: narrow with search.`
            : page.soonest
              ? `None lasts ${page.query.max_cover} days or less at that pace; the shortest: ${soonestText(page.soonest)}.`
              : page.unlisted
                ? `${page.unlisted.sold} units sold of ${page.unlisted.variations} variations the catalog no longer holds are in no row nor in sold_totals.`
                : (part ?? missing),
      figures: (names && page.rows.length) || totals ? (sales ? `${STOCK_FIGURES} ${SALES_FIGURES}` : STOCK_FIGURES) : undefined,
    };
  },
});
