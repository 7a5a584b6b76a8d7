import { z } from "zod";
import { id, num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, READ } from "../define.js";
import { shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";

const DISCOUNT_TYPES: Record<number, string> = { 2: "value", 3: "percent" };

export const listCustomerLevels = defineTool({
  name: "list_customer_levels",
  title: "List customer levels",
  description: "Customer levels: discount, upgrade thresholds.",
  toolset: "customers",
  annotations: READ,
  input: z.object({ shop_id: shopIdInput, search: z.string().max(80).optional().describe("Level name") }),
  output: z.object({ levels: z.array(z.looseObject({ id: z.string(), name: z.string().optional(), discount: z.number().optional() })) }),
  async handler(input, ctx) {
    const shopId = await resolveShopId(ctx, input.shop_id);
    const levels = await ctx.pos.listCustomerLevels(shopId, { search: input.search?.trim() || undefined });
    return {
      levels: levels.map((l) => ({
        id: String(l.id),
        name: sanitizeName(l.name),
        color: l.color_customer_level ?? undefined,
        discount: num(l.discount),
        discount_type: l.discount_type == null ? undefined : (DISCOUNT_TYPES[l.discount_type] ?? id(l.discount_type)),
        upgrade_by_order_count: num(l.upgrade_by_order_count),
        upgrade_by_point: num(l.upgrade_by_point),
        upgrade_by_total_purchase: num(l.upgrade_by_total_purchase),
      })),
    };
  },
});
