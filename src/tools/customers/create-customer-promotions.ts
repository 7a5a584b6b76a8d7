import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { id } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { CREATE, defineTool } from "../define.js";
import { jsonish, shopIdInput, sinceInput, untilInput } from "../inputs.js";
import { openRange } from "../pos/open-range.js";
import { formatMoney } from "../../format/money.js";
import { shopScope } from "../pos/shop-scope.js";
import { customerIds } from "../pos/customer-ref.js";
import { planned } from "../pos/plan.js";

const input = z.object({
  shop_id: shopIdInput,
  customer_ids: z.array(z.string().min(1).max(120)).min(1).max(500).describe("Customer ids, phones or names"),
  type: z.string().min(1).max(60).describe("coupon, discount_by_product or discount_by_coupon_id"),
  discount: z.number().int().positive().describe("Amount, or percent when is_percent"),
  is_percent: z.boolean().describe("discount in %"),
  max_discount_by_percent: z.number().int().positive().optional().describe("Cap"),
  order_price_min: z.number().int().min(0).optional().describe("Min order value"),
  since: sinceInput,
  until: untilInput,
  is_activated: z.boolean().default(true).describe("Active at once"),
  extra: jsonish(z.record(z.string(), z.unknown()))
    .optional()
    .describe("Other fields (warehouse_ids, customer_tags, order_price_max)"),
});

/** The period and the customers checked before the user is asked how many will get it. */
const plan = planned(async (args: z.output<typeof input>, ctx) => {
  if (args.is_percent && args.discount > 100) throw new InputError("discount", "a percent discount is at most 100");
  const { since: start, until: end } = openRange(args.since, args.until, ctx.config.timezone);
  const { shopId, currency } = await shopScope(ctx, args.shop_id);
  // A promotion given to an id that is no customer of the shop reaches nobody, and says nothing.
  const customers = [...new Set(await customerIds(ctx.pos, shopId, "customer_ids", args.customer_ids))];
  return { shopId, currency, customers, start, end };
});

export const createCustomerPromotions = defineTool({
  name: "create_customer_promotions",
  title: "Create customer promotions",
  description:
    'Give customers a promotion-code discount for a period. Example: type "coupon", discount 10, is_percent true.',
  toolset: "customers",
  annotations: CREATE,
  input,
  output: z.object({ id: z.string().optional(), name: z.string().optional(), customer_count: z.number() }),
  async confirm(input, ctx) {
    const { currency, customers } = await plan(input, ctx);
    return {
      action: `Tạo ưu đãi cho ${customers.length} khách hàng?`,
      details: [
        ["Loại", input.type],
        ["Giảm", input.is_percent ? `${input.discount}%` : formatMoney(input.discount, currency)],
        ["Giảm tối đa", input.max_discount_by_percent === undefined ? undefined : formatMoney(input.max_discount_by_percent, currency)],
        ["Đơn tối thiểu", input.order_price_min === undefined ? undefined : formatMoney(input.order_price_min, currency)],
        ["Từ", input.since === undefined ? undefined : String(input.since)],
        ["Đến", input.until === undefined ? undefined : String(input.until)],
        ["Kích hoạt ngay", input.is_activated ? "có" : "không"],
      ],
    };
  },
  async handler(input, ctx) {
    const { shopId, customers, start, end } = await plan(input, ctx);
    const created = await ctx.pos.createCustomerPromotions(shopId, {
      promotion_advance: {
        promotion: {
          type: input.type,
          is_activated: input.is_activated,
          start_time: start?.toISOString(),
          end_time: end?.toISOString(),
          ...input.extra,
          promo_code_info: {
            discount: input.discount,
            is_percent: input.is_percent,
            max_discount_by_percent: input.max_discount_by_percent,
            order_price_min: input.order_price_min,
            order_price_max: input.extra?.order_price_max,
          },
        },
        shop_customer_ids: customers,
      },
    });
    return { id: id(created.id), name: sanitizeName(created.name), customer_count: customers.length };
  },
});
