import type { PosClient } from "../../clients/pos.js";
import { sanitizeName } from "../../text/sanitize.js";
import type { ToolContext } from "../define.js";
import { variationRow } from "../orders/variation-row.js";
import { cachedForShop, staff } from "../pos/shop-refs.js";

// Names for the ids analytics rows are split by: the rows carry ids only, and an id alone means
// nothing to a person. A lookup that fails leaves the rows standing, unnamed. The ids stay beside
// the names (what a follow-up call takes); codes of the shop's small lists are replaced by their
// names instead (split-labels.ts).

type Names = Map<string, string>;

/** Product and variant of each variation id shown. */
async function variationNames(pos: PosClient, shopId: string, ids: string[]): Promise<Names> {
  const names: Names = new Map();
  for (const v of await pos.variationsByIds(shopId, ids).catch(() => [])) {
    const row = variationRow(v);
    if (row.name) names.set(row.variation_id, row.variant ? `${row.name} (${row.variant})` : row.name);
  }
  return names;
}

/** Pages of 100 variations read for product names; a larger catalog's rest is named one by one. */
const CATALOG_PAGES = 10;
const ONE_BY_ONE = 10;

/** [product id, name] of the catalog's first pages. */
async function catalogNames(pos: PosClient, shopId: string): Promise<[string, string][]> {
  const pairs: [string, string][] = [];
  for (let page = 1; page <= CATALOG_PAGES; page++) {
    const got = await pos.listVariations(shopId, { page_number: page, page_size: 100 });
    for (const v of got.data) {
      const name = sanitizeName(v.product?.name);
      if (name && v.product_id != null) pairs.push([String(v.product_id), name]);
    }
    if (got.data.length < 100 || (got.total_entries !== undefined && page * 100 >= got.total_entries)) break;
  }
  return pairs;
}

/**
 * Product names by product id. The API has no product list by ids: the catalog's variations
 * carry their product's name, read a few pages at most and kept briefly; products past them are
 * read one by one, the first few only.
 */
async function productNames(pos: PosClient, shopId: string, ids: string[]): Promise<Names> {
  const catalog = await cachedForShop(pos, `product-names:${shopId}`, (shared) => catalogNames(shared, shopId)).catch(() => []);
  const names: Names = new Map(catalog);
  const missing = ids.filter((id) => !names.has(id)).slice(0, ONE_BY_ONE);
  const read = await Promise.all(missing.map((id) => pos.getProduct(shopId, id).catch(() => undefined)));
  for (const p of read) {
    const name = sanitizeName(p?.name);
    if (p?.id != null && name) names.set(String(p.id), name);
  }
  return names;
}

/** Customers by id, read in pages of 100 ids (the list takes them comma-separated). */
async function customerNames(pos: PosClient, shopId: string, ids: string[]): Promise<Names> {
  const names: Names = new Map();
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const page = await pos.listCustomers(shopId, { customer_ids: chunk.join(","), page_size: chunk.length }).catch(() => undefined);
    for (const c of page?.data ?? []) {
      const name = sanitizeName(c.name);
      if (name) names.set(String(c.id), name);
    }
  }
  return names;
}

async function staffNames(pos: PosClient, shopId: string): Promise<Names> {
  return new Map((await staff(pos, shopId).catch(() => [])).map((r) => [r.id, r.name]));
}

const NAMERS: Record<string, (pos: PosClient, shopId: string, ids: string[]) => Promise<Names>> = {
  "Variation.id": variationNames,
  "Variation.product_id": productNames,
  "User.id": staffNames,
  "Customer.id": customerNames,
};

/**
 * A name for each row (by its index) from the splits that are ids: "Áo thun (Trắng - M)", a
 * staff member, a customer, or both joined ("Trần Minh Khoa / Áo thun") when split by two of them.
 */
export async function splitNames(ctx: Pick<ToolContext, "pos">, shopId: string, split: readonly string[], rows: readonly Record<string, unknown>[]): Promise<(string | undefined)[]> {
  const keyed = split.filter((s) => NAMERS[s]);
  const idOf = (row: Record<string, unknown>, s: string) => (row[s] == null ? undefined : String(row[s]));
  const lookups = await Promise.all(keyed.map((s) => NAMERS[s]!(ctx.pos, shopId, [...new Set(rows.flatMap((r) => idOf(r, s) ?? []))])));
  return rows.map((row) => {
    const parts = keyed.flatMap((s, i) => lookups[i]!.get(idOf(row, s) ?? "") ?? []);
    return parts.length ? parts.join(" / ") : undefined;
  });
}
