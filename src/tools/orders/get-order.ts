import { z } from "zod";
import { carrierNews, carrierNewsSchema, orderCurrency, orderDetail, orderDetailSchema, upstreamRecord } from "../../format/orders.js";
import { defineTool, READ } from "../define.js";
import { detailInput, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { orderNames } from "../pos/shop-refs.js";
import { orderNumbers, orderRefInput, resolveOrder } from "./order-ref.js";

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
    const detail = orderDetail(order, tz, await orderNames(ctx.pos, shopId));
    // The exchange orders by number too: the order names them by id alone.
    const exchanged = detail.exchange_order_ids && (await orderNumbers(ctx.pos, shopId, detail.exchange_order_ids));
    const exchange_orders = exchanged?.size ? detail.exchange_order_ids!.map((i) => exchanged.get(i) ?? i) : undefined;
    return { order: { ...detail, exchange_orders, ...carrierNews(order, tz) }, currency };
  },
});
