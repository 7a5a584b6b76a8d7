import { z } from "zod";
import { id, num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, limitInput, shopIdInput } from "../inputs.js";
import { listPage } from "../pos/list-page.js";
import { shopScope } from "../pos/shop-scope.js";

function discountOf(value: unknown): { discount?: number; is_percent?: boolean } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const info = value as { discount?: unknown; is_percent?: unknown };
  return { discount: num(info.discount), is_percent: typeof info.is_percent === "boolean" ? info.is_percent : undefined };
}

export const listPromotions = defineTool({
  name: "list_promotions",
  title: "List promotions",
  description:
    "Advanced promotions with type, period and discount. No API reads one by id: search by name.",
  toolset: "promotions",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    search: z.string().trim().min(1).max(100).optional().describe("Text in the name"),
    limit: limitInput(100, 30),
    cursor: cursorInput,
  }),
  output: z.object({ currency: z.string().optional(), total: z.number().optional(), promotions: z.array(z.looseObject({ id: z.string(), name: z.string().optional() })), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    const page = await listPage(ctx, input, {
      tool: "list_promotions",
      query: { textSearch: input.search },
      fetch: (params) => ctx.pos.listPromotions(shopId, params),
      project: (p) => ({
        id: String(p.id),
        display_id: id(p.display_id),
        name: sanitizeName(p.name),
        type: p.type ?? undefined,
        active: p.is_activated ?? undefined,
        free_shipping: typeof p.is_free_shipping === "boolean" ? p.is_free_shipping : undefined,
        discount: discountOf(p.promo_code_info) ?? discountOf(p.coupon_info),
        priority: num(p.priority_level),
        start_time: recordTime(p.start_time, tz),
        end_time: recordTime(p.end_time, tz),
      }),
    });
    return { currency, total: page.total, promotions: page.rows, next_cursor: page.next_cursor };
  },
});
