import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { RETURN_ORDER_STATUSES, requireStatus } from "../../clients/pos-codes.js";
import type { PosOrder, PosOrderItem } from "../../clients/schemas/pos.js";
import { num } from "../../format/compact.js";
import { returnOrderRow, returnOrderRowSchema } from "../../format/orders.js";
import { fold } from "../../text/fold.js";
import { sanitizeName } from "../../text/sanitize.js";
import { CREATE, defineTool } from "../define.js";
import { idInput, jsonish, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { linesText } from "../confirm.js";
import { warehouseRef } from "../pos/shop-refs.js";
import { planned } from "../pos/plan.js";
import { orderRefInput, resolveOrder } from "./order-ref.js";
import { itemInput, namedLines, quantityInput, resolveItems, variationInfo } from "./resolve-items.js";

const returnItem = z.object({
  variation_id: idInput().optional(),
  product: z.string().max(200).optional(),
  quantity: quantityInput,
});

/** The line of the original order an item names, with room for the returned quantity. */
function originalLine(order: PosOrder, item: z.infer<typeof returnItem>, where: string): PosOrderItem {
  const lines = order.items ?? [];
  const text = item.variation_id ?? item.product?.trim();
  if (!text) throw new InputError(`${where}.variation_id`, "is required (or product)", "Use get_order to see the order lines.");
  const key = fold(text);
  const exact = lines.filter((l) => [l.variation_id, l.variation_info?.display_id, l.variation_info?.barcode].some((k) => k != null && fold(String(k)) === key));
  const found = exact.length ? exact : item.variation_id ? [] : lines.filter((l) => fold(l.variation_info?.name ?? "").includes(key));
  if (found.length !== 1) {
    const listed = lines.map((l) => `${l.variation_id} (${l.variation_info?.name ?? ""} ${l.variation_info?.detail ?? ""})`).join("; ");
    const problem = found.length === 0 ? `is not a line of order ${order.id}` : `matches ${found.length} lines`;
    throw new InputError(`${where}.${item.variation_id ? "variation_id" : "product"}`, problem, `Lines of the order: ${listed}.`);
  }
  const line = found[0]!;
  const left = (line.quantity ?? 0) - (line.returned_count ?? 0);
  if (item.quantity > left) throw new InputError(`${where}.quantity`, `only ${left} unit(s) of this line can still be returned`);
  return line;
}

type Info = { name?: string | null; retail_price?: number | null; detail?: string | null; fields?: unknown; weight?: number | null };

/**
 * The variation_info of a return line as the OpenAPI takes it (name, retail_price, detail and
 * fields of id/name/value; exchange lines also weight): an order line's info carries more keys.
 */
function lineInfo(info: Info | undefined, withWeight: boolean) {
  const fields = Array.isArray(info?.fields)
    ? (info.fields as Record<string, unknown>[]).map(({ id, name, value }) => ({ id, name, value }))
    : undefined;
  return {
    name: info?.name ?? "",
    retail_price: info?.retail_price ?? 0,
    detail: info?.detail ?? undefined,
    fields,
    ...(withWeight && typeof info?.weight === "number" ? { weight: info.weight } : {}),
  };
}

const input = z.object({
  shop_id: shopIdInput,
  order_id: orderRefInput,
  items: jsonish(z.array(returnItem).min(1).max(100)).describe("Order lines returned"),
  warehouse_id: z.string().max(120).describe("Receiving warehouse id or name"),
  status: z.union([z.string().max(40), z.number().int()]).default("new").describe("new, shipped, completed or cancelled"),
  exchange_items: jsonish(z.array(itemInput).max(100)).optional().describe("Exchange lines"),
  discount_from_order_to_returned: z.number().int().min(0).optional().describe("Discount carried over"),
  received_at_shop: z.boolean().optional().describe("At the counter"),
  note: z.string().max(2000).optional().describe("Exchange order note"),
});

/** The order, its lines, the warehouse and the exchange lines resolved before the user is asked. */
const plan = planned(async (args: z.output<typeof input>, ctx) => {
  const status = requireStatus("status", RETURN_ORDER_STATUSES, args.status);
  const exchangeItems = args.exchange_items ?? [];
  const shopId = await resolveShopId(ctx, args.shop_id);
  const warehouse = await warehouseRef(ctx.pos, shopId, "warehouse_id", args.warehouse_id);
  const original = await resolveOrder(ctx.pos, shopId, args.order_id);
  const lines = args.items.map((item, i) => ({ item, line: originalLine(original, item, `items[${i}]`) }));
  const exchange = exchangeItems.length ? await resolveItems(ctx.pos, shopId, exchangeItems, "exchange_items") : [];
  return { shopId, status, warehouse, original, lines, exchange };
});

export const createReturnOrder = defineTool({
  name: "create_return_order",
  title: "Create a return order",
  description:
    "Return an order's lines into a warehouse, optionally with an exchange order.",
  toolset: "orders",
  annotations: CREATE,
  input,
  output: z.object({ id: z.string().optional(), return_order: returnOrderRowSchema.optional() }),
  async confirm(input, ctx) {
    const { original, lines, warehouse, exchange } = await plan(input, ctx);
    const returned = lines.map(({ item, line }) => ({
      product: sanitizeName(line.variation_info?.name) ?? String(line.variation_id),
      variant: sanitizeName(line.variation_info?.detail),
      quantity: item.quantity,
    }));
    return {
      action: `Tạo đơn trả hàng cho đơn #${original.display_id ?? "?"} (id ${original.id})?`,
      details: [
        ["Trả lại", linesText(returned)],
        ["Kho nhận", warehouse.name],
        ["Đổi sang", exchange.length ? linesText(namedLines(exchange)) : undefined],
        ["Giảm giá chuyển sang", input.discount_from_order_to_returned],
        ["Ghi chú", input.note],
      ],
    };
  },
  async handler(input, ctx) {
    const { shopId, status, original, lines, warehouse: { id: warehouse }, exchange } = await plan(input, ctx);
    const customerId = (original as Record<string, unknown>).shop_customer_id ?? undefined;
    const created = await ctx.pos.createReturnOrder(shopId, {
      order_to_returned: { id: String(original.id) },
      returned_items: lines.map(({ item, line }) => ({
        product_id: line.product_id,
        variation_id: line.variation_id,
        returned_quantity: item.quantity,
        variation_info: lineInfo(line.variation_info as Info | undefined, false),
      })),
      order_additional: {
        items: exchange.map(({ input: it, variation }) => ({
          product_id: variation.product_id == null ? undefined : String(variation.product_id),
          variation_id: String(variation.id),
          returned_quantity: it.quantity,
          discount_each_product: it.discount_each ?? 0,
          variation_info: lineInfo({ ...variationInfo(variation, it.price), weight: num(variation.weight) }, true),
        })),
        warehouse_id: warehouse,
        shop_customer_id: customerId,
        note: input.note,
        // The OpenAPI has received_at_shop on the exchange order only.
        received_at_shop: input.received_at_shop,
      },
      warehouse_id: warehouse,
      status,
      shop_customer_id: customerId,
      discount_from_order_to_returned: input.discount_from_order_to_returned,
    });
    const row = returnOrderRow(created, ctx.config.timezone);
    return { id: row.id, return_order: row };
  },
});
