import { z } from "zod";
import { carrierNews, carrierNewsSchema, orderCurrency, orderDetail, orderDetailSchema, upstreamRecord } from "../../format/orders.js";
import { defineTool, READ } from "../define.js";
import { detailInput, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { orderNames } from "../pos/shop-refs.js";
import { orderRefInput, resolveOrder } from "./order-ref.js";

export const getOrder = defineTool({
  name: "get_order",
  title: "Get an order",
  description:
    "One order: lines, address, money, payments by channel, status history, carrier's latest updates.",
  toolset: "orders",
  annotations: READ,
  input: z.object({ shop_id: shopIdInput, order_id: orderRefInput, detail: detailInput }),
  output: z.object({ order: orderDetailSchema.extend(carrierNewsSchema.shape), currency: z.string() }),
  async handler(input, ctx) {
    const shopId = await resolveShopId(ctx, input.shop_id);
    const order = await resolveOrder(ctx.pos, shopId, input.order_id);
    const currency = orderCurrency([order]);
    if (input.detail === "full") return { order: upstreamRecord(order), currency };
    const tz = ctx.config.timezone;
    return { order: { ...orderDetail(order, tz, await orderNames(ctx.pos, shopId)), ...carrierNews(order, tz) }, currency };
  },
});
