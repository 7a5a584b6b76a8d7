import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { orderCurrency, orderDetail, orderDetailSchema } from "../../format/orders.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { orderNames, warehouseId } from "../pos/shop-refs.js";
import { verifiedShape } from "../verify.js";
import { addressIds, addressMatchSchema } from "./address-names.js";
import { itemLines, orderBody, orderFields } from "./order-body.js";
import { nextNote, noteChange, requireLive, requireNew, writeOrder } from "./order-changes.js";
import { orderRefInput, resolveOrder } from "./order-ref.js";
import { itemsInput, resolveItems } from "./resolve-items.js";

export const updateOrder = defineTool({
  name: "update_order",
  title: "Update an order",
  description: 'Change an order; only given fields change. Example: status "confirmed". Several orders: update_orders (toolset orders).',
  toolset: "orders",
  annotations: OVERWRITE,
  input: z.object({
    shop_id: shopIdInput,
    order_id: orderRefInput,
    items: jsonish(itemsInput).optional().describe("Replace all lines (new orders only)"),
    ...orderFields,
    ...noteChange,
  }),
  output: z.object({
    order: orderDetailSchema.optional().describe("As read back after the change"),
    currency: z.string().optional(),
    address_match: addressMatchSchema.optional(),
    replaced_note: z.string().optional().describe("The staff note the new one replaced"),
    ...verifiedShape,
  }),
  async handler(input, ctx) {
    const { shop_id, order_id, items, add_note, reason, ...fields } = input;
    if (items === undefined && add_note === undefined && reason === undefined && Object.values(fields).every((v) => v === undefined)) {
      throw new InputError(undefined, "nothing to change", "Pass at least one field, e.g. status or note.");
    }
    const shopId = await resolveShopId(ctx, shop_id);
    const current = await resolveOrder(ctx.pos, shopId, order_id);
    requireLive(current);
    if (items) requireNew(current);
    const placed = await addressIds(ctx.pos, "shipping_address", fields.shipping_address);
    const body = orderBody({ ...fields, shipping_address: placed.address }, placed.form);
    if (fields.warehouse_id !== undefined) body.warehouse_id = await warehouseId(ctx.pos, shopId, "warehouse_id", fields.warehouse_id);
    if (items) body.items = itemLines(await resolveItems(ctx.pos, shopId, items));
    const note = nextNote(current.note, { note: fields.note, add_note, reason }, body.status as number | undefined);
    if (note.note !== undefined) body.note = note.note;
    // A new address replaces the old one whole: keep the receiver unless a new one is given.
    const address = body.shipping_address as Record<string, unknown> | undefined;
    if (address) {
      address.full_name ??= current.shipping_address?.full_name ?? current.bill_full_name ?? undefined;
      address.phone_number ??= current.shipping_address?.phone_number ?? current.bill_phone_number ?? undefined;
    }
    const written = await writeOrder(ctx.pos, shopId, String(current.id), body);
    const order = written.record;
    return {
      order: order && orderDetail(order, ctx.config.timezone, await orderNames(ctx.pos, shopId)),
      currency: order && orderCurrency([order]),
      address_match: placed.match,
      replaced_note: note.replaced,
      not_applied: written.not_applied,
      unverified: written.unverified,
    };
  },
});
