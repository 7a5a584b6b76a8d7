import { z } from "zod";
import { orderCurrency, orderRow, orderRowSchema } from "../../format/orders.js";
import { CREATE, defineTool } from "../define.js";
import { idInput, jsonish, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { itemLines, orderBody, orderFields } from "./order-body.js";
import { itemsInput, resolveItems } from "./resolve-items.js";

export const createOrder = defineTool({
  name: "create_order",
  title: "Create an order",
  description:
    'Create a sales order. Example: items [{product: "AT001-TR-S", quantity: 2}], phone "0912345678", shipping_address {address, commune_id}.',
  toolset: "orders",
  annotations: CREATE,
  input: z.object({
    shop_id: shopIdInput,
    items: jsonish(itemsInput).describe("Lines: variation_id, or product (name/SKU/barcode) + variant words"),
    ...orderFields,
    shop_customer_id: idInput("Shop customer id").optional(),
  }),
  output: z.object({ id: z.string(), order: orderRowSchema, currency: z.string() }),
  async handler(input, ctx) {
    const { shop_id, items, shop_customer_id, ...fields } = input;
    const body = orderBody(fields);
    // The OpenAPI links an order to its customer as customer.id (it has no shop_customer_id).
    if (shop_customer_id) body.customer = { id: shop_customer_id };
    const shopId = await resolveShopId(ctx, shop_id);
    body.items = itemLines(await resolveItems(ctx.pos, shopId, items));
    const order = await ctx.pos.createOrder(shopId, { ...body, shop_id: Number(shopId) || shopId });
    return { id: String(order.id), order: orderRow(order, ctx.config.timezone), currency: orderCurrency([order]) };
  },
});
