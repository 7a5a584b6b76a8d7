import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosVariation } from "../../clients/schemas/pos.js";
import { fold } from "../../text/fold.js";
import { sanitizeName } from "../../text/sanitize.js";
import { idInput } from "../inputs.js";
import { variantText } from "./variation-row.js";

/** Units on an order line; the cap is a refinement so it stays out of the listed schema. */
export const quantityInput = z
  .number()
  .int()
  .min(1)
  .refine((n) => n <= 10_000, "at most 10000 units a line");

/** An order line: a variation_id, or product (name, SKU or barcode) + optional variant words. */
export const itemInput = z.object({
  variation_id: idInput().optional(),
  product: z.string().max(200).optional(),
  variant: z.string().max(100).optional(),
  quantity: quantityInput,
  price: z.number().int().min(0).optional(),
  discount_each: z.number().int().min(0).optional(),
});
export const itemsInput = z.array(itemInput).min(1).max(100);

export type ItemInput = z.infer<typeof itemInput>;

export interface ResolvedItem {
  input: ItemInput;
  variation: PosVariation;
}

const words = (text: string) => fold(text).split(/[\s,/-]+/).filter(Boolean);
const label = (v: PosVariation) => `${v.display_id ?? v.id} (${[v.product?.name, variantText(v)].filter(Boolean).join(" ")})`;

/** Whether a variation is the one `text` names exactly: its id, SKU or barcode. */
export const namesVariation = (v: PosVariation, text: string) =>
  [v.display_id, v.barcode, String(v.id)].some((k) => k !== null && k !== undefined && fold(String(k)) === fold(text));

/** Whether a variation has every word of `variant` among its attribute values ("xanh navy l" for "Xanh navy - L"). */
export function hasVariantWords(v: PosVariation, variant: string): boolean {
  const have = words(variantText(v) ?? "");
  return words(variant).every((w) => have.includes(w));
}

/** The one variation a product name, SKU or barcode (and variant words) designate. */
export function pickVariation(field: string, candidates: PosVariation[], product: string, variant?: string): PosVariation {
  const exacts = candidates.filter((v) => namesVariation(v, product));
  let matches = exacts.length ? exacts : candidates;
  if (variant) matches = matches.filter((v) => hasVariantWords(v, variant));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    // The product was found but not that variant: its variants are the choice to offer.
    const offered = variant && candidates.length ? `Its variants: ${candidates.slice(0, 15).map(label).join("; ")}.` : "Use search_products to find the variation_id.";
    throw new InputError(field, `no variation matches ${JSON.stringify(product)}${variant ? ` / ${JSON.stringify(variant)}` : ""}`, offered);
  }
  const listed = matches.slice(0, 10).map(label).join("; ");
  throw new InputError(
    field,
    `${JSON.stringify(product)} matches ${matches.length} variations: ${listed}`,
    "Pass variation_id, a SKU, or variant to choose one.",
  );
}

/** Trailing words a product name may carry as its variant ("Xanh navy L"). */
const VARIANT_WORDS = 3;

/** Variations of a name read at most to pick one by its variant words: two pages of 100. */
const CANDIDATES_MAX = 200;

/** The variations a search finds: all of them up to CANDIDATES_MAX, else those read and how many there are. */
interface Candidates {
  rows: PosVariation[];
  /** Every match was read. */
  complete: boolean;
  total?: number;
}

/** Every variation a catalog search finds, in pages of 100 read at once, up to CANDIDATES_MAX. */
async function candidatesOf(pos: PosClient, shopId: string, search: string): Promise<Candidates> {
  const size = 100;
  const first = await pos.listVariations(shopId, { search, page_size: size, page_number: 1 });
  const total = first.total_entries;
  const known = total ?? (first.data.length < size ? first.data.length : undefined);
  if (known !== undefined && known <= first.data.length) return { rows: first.data, complete: true, total };
  const pages = Math.min(Math.ceil((known ?? Number.POSITIVE_INFINITY) / size), CANDIDATES_MAX / size);
  const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, i) => pos.listVariations(shopId, { search, page_size: size, page_number: i + 2 })));
  const rows = [...new Map([first, ...rest].flatMap((page) => page.data).map((v) => [String(v.id), v])).values()];
  return { rows, complete: known !== undefined && rows.length >= known, total };
}

/**
 * A product named with its variant words in one text ("Áo thun Hàn Quốc nâu M", accents
 * optional): the catalog is searched for the text less its last one, two, then three words; the
 * first that finds variations names the product, the words left its variant. Undefined when none
 * does. For texts the catalog's own search finds nothing for.
 */
