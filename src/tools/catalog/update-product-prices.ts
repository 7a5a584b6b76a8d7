import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosVariation } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { nonEmpty, someOf } from "../pos/fields.js";
import { shopScope } from "../pos/shop-scope.js";
import { variantText } from "../orders/variation-row.js";
import { notApplied, readBack, type SentField, verifiedShape } from "../verify.js";
import { findProduct, variationsOf } from "./product-ref.js";

const money = z.number().int().min(0).optional();
const change = z.object({
  variant: z.string().max(100).optional().describe('Words, SKU or "all"; default: the SKU\'s, else all'),
  price: money,
  counter_price: money,
  cost: money,
});
type Change = z.output<typeof change>;

/** Each price sent for a variation beside what the product read back holds there. */
function priceChecks(before: PosVariation, set: Change, after: PosVariation | undefined): SentField[] {
  const held = (after ?? {}) as Record<string, unknown>;
  const label = before.display_id ?? String(before.id);
  return [
    { field: `${label} price`, sent: set.price, held: held.retail_price },
    { field: `${label} counter_price`, sent: set.counter_price, held: held.price_at_counter },
    { field: `${label} cost`, sent: set.cost, held: held.last_imported_price },
  ];
}

/** What the update sends back for a variation: its current fields (read first), changes applied. */
function variationBody(v: PosVariation, set: { price?: number; counter_price?: number; cost?: number } | undefined) {
  const raw = v as Record<string, unknown>;
  return {
    id: String(v.id),
    fields: (v.fields ?? []).map((f) => ({ name: (f as { name?: string }).name, value: (f as { value?: string }).value })),
    retail_price: set?.price ?? num(v.retail_price),
    price_at_counter: set?.counter_price ?? num(raw.price_at_counter),
    last_imported_price: set?.cost ?? num(raw.last_imported_price),
    barcode: v.barcode ?? undefined,
    weight: num(raw.weight),
    is_hidden: typeof raw.is_hidden === "boolean" ? raw.is_hidden : undefined,
  };
}

export const updateProductPrices = defineTool({
  name: "update_product_prices",
  title: "Update product prices",
  // No example: the listed schema shows what a change holds.
  description: "Set the prices of a product's variants.",
  toolset: "catalog",
  annotations: OVERWRITE,
  input: z.object({
    shop_id: shopIdInput,
    product: nonEmpty(200).describe("Name, id, SKU or a variant's SKU/barcode"),
    // Said by the name alone: the listing leaves the text out (listing.ts namesOnly).
    prices: jsonish(someOf(change, 100)).describe("Prices"),
  }),
  output: z.object({
    product_id: z.string(),
    name: z.string().optional(),
    changed: z.array(z.looseObject({ variation_id: z.string(), old_price: z.number().optional(), price: z.number().optional() })).describe("Prices as read back"),
    currency: z.string(),
    ...verifiedShape,
  }),
  async handler(input, ctx) {
    const empty = input.prices.findIndex((p) => p.price === undefined && p.counter_price === undefined && p.cost === undefined);
    if (empty >= 0) throw new InputError(`prices[${empty}]`, "sets nothing", "Give price, counter_price or cost.");
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const ref = await findProduct(ctx.pos, shopId, "product", input.product);
    const { product } = ref;
    const changes = new Map<string, Change>();
    input.prices.forEach((p, i) => {
      for (const v of variationsOf(ref, `prices[${i}].variant`, p.variant)) changes.set(String(v.id), { ...changes.get(String(v.id)), ...p });
    });
    const variations = product.variations ?? [];
    const raw = product as Record<string, unknown>;
    // The update requires name and weight and takes the variations back: all are sent as read.
    await ctx.pos.updateProduct(shopId, String(product.id), {
      product: {
        name: product.name,
        weight: num(raw.weight) ?? 0,
        variations: variations.map((v) => variationBody(v, changes.get(String(v.id)))),
      },
    });
    const back = await readBack("price change", () => ctx.pos.getProduct(shopId, String(product.id)));
    const touched = variations.filter((v) => changes.has(String(v.id)));
    const after = (v: PosVariation) => back.record?.variations?.find((x) => String(x.id) === String(v.id));
    return {
      product_id: String(product.id),
      name: sanitizeName(product.name),
      changed: touched.map((v) => {
        const now = (after(v) ?? {}) as Record<string, unknown>;
        const set = changes.get(String(v.id))!;
        // Only what was read back: a failed read-back reports the old price and nothing else.
        return {
          variation_id: String(v.id),
          sku: id(v.display_id),
          variant: variantText(v),
          old_price: num(v.retail_price),
          price: num(now.retail_price),
          counter_price: set.counter_price === undefined ? undefined : num(now.price_at_counter),
          cost: set.cost === undefined ? undefined : num(now.last_imported_price),
        };
      }),
      currency,
      not_applied: back.record && notApplied(touched.flatMap((v) => priceChecks(v, changes.get(String(v.id))!, after(v)))),
      unverified: back.unverified,
    };
  },
});
