import { InputError, UpstreamError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosProduct, PosVariation } from "../../clients/schemas/pos.js";
import { bestMatches } from "../../text/name-match.js";
import { fold } from "../../text/fold.js";
import { sanitizeName } from "../../text/sanitize.js";
import { hasVariantWords, namesVariation } from "../orders/resolve-items.js";
import { variantText } from "../orders/variation-row.js";

/** A product as the caller named it: `variation` is set when the name was one variation's own. */
export interface ProductRef {
  product: PosProduct;
  variation?: PosVariation;
}

/** What may go into the product path (its id or SKU): anything else is searched for. */
const PATH_KEY = /^[A-Za-z0-9_.:-]{1,128}$/;

async function productById(pos: PosClient, shopId: string, key: string): Promise<PosProduct | undefined> {
  if (!PATH_KEY.test(key)) return undefined;
  try {
    return await pos.getProduct(shopId, key);
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * The product a caller names: by its id or SKU, by one of its variations' id, SKU or barcode
 * (what a seller reads off a label: then that variation is the one meant), or by its name as
 * people type it. Read with its variations, since a product write sends them back. Several
 * products fitting is an error listing them, never a guess.
 */
export async function findProduct(pos: PosClient, shopId: string, field: string, ref: string): Promise<ProductRef> {
  const key = ref.trim();
  const direct = await productById(pos, shopId, key);
  if (direct) return { product: direct };
  const found = (await pos.listVariations(shopId, { search: key, page_size: 100 })).data;
  const exact = found.filter((v) => namesVariation(v, key));
  const byName = exact.length ? [] : bestMatches(found, key, (v) => v.product?.name ?? undefined);
  const productIds = [...new Set((exact.length ? exact : byName).map((v) => String(v.product_id)))];
  if (productIds.length === 0) {
    throw new InputError(field, `no product has the id, SKU, barcode or name ${JSON.stringify(key)}`, "Use search_products to find the product's SKU.");
  }
  if (productIds.length > 1) {
    const listed = productIds.slice(0, 10).map((id) => {
      const v = (exact.length ? exact : byName).find((x) => String(x.product_id) === id)!;
      return `${sanitizeName(v.product?.name) ?? id} (${v.product?.display_id ?? id})`;
    });
    throw new InputError(field, `${JSON.stringify(key)} matches ${productIds.length} products: ${listed.join("; ")}`, "Pass the product's SKU or id.");
  }
  const product = await pos.getProduct(shopId, productIds[0]!);
  const variation = exact.length === 1 ? (product.variations ?? []).find((v) => String(v.id) === String(exact[0]!.id)) : undefined;
  return variation ? { product, variation } : { product };
}

/**
 * The variations of a product that `variant` designates: "all", its id, SKU or barcode, or words
 * of its attribute values ("xanh navy L"). No variant: the one the product was named by, if any,
 * else all of them.
 */
export function variationsOf(ref: ProductRef, field: string, variant: string | undefined): PosVariation[] {
  const all = ref.product.variations ?? [];
  if (variant === undefined) return ref.variation ? [ref.variation] : all;
  if (fold(variant) === "all") return all;
  const exact = all.filter((v) => namesVariation(v, variant));
  const matches = exact.length ? exact : all.filter((v) => hasVariantWords(v, variant));
  if (matches.length) return matches;
  const listed = all.map((v) => `${v.display_id ?? v.id} (${variantText(v) ?? ""})`).join("; ");
  throw new InputError(field, `no variation of ${sanitizeName(ref.product.name) ?? "the product"} matches ${JSON.stringify(variant)}`, `Its variations: ${listed}.`);
}
