import { z } from "zod";
import { upstreamRecord } from "../../format/orders.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, limitInput, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { orderNames } from "../pos/shop-refs.js";
import { pagedList } from "../pos/paging.js";
import { variationRow, variationRowSchema } from "./variation-row.js";

export const searchProducts = defineTool({
  name: "search_products",
  title: "Search products",
  description:
    "Find product variations (variation_id) by name, SKU or barcode, with price and stock.",
  toolset: "orders",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    query: z.string().max(200).optional().describe("Name, SKU or barcode"),
    variation_ids: z.array(z.string().max(64)).max(100).optional().describe("Only these"),
    limit: limitInput(100, 20),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({ variations: z.array(variationRowSchema), total: z.number().optional(), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const shopId = await resolveShopId(ctx, input.shop_id);
    const page = await pagedList(
      "search_products",
      input,
      () => ({ search: input.query?.trim() || undefined, variation_ids: input.variation_ids }),
      (q, page_number, page_size) => ctx.pos.listVariations(shopId, { ...q, page_number, page_size }),
      ctx.progress,
    );
    const names = input.detail === "full" ? undefined : (await orderNames(ctx.pos, shopId)).warehouses;
    return {
      variations: page.rows.map((v) => (names ? variationRow(v, names) : { ...upstreamRecord(v), variation_id: String(v.id) })),
      total: page.total,
      next_cursor: page.next_cursor,
    };
  },
});
