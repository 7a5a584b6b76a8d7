import { z } from "zod";
import { orderCurrency, orderRow, orderRowSchema } from "../../format/orders.js";
import { CREATE, defineTool } from "../define.js";
import { idInput, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../shop/resolve-shop.js";
import { itemLines, orderBody, orderFields } from "./order-body.js";
import { resolveItems } from "./resolve-items.js";

export const createOrder = defineTool({
  name: "create_order",
  title: "Create an order",
  description:
    "Create a sales order. Items take a variation_id, or a product name/SKU/barcode that must match one variation. Returns the new order id. Example: items [{product: \"AT001-TR-S\", quantity: 2}], customer_name, phone, shipping_address.",
  toolset: "orders",
  annotations: CREATE,
  input: z.object({
    shop_id: shopIdInput,
    ...orderFields,
    page_id: z.string().max(64).optional().describe("Page the order came from"),
    shop_customer_id: idInput("Shop customer id (search_customers)").optional(),
    custom_id: z.string().max(64).optional().describe("Own order code"),
    received_at_shop: z.boolean().optional().describe("Sold at the counter"),
    assigning_seller_id: z.string().max(64).optional().describe("Seller (staff) id"),
  }),
  output: z.object({ id: z.string(), order: orderRowSchema, currency: z.string() }),
  async handler(input, ctx) {
    const { shop_id, ...fields } = input;
    const shopId = await resolveShopId(ctx, shop_id);
    const body = orderBody(fields);
    body.items = itemLines(await resolveItems(ctx.pos, shopId, fields.items));
    const order = await ctx.pos.createOrder(shopId, { ...body, shop_id: Number(shopId) || shopId });
    return { id: String(order.id), order: orderRow(order, ctx.config.timezone), currency: orderCurrency([order]) };
  },
});
