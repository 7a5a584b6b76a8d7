import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosVariation } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { sanitizeName } from "../../format/text.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { nonEmpty, shaped, someOf } from "../pos/fields.js";
import { shopScope } from "../pos/shop-scope.js";
import { variantText } from "../orders/variation-row.js";
import { findProduct, variationsOf } from "./product-ref.js";

const money = z.number().int().min(0).optional();
const change = shaped({
  variant: z.string().max(100).optional(),
  price: money,
  counter_price: money,
  cost: money,
});

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
  title: "Change product prices",
  description:
    'Set variant prices. Example: product "AT001", prices [{variant: "Trắng S", price: 199000}].',
  toolset: "catalog",
  annotations: OVERWRITE,
  input: z.object({
    shop_id: shopIdInput,
    product: nonEmpty(200).describe("Name, id, SKU or a variant's SKU/barcode"),
    prices: jsonish(someOf(change, 100)).describe('variant (words/SKU/"all"; default: the SKU\'s, else all), price, counter_price, cost'),
  }),
  output: z.object({
    product_id: z.string(),
    name: z.string().optional(),
    changed: z.array(z.looseObject({ variation_id: z.string(), old_price: z.number().optional(), price: z.number().optional() })),
    currency: z.string(),
  }),
  async handler(input, ctx) {
    const empty = input.prices.findIndex((p) => p.price === undefined && p.counter_price === undefined && p.cost === undefined);
    if (empty >= 0) throw new InputError(`prices[${empty}]`, "sets nothing", "Give price, counter_price or cost.");
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const ref = await findProduct(ctx.pos, shopId, "product", input.product);
    const { product } = ref;
    const changes = new Map<string, (typeof input.prices)[number]>();
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
    return {
      product_id: String(product.id),
      name: sanitizeName(product.name),
      changed: variations
        .filter((v) => changes.has(String(v.id)))
        .map((v) => {
          const set = changes.get(String(v.id))!;
          return {
            variation_id: String(v.id),
            sku: id(v.display_id),
            variant: variantText(v),
            old_price: num(v.retail_price),
            price: set.price ?? num(v.retail_price),
            counter_price: set.counter_price,
            cost: set.cost,
          };
        }),
      currency,
    };
  },
});
