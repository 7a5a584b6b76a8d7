import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { id } from "../../format/compact.js";
import { parseDateInput, toUnix } from "../../format/time.js";
import { CREATE, defineTool } from "../define.js";
import { dateInput, jsonish, shopIdInput } from "../inputs.js";
import type { PosClient } from "../../clients/pos.js";
import { findProduct } from "../catalog/product-ref.js";
import { variationIds } from "../orders/resolve-items.js";
import { nonEmpty, someOf } from "../pos/fields.js";
import { shopScope } from "../pos/shop-scope.js";

const part = z.object({
  product_id: nonEmpty(64).optional().describe("Id, SKU or name"),
  count: z.number().int().refine((n) => n > 0, "must be above 0"),
  variation_id: nonEmpty(64).optional().describe("Id, SKU or barcode: only this variant"),
});
type Part = z.output<typeof part>;

/**
 * The parts as ids, resolved before the write: a product by id, SKU or name, a variation by id,
 * SKU or barcode (it brings its product). One at a time: a combo has few parts.
 */
async function comboParts(pos: PosClient, shopId: string, parts: Part[]): Promise<Part[]> {
  const out: Part[] = [];
  for (const [i, p] of parts.entries()) {
    const where = `variations[${i}]`;
    if (p.variation_id !== undefined) {
      const [variationId] = await variationIds(pos, shopId, [p.variation_id], () => `${where}.variation_id`);
      const [variation] = await pos.variationsByIds(shopId, [variationId!]);
      out.push({ ...p, variation_id: variationId, product_id: String(variation?.product_id ?? p.product_id) });
    } else if (p.product_id !== undefined) {
      out.push({ ...p, product_id: String((await findProduct(pos, shopId, `${where}.product_id`, p.product_id)).product.id) });
    } else {
      throw new InputError(`${where}.product_id`, "is required (or variation_id)", "Name the product (id, SKU or name) or the variant (id, SKU or barcode).");
    }
  }
  return out;
}

export const createCombo = defineTool({
  name: "create_combo",
  title: "Create combo",
  description:
    "Create a combo: buying all parts earns a discount, fixed price or free shipping. Example: variations [{product_id, count: 1}], discount_amount 50000.",
  toolset: "promotions",
  annotations: CREATE,
  input: z.object({
    shop_id: shopIdInput,
    name: nonEmpty(200).describe("Combo name"),
    variations: jsonish(someOf(part, 50)).describe("Parts"),
    discount_amount: z.number().int().optional().describe("Amount off"),
    discount_by_percent: z.number().max(100).optional().describe("Percent off"),
    max_discount_by_percent: z.number().int().optional().describe("Cap"),
    value_combo: z.number().int().optional().describe("Fixed combo price"),
    is_free_shipping: z.boolean().optional().describe("Free shipping"),
    order_types: jsonish(someOf(z.enum(["all", "online", "offline"]), 3)).default(["all"]).describe("Order kinds"),
    start_time: dateInput.optional().describe("Start"),
    end_time: dateInput.optional().describe("End"),
  }),
  output: z.object({ id: z.string().optional(), name: z.string() }),
  async handler(input, ctx) {
    const offers = [input.discount_amount, input.discount_by_percent, input.value_combo].filter((v) => v !== undefined).length;
    if (offers > 1) throw new InputError("discount_amount", "give only one of discount_amount, discount_by_percent, value_combo", "Keep the one the combo should grant.");
    if (offers === 0 && !input.is_free_shipping) {
      throw new InputError("discount_amount", "a combo needs discount_amount, discount_by_percent, value_combo or is_free_shipping", "Say what buying the combo earns.");
    }
    const tz = ctx.config.timezone;
    const unix = (field: string, value: string | number | undefined) => (value === undefined ? undefined : toUnix(parseDateInput(field, value, tz)));
    const { shop_id, start_time, end_time, ...fields } = input;
    const { shopId, currency } = await shopScope(ctx, shop_id);
    const variations = await comboParts(ctx.pos, shopId, fields.variations);
    const created = await ctx.pos.createCombo(shopId, {
      combo_product: {
        ...fields,
        variations,
        currency,
        is_use_percent: input.discount_by_percent !== undefined,
        is_value_combo: input.value_combo !== undefined,
        is_variation: input.variations.every((v) => v.variation_id !== undefined),
        start_time: unix("start_time", start_time),
        end_time: unix("end_time", end_time),
      },
    });
    return { id: id(created.id), name: input.name };
  },
});
