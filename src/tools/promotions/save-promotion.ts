import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { id } from "../../format/compact.js";
import { parseDateInput, toUnix } from "../../format/time.js";
import { defineTool, OVERWRITE } from "../define.js";
import { dateInput, idInput, jsonish, shopIdInput } from "../inputs.js";
import { nonEmpty } from "../pos/fields.js";
import { shopScope } from "../pos/shop-scope.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosPromotion } from "../../clients/schemas/pos.js";
import { fieldChecks, instant, notApplied, readBack, verifiedShape } from "../verify.js";

const TYPES = [
  "discount_by_product",
  "discount_by_order_price",
  "fixed_prices",
  "coupon",
  "double_reward_point",
  "discount_by_coupon_id",
  "discount_by_attachment_products",
] as const;

/** Pages of the promotion list read to find one by id (the POS has no read of one promotion). */
const READ_PAGES = 10;

async function promotionById(pos: PosClient, shopId: string, promotionId: string): Promise<PosPromotion> {
  for (let page = 1; page <= READ_PAGES; page++) {
    const list = await pos.listPromotions(shopId, { page, page_size: 100 });
    const found = list.data.find((p) => String(p.id) === promotionId);
    if (found) return found;
    if (list.data.length < 100) break;
  }
  throw new Error(`promotion ${promotionId} is not in the promotion list`);
}

export const savePromotion = defineTool({
  name: "save_promotion",
  title: "Create or update promotion",
  description:
    'Create a promotion (name, type) or update one (promotion_id; only given fields sent). Example: type "coupon", fields {promo_code_info: {discount: 10, is_percent: true}}.',
  toolset: "promotions",
  annotations: OVERWRITE,
  input: z.object({
    shop_id: shopIdInput,
    promotion_id: idInput("Omit to create").optional(),
    name: nonEmpty(200).optional().describe("Required to create"),
    type: z.enum(TYPES).optional().describe("Required to create"),
    is_activated: z.boolean().optional().describe("Active"),
    start_time: dateInput.optional().describe("Start"),
    end_time: dateInput.optional().describe("End"),
    fields: jsonish(z.record(z.string(), z.unknown()))
      .optional()
      .describe("Other fields: items, coupon_info, promo_code_info, warehouse_ids, customer_tags, order_sources, …"),
  }),
  output: z.object({ id: z.string().optional(), display_id: z.string().optional(), created: z.boolean(), ...verifiedShape }),
  confirm: (input) => ({
    action: input.promotion_id ? `Lưu thay đổi khuyến mãi ${input.promotion_id}?` : "Tạo khuyến mãi mới?",
    details: [
      ["Tên", input.name],
      ["Loại", input.type],
      ["Kích hoạt", input.is_activated === undefined ? undefined : input.is_activated ? "có" : "không"],
      ["Từ", input.start_time === undefined ? undefined : String(input.start_time)],
      ["Đến", input.end_time === undefined ? undefined : String(input.end_time)],
      ["Trường khác", input.fields ? Object.keys(input.fields).join(", ") : undefined],
    ],
  }),
  async handler(input, ctx) {
    const creating = input.promotion_id === undefined;
    if (creating && !input.name) throw new InputError("name", "is required to create a promotion", "Pass name, or promotion_id to update one.");
    if (creating && !input.type) throw new InputError("type", "is required to create a promotion", `Pass one of: ${TYPES.join(", ")}.`);
    const tz = ctx.config.timezone;
    const unix = (field: string, value: string | number | undefined) => (value === undefined ? undefined : toUnix(parseDateInput(field, value, tz)));
    const start = unix("start_time", input.start_time);
    const end = unix("end_time", input.end_time);
    if (start !== undefined && end !== undefined && end < start) throw new InputError("end_time", "is before start_time", "Give an end_time after start_time.");
    // The OpenAPI's create takes Unix seconds and its update ISO 8601 text: each gets its own.
    const when = (unixTime: number | undefined) => (unixTime === undefined || creating ? unixTime : new Date(unixTime * 1000).toISOString());
    const promotion = {
      ...input.fields,
      name: input.name,
      type: input.type,
      is_activated: input.is_activated,
      start_time: when(start),
      end_time: when(end),
    };
    const { shopId } = await shopScope(ctx, input.shop_id);
    const body = { promotion_advance: promotion };
    if (input.promotion_id === undefined) {
      const saved = await ctx.pos.createPromotion(shopId, body);
      return { id: id(saved.id), display_id: id(saved.display_id), created: true };
    }
    const promotionId = input.promotion_id;
    await ctx.pos.updatePromotion(shopId, promotionId, body);
    const back = await readBack("promotion change", () => promotionById(ctx.pos, shopId, promotionId));
    const sent = Object.fromEntries(Object.entries(promotion).filter(([, v]) => v !== undefined));
    return {
      id: promotionId,
      display_id: id(back.record?.display_id),
      created: false,
      // The update writes times as ISO text; the record may hold them otherwise.
      not_applied: back.record && notApplied(fieldChecks(sent, back.record as Record<string, unknown>, { start_time: instant, end_time: instant })),
      unverified: back.unverified,
    };
  },
});
