import { z } from "zod";
import { orderCurrency, orderRow, orderRowSchema } from "../../format/orders.js";
import { CREATE, defineTool } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { customerId } from "../pos/customer-ref.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { warehouseId } from "../pos/shop-refs.js";
import { addressIds, addressMatchSchema } from "./address-names.js";
import { itemLines, orderBody, orderFields } from "./order-body.js";
import { itemsInput, resolveItems } from "./resolve-items.js";
import { formatMoney } from "../../format/money.js";
import { linesText } from "../confirm.js";
import { shopScope } from "../pos/shop-scope.js";

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
    customer_id: z.string().max(120).optional().describe("Customer id, phone or name"),
  }),
  output: z.object({ id: z.string(), order: orderRowSchema, currency: z.string(), address_match: addressMatchSchema.optional() }),
  async confirm(input, ctx) {
    const { currency } = await shopScope(ctx, input.shop_id);
    const money = (n: number | undefined) => (n === undefined ? undefined : formatMoney(n, currency));
    return {
      action: "Tạo đơn hàng này?",
      details: [
        ["Người nhận", input.customer_name],
        ["Điện thoại", input.phone],
        ["Địa chỉ", input.shipping_address?.address],
        ["Sản phẩm", linesText(input.items)],
        ["Phí vận chuyển", money(input.shipping_fee)],
        ["Giảm giá", money(input.total_discount)],
        ["Ghi chú", input.note],
      ],
    };
  },
  async handler(input, ctx) {
    const { shop_id, items, customer_id, ...fields } = input;
    const placed = await addressIds(ctx.pos, "shipping_address", fields.shipping_address);
    const body = orderBody({ ...fields, shipping_address: placed.address });
    const shopId = await resolveShopId(ctx, shop_id);
    // The OpenAPI links an order to its customer as customer.id (it has no shop_customer_id).
    if (customer_id !== undefined) body.customer = { id: await customerId(ctx.pos, shopId, "customer_id", customer_id) };
    if (fields.warehouse_id !== undefined) body.warehouse_id = await warehouseId(ctx.pos, shopId, "warehouse_id", fields.warehouse_id);
    body.items = itemLines(await resolveItems(ctx.pos, shopId, items));
    const order = await ctx.pos.createOrder(shopId, { ...body, shop_id: Number(shopId) || shopId });
    return { id: String(order.id), order: orderRow(order, ctx.config.timezone), currency: orderCurrency([order]), address_match: placed.match };
  },
});
