import { z } from "zod";
import { PAYMENT_TYPES, TRANSACTION_STATUSES, statusName } from "../../clients/pos-codes.js";
import { id, num } from "../../format/compact.js";
import { orderNumber } from "../../format/orders.js";
import { parseDateInput } from "../../format/time.js";
import { CREATE, defineTool } from "../define.js";
import { dateInput, jsonish, shopIdInput } from "../inputs.js";
import { nonEmpty } from "../pos/fields.js";
import { shopScope } from "../pos/shop-scope.js";
import { formatMoney } from "../../format/money.js";
import { orderRefInput, resolveOrder } from "../orders/order-ref.js";
import { planned } from "../pos/plan.js";

const input = z.object({
  shop_id: shopIdInput,
  name: nonEmpty(200).describe("Purpose"),
  amount: z.number().int().describe("> 0 income, < 0 expense"),
  note: z.string().max(2000).optional().describe("Note"),
  payments: jsonish(z.array(z.enum(PAYMENT_TYPES)).max(8)).optional().describe("Payment methods"),
  time_incurred: dateInput.optional().describe("Date; default now"),
  order_id: orderRefInput.optional(),
  fields: jsonish(
    z.object({
      tag_ids: z.array(z.string().max(64)).max(20).optional(),
      supplier_products_id: z.number().int().optional(),
      payment_debts_to_suppliers: z.boolean().optional(),
      is_accounting: z.boolean().optional(),
      is_locked: z.boolean().optional(),
      images: z.array(z.string().max(500)).max(10).optional(),
    }),
  )
    .optional()
    .describe("Other fields"),
});

/** The date and the order checked before the user is asked: the transaction is booked against them. */
const plan = planned(async (args: z.output<typeof input>, ctx) => {
  const when = args.time_incurred === undefined ? undefined : parseDateInput("time_incurred", args.time_incurred, ctx.config.timezone);
  const { shopId, currency } = await shopScope(ctx, args.shop_id);
  // A transaction tied to an order that does not exist, or to the wrong one of an id and a
  // number, would be booked against it all the same.
  const order = args.order_id === undefined ? undefined : await resolveOrder(ctx.pos, shopId, args.order_id);
  return { shopId, currency, when, order };
});

export const createTransaction = defineTool({
  name: "create_transaction",
  title: "Create income/expense transaction",
  description:
    'Record income or an expense in the cash book. Example: name "Tiền điện", amount -1200000, payments ["cash"].',
  toolset: "finance",
  annotations: CREATE,
  input,
  output: z.object({ id: z.string().optional(), display_id: z.string().optional(), amount: z.number().optional(), status: z.string().optional(), order: z.string().optional(), currency: z.string().optional() }),
  async confirm(input, ctx) {
    const { currency, order } = await plan(input, ctx);
    return {
      action: input.amount < 0 ? "Ghi phiếu chi này?" : "Ghi phiếu thu này?",
      details: [
        ["Nội dung", input.name],
        ["Số tiền", formatMoney(Math.abs(input.amount), currency)],
        ["Hình thức", input.payments?.join(", ")],
        ["Đơn hàng", order && `#${order.display_id ?? "?"} (id ${order.id})`],
        ["Ngày", input.time_incurred === undefined ? undefined : String(input.time_incurred)],
        ["Ghi chú", input.note],
      ],
    };
  },
  async handler(input, ctx) {
    const { shop_id: _shop, order_id: _order, time_incurred: _time, fields: more, ...fields } = input;
    const { shopId, currency, order, when } = await plan(input, ctx);
    const created = await ctx.pos.createTransaction(shopId, {
      ...more,
      ...fields,
      // The service reads write times as UTC (its examples end in Z).
      time_incurred: when?.toISOString(),
      orderId: order && String(order.id),
    });
    return {
      id: id(created.id),
      display_id: id(created.display_id),
      amount: num(created.amount) ?? input.amount,
      status: statusName(TRANSACTION_STATUSES, created.status),
      order: order && orderNumber(order.display_id),
      currency,
    };
  },
});
