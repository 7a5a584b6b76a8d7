import { z } from "zod";
import { id, num } from "../../format/compact.js";
import { CREATE, defineTool } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { nonEmpty, someOf } from "../pos/fields.js";
import { categories, refId } from "../pos/shop-refs.js";
import { shopScope } from "../pos/shop-scope.js";
import { variantText } from "../orders/variation-row.js";

const variant = z.object({
  options: jsonish(z.record(z.string().max(40), z.string().max(80))).optional(),
  price: z.number().int().min(0),
  cost: z.number().int().min(0).optional(),
  sku: z.string().max(60).optional(),
  barcode: z.string().max(60).optional(),
});

export const createProduct = defineTool({
  name: "create_product",
  title: "Add a product",
  description:
    'Add a product. Example: name "Áo polo", weight 250, variants [{options: {"Size": "M"}, price: 250000}].',
  toolset: "catalog",
  annotations: CREATE,
  input: z.object({
    shop_id: shopIdInput,
    name: nonEmpty(200).describe("Name"),
    weight: z.number().int().min(0).describe("Grams"),
    category: z.string().max(100).optional().describe("Name or id"),
    sku: z.string().max(60).optional().describe("Product code"),
    note: z.string().max(2000).optional().describe("Note"),
    variants: jsonish(someOf(variant, 100)).describe("Variants"),
  }),
  output: z.object({
    product_id: z.string().optional(),
    sku: z.string().optional(),
    variants: z.array(z.looseObject({ variation_id: z.string() })),
    currency: z.string(),
  }),
  async handler(input, ctx) {
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const categoryIds = input.category === undefined ? undefined : [Number(refId("category", await categories(ctx.pos, shopId), input.category))];
    const created = await ctx.pos.createProduct(shopId, {
      product: {
        name: input.name,
        weight: input.weight,
        category_ids: categoryIds,
        custom_id: input.sku,
        note: input.note,
        variations: input.variants.map((v) => ({
          fields: Object.entries(v.options ?? {}).map(([name, value]) => ({ name, value })),
          retail_price: v.price,
          last_imported_price: v.cost,
          custom_id: v.sku,
          barcode: v.barcode,
          weight: input.weight,
        })),
      },
    });
    return {
      product_id: id(created.id),
      sku: id(created.display_id) ?? input.sku,
      variants: (created.variations ?? []).map((v) => ({ variation_id: String(v.id), sku: id(v.display_id), variant: variantText(v), price: num(v.retail_price) })),
      currency,
    };
  },
});
