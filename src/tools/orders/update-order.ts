import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { orderCurrency, orderDetail, orderDetailSchema } from "../../format/orders.js";
import { defineTool, OVERWRITE } from "../define.js";
import { idInput, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../shop/resolve-shop.js";
import { itemLines, orderBody, orderFields } from "./order-body.js";
import { resolveItems } from "./resolve-items.js";

export const updateOrder = defineTool({
  name: "update_order",
  title: "Update an order",
  description:
    "Change an order: status, receiver, address, fees, notes, warehouse, or its items (the list replaces all lines). Only the fields given change. Example: order_id \"58123\", status \"confirmed\".",
  toolset: "orders",
  annotations: OVERWRITE,
  input: z.object({
    shop_id: shopIdInput,
    order_id: idInput("Order id"),
    ...orderFields,
    items: orderFields.items.optional().describe("New order lines, replacing the current ones"),
  }),
  output: z.object({ order: orderDetailSchema, currency: z.string() }),
  async handler(input, ctx) {
    const { shop_id, order_id, ...fields } = input;
    const shopId = await resolveShopId(ctx, shop_id);
    if (Object.values(fields).every((v) => v === undefined)) {
      throw new InputError(undefined, "nothing to change", "Pass at least one field, e.g. status or note.");
    }
    const body = orderBody(fields);
    if (fields.items) body.items = itemLines(await resolveItems(ctx.pos, shopId, fields.items));
    const order = await ctx.pos.updateOrder(shopId, order_id, body);
    return { order: orderDetail(order, ctx.config.timezone), currency: orderCurrency([order]) };
  },
});