export async function splitVariant(pos: PosClient, shopId: string, text: string): Promise<({ product: string; variant: string } & Candidates) | undefined> {
  const all = text.trim().split(/\s+/);
  for (let cut = all.length - 1; cut >= Math.max(1, all.length - VARIANT_WORDS); cut--) {
    const product = all.slice(0, cut).join(" ");
    const found = await candidatesOf(pos, shopId, product);
    if (found.rows.length) return { product, variant: all.slice(cut).join(" "), ...found };
  }
  return undefined;
}

/**
 * Every item's variation, looked up before anything is written: ids are checked to exist,
 * product names, SKUs and barcodes are resolved (several matches is an error listing them). A
 * name that finds more variations than are read is no choice: one match among those read may not
 * be the only one.
 */
export async function resolveItems(pos: PosClient, shopId: string, items: ItemInput[], field = "items"): Promise<ResolvedItem[]> {
  if (items.length === 0) throw new InputError(field, "needs at least one item", "Pass items: [{variation_id or product, quantity}].");
  const ids = items.flatMap((it) => (it.variation_id ? [it.variation_id] : []));
  const known = await pos.variationsByIds(shopId, ids);
  const resolved: ResolvedItem[] = [];
  for (const [i, item] of items.entries()) {
    const where = `${field}[${i}]`;
    if (item.variation_id) {
      // People copy the SKU or barcode off a label into variation_id: exactly one of those is it too.
      const variation = known.find((v) => String(v.id) === item.variation_id) ?? (await variationByCode(pos, shopId, `${where}.variation_id`, item.variation_id));
      resolved.push({ input: item, variation });
      continue;
    }
    if (!item.product?.trim()) {
      throw new InputError(`${where}.variation_id`, "is required (or product: a name, SKU or barcode)", "Use search_products to find the variation_id.");
    }
    const found = await candidatesOf(pos, shopId, item.product.trim());
    // "Áo thun Hàn Quốc nâu M" as the product: its last words are the variant.
    const split = found.rows.length || item.variant ? undefined : await splitVariant(pos, shopId, item.product);
    const [list, product, variant] = split ? [split, split.product, split.variant] : [found, item.product, item.variant];
    if (!list.complete && !list.rows.some((v) => namesVariation(v, product))) {
      throw new InputError(
        `${where}.product`,
        `${JSON.stringify(product)} finds ${list.total ?? `more than ${list.rows.length}`} variations, of several products: too many to choose one from (${CANDIDATES_MAX} are read)`,
        "Give the product's full name, a SKU or the variation_id (search_products lists them).",
      );
    }
    resolved.push({ input: item, variation: pickVariation(`${where}.product`, list.rows, product, variant) });
  }
  return resolved;
}

/** Resolved lines as the shop names them ("Áo sơ mi form rộng (Xanh navy - L) × 2" in a confirmation). */
export const namedLines = (items: ResolvedItem[]) =>
  items.map(({ input, variation }) => ({ product: sanitizeName(variation.product?.name) ?? String(variation.id), variant: variantText(variation), quantity: input.quantity }));

/** The upstream `variation_info` of a variation: the name and price the order line keeps. */
export function variationInfo(v: PosVariation, price?: number) {
  return {
    name: v.product?.name ?? String(v.id),
    detail: variantText(v),
    display_id: v.display_id ?? undefined,
    product_display_id: v.product?.display_id ?? undefined,
    retail_price: price ?? v.retail_price ?? 0,
    fields: v.fields ?? undefined,
  };
}

/** The one variation whose SKU or barcode is `text` exactly; none or several is an error naming them. */
async function variationByCode(pos: PosClient, shopId: string, field: string, text: string): Promise<PosVariation> {
  const hits = (await pos.listVariations(shopId, { search: text, page_size: 50 })).data.filter((v) => namesVariation(v, text));
  if (hits.length === 1) return hits[0]!;
  const problem = hits.length ? `${JSON.stringify(text)} names ${hits.length} variations: ${hits.slice(0, 10).map(label).join("; ")}` : `no variation has the id, SKU or barcode ${JSON.stringify(text)}`;
  throw new InputError(field, problem, "Use search_products to find the variation_id.");
}

/**
 * The ids of variations given by id, SKU or barcode, in order: a filter holding something else
 * matches nothing (an empty answer that reads as "none"), and a stock line with it moves nothing.
 * `where(i)` names the parameter of value i in errors.
 */
export async function variationIds(pos: PosClient, shopId: string, values: readonly string[], where: (i: number) => string): Promise<string[]> {
  const texts = values.map((v) => v.trim());
  const known = new Set((await pos.variationsByIds(shopId, texts)).map((v) => String(v.id)));
  const ids: string[] = [];
  for (const [i, text] of texts.entries()) {
    ids.push(known.has(text) ? text : String((await variationByCode(pos, shopId, where(i), text)).id));
  }
  return ids;
}
