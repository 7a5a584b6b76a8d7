import { z } from "zod";
import { id } from "../../format/compact.js";
import { carrierUpdate, orderNumber, orderStatusName } from "../../format/orders.js";
import { recordTime } from "../../format/time.js";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, READ } from "../define.js";
import { shopIdInput } from "../inputs.js";
import { orderRefInput, resolveOrder } from "../orders/order-ref.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { carriers } from "../pos/shop-refs.js";

export const trackOrder = defineTool({
  name: "track_order",
  title: "Track an order's parcel",
  description: "Where an order's parcel is: carrier, tracking code, carrier updates, dates, order link.",
  toolset: "fulfillment",
  annotations: READ,
  input: z.object({ shop_id: shopIdInput, order_id: orderRefInput }),
  output: z.object({
    order_id: z.string(),
    number: z.string().optional(),
    status_name: z.string().optional(),
    carrier: z.string().optional(),
    tracking_code: z.string().optional(),
    updates: z.array(z.looseObject({ at: z.string().optional(), status: z.string().optional() })),
    link: z.string().optional(),
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const shopId = await resolveShopId(ctx, input.shop_id);
    const order = await resolveOrder(ctx.pos, shopId, input.order_id);
    const partner = (order.partner ?? {}) as Record<string, unknown>;
    const carrierId = id(partner.partner_id);
    const names = carrierId ? await carriers(ctx.pos, shopId).catch(() => []) : [];
    // The order's own link (its record carries it). The get_tracking_url operation would make
    // this a POST, a write a read-only server must not send (call_api_write can, when asked).
    const link = typeof order.tracking_link === "string" && /^https:\/\//.test(order.tracking_link) ? order.tracking_link : undefined;
    const updates: unknown[] = Array.isArray(partner.extend_update) ? partner.extend_update : [];
    return {
      order_id: String(order.id),
      number: orderNumber(order.display_id),
      status_name: orderStatusName(order.status),
      carrier: sanitizeName(partner.partner_name) ?? names.find((c) => c.id === carrierId)?.name ?? carrierId,
      tracking_code: sanitizeName(partner.extend_code),
      carrier_status: sanitizeName(partner.partner_status),
      sent_to_carrier_at: recordTime(order.partner_inserted_at, tz),
      picked_up_at: recordTime(partner.picked_up_at, tz),
      first_delivery_at: recordTime(partner.first_delivery_at, tz),
      estimated_delivery: recordTime(order.estimate_delivery_date, tz),
      paid_at: recordTime(partner.paid_at, tz),
      returned: partner.is_returned === true || undefined,
      updates: updates.map((u) => carrierUpdate(u, tz)),
      link,
    };
  },
});
