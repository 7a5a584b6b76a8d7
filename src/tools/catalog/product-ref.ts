import { InputError, UpstreamError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosProduct, PosVariation } from "../../clients/schemas/pos.js";
import { fold } from "../../format/text.js";

/**
 * The product a caller names by its id or SKU, or by the SKU or barcode of one of its variations
 * (what a seller reads off a label). Read with its variations, since a product write sends them.
 */
export async function findProduct(pos: PosClient, shopId: string, ref: string): Promise<PosProduct> {
  try {
    return await pos.getProduct(shopId, ref);
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.status !== 404) throw error;
  }
  const found = await pos.listVariations(shopId, { search: ref, page_size: 50 });
  const exact = found.data.filter((v) => [v.display_id, v.barcode].some((k) => k != null && fold(String(k)) === fold(ref)));
  const productIds = [...new Set(exact.map((v) => String(v.product_id)))];
  if (productIds.length !== 1) {
    throw new InputError("product", `no product or variation has the id, SKU or barcode ${JSON.stringify(ref)}`, "Use search_products to find the product's SKU.");
  }
  return pos.getProduct(shopId, productIds[0]!);
}

/** The variations of a product a list of words, a variation id, SKU or barcode designate. */
export function variationsOf(product: PosProduct, field: string, ref: string | undefined): PosVariation[] {
  const all = product.variations ?? [];
  if (ref === undefined || fold(ref) === "all") return all;
  const key = fold(ref);
  const exact = all.filter((v) => [v.id, v.display_id, v.barcode].some((k) => k != null && fold(String(k)) === key));
  if (exact.length) return exact;
  const wanted = key.split(/[\s,/-]+/).filter(Boolean);
  const matches = all.filter((v) => {
    const have = (v.fields ?? []).map((f) => fold(String((f as { value?: unknown }).value ?? "")));
    return wanted.every((w) => have.includes(w));
  });
  if (matches.length) return matches;
  const listed = all.map((v) => `${v.display_id ?? v.id} (${(v.fields ?? []).map((f) => (f as { value?: unknown }).value).join(" ")})`).join("; ");
  throw new InputError(field, `no variation of ${product.name ?? "the product"} matches ${JSON.stringify(ref)}`, `Its variations: ${listed}.`);
}
