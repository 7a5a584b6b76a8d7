import { z } from "zod";
import { orderCurrency, orderRow, orderRowSchema } from "../../format/orders.js";
import { formatMoney } from "../../format/money.js";
import { linesText } from "../confirm.js";
import { CREATE, defineTool } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { customerId } from "../pos/customer-ref.js";
import { planned } from "../pos/plan.js";
import { warehouseId } from "../pos/shop-refs.js";
import { shopScope } from "../pos/shop-scope.js";
import { addressIds, addressMatchSchema, addressText } from "./address-names.js";
import { itemLines, orderBody, orderFields } from "./order-body.js";
import { itemsInput, namedLines, resolveItems } from "./resolve-items.js";

const input = z.object({
  shop_id: shopIdInput,
  items: jsonish(itemsInput).describe("Lines: variation_id, or product (name/SKU/barcode) + variant words"),
  ...orderFields,
  customer_id: z.string().max(120).optional().describe("Customer id, phone or name"),
});

/** Every name of the order resolved, before the user is asked and before anything is written. */
const plan = planned(async (args: z.output<typeof input>, ctx) => {
  const { shop_id, items, customer_id, ...fields } = args;
  const { shopId, currency } = await shopScope(ctx, shop_id);
  const placed = await addressIds(ctx.pos, "shipping_address", fields.shipping_address);
  const body = orderBody({ ...fields, shipping_address: placed.address });
  // The OpenAPI links an order to its customer as customer.id (it has no shop_customer_id).
  if (customer_id !== undefined) body.customer = { id: await customerId(ctx.pos, shopId, "customer_id", customer_id) };
  if (fields.warehouse_id !== undefined) body.warehouse_id = await warehouseId(ctx.pos, shopId, "warehouse_id", fields.warehouse_id);
  const lines = await resolveItems(ctx.pos, shopId, items);
  body.items = itemLines(lines);
  return { shopId, currency, body, lines, placed };
});

export const createOrder = defineTool({
  name: "create_order",
  title: "Create an order",
  description:
    'Create a sales order. Example: items [{product: "AT001-TR-S", quantity: 2}], phone "0912345678", shipping_address {address, commune_id}.',
  toolset: "orders",
  annotations: CREATE,
  input,
  output: z.object({ id: z.string(), order: orderRowSchema, currency: z.string(), address_match: addressMatchSchema.optional() }),
  async confirm(args, ctx) {
    const { currency, lines, placed } = await plan(args, ctx);
    const money = (n: number | undefined) => (n === undefined ? undefined : formatMoney(n, currency));
    return {
      action: "Tạo đơn hàng này?",
      details: [
        ["Người nhận", args.customer_name],
        ["Điện thoại", args.phone],
        ["Địa chỉ", addressText(placed)],
        ["Sản phẩm", linesText(namedLines(lines))],
        ["Phí vận chuyển", money(args.shipping_fee)],
        ["Giảm giá", money(args.total_discount)],
        ["Ghi chú", args.note],
      ],
    };
  },
  async handler(args, ctx) {
    const { shopId, body, placed } = await plan(args, ctx);
    const order = await ctx.pos.createOrder(shopId, { ...body, shop_id: Number(shopId) || shopId });
    return { id: String(order.id), order: orderRow(order, ctx.config.timezone), currency: orderCurrency([order]), address_match: placed.match };
  },
});
