import { z } from "zod";
import { sanitizeText } from "../../format/text.js";
import { InputError } from "../../clients/errors.js";
import { orderCurrency, orderDetail, orderDetailSchema } from "../../format/orders.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { orderNames, warehouseId } from "../pos/shop-refs.js";
import { addressIds, addressMatchSchema } from "./address-names.js";
import { itemLines, orderBody, orderFields } from "./order-body.js";
import { orderRefInput, resolveOrder } from "./order-ref.js";
import { parseItems, resolveItems } from "./resolve-items.js";

export const updateOrder = defineTool({
  name: "update_order",
  title: "Update an order",
  description: 'Change an order; only given fields change. Example: status "confirmed".',
  toolset: "orders",
  annotations: OVERWRITE,
  input: z.object({
    shop_id: shopIdInput,
    order_id: orderRefInput,
    items: jsonish(z.array(z.unknown())).optional().describe("Replace all lines (as create_order)"),
    ...orderFields,
  }),
  output: z.object({
    order: orderDetailSchema,
    currency: z.string(),
    address_match: addressMatchSchema.optional(),
    replaced_note: z.string().optional().describe("The staff note the new one replaced"),
  }),
  async handler(input, ctx) {
    const { shop_id, order_id, items, ...fields } = input;
    if (items === undefined && Object.values(fields).every((v) => v === undefined)) {
      throw new InputError(undefined, "nothing to change", "Pass at least one field, e.g. status or note.");
    }
    const placed = await addressIds(ctx.pos, "shipping_address", fields.shipping_address);
    const body = orderBody({ ...fields, shipping_address: placed.address }, placed.form);
    const lines = items === undefined ? undefined : parseItems("items", items);
    const shopId = await resolveShopId(ctx, shop_id);
    if (fields.warehouse_id !== undefined) body.warehouse_id = await warehouseId(ctx.pos, shopId, "warehouse_id", fields.warehouse_id);
    if (lines) body.items = itemLines(await resolveItems(ctx.pos, shopId, lines));
    const current = await resolveOrder(ctx.pos, shopId, order_id);
    // A number can name a deleted order (get_order shows it): changing it is never what was meant.
    if ((current as { is_removed?: unknown }).is_removed === true) {
      throw new InputError("order_id", `order #${current.display_id ?? current.id} was deleted`, "Restore it in the POS first, or pick another order with search_orders.");
    }
    // A new address replaces the old one whole: keep the receiver unless a new one is given.
    const address = body.shipping_address as Record<string, unknown> | undefined;
    if (address) {
      address.full_name ??= current.shipping_address?.full_name ?? current.bill_full_name ?? undefined;
      address.phone_number ??= current.shipping_address?.phone_number ?? current.bill_phone_number ?? undefined;
    }
    const order = await ctx.pos.updateOrder(shopId, String(current.id), body);
    // `note` replaces the staff note (the POS keeps one): the old text is given back so nothing
    // the staff wrote is lost unseen; add_customer_note adds a note beside it instead.
    const before = current.note?.trim();
    return {
      order: orderDetail(order, ctx.config.timezone, await orderNames(ctx.pos, shopId)),
      currency: orderCurrency([order]),
      address_match: placed.match,
      replaced_note: fields.note !== undefined && before && before !== fields.note.trim() ? sanitizeText(before, { max: 500 }) : undefined,
    };
  },
});
