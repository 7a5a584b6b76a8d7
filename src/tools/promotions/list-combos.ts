import { z } from "zod";
import { id, num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, limitInput, shopIdInput } from "../inputs.js";
import { listPage } from "../pos/list-page.js";
import { shopScope } from "../pos/shop-scope.js";

export const listCombos = defineTool({
  name: "list_combos",
  title: "List combos",
  description:
    "Product combos with discount, period and parts.",
  toolset: "promotions",
  annotations: READ,
  input: z.object({ shop_id: shopIdInput, limit: limitInput(100, 30), cursor: cursorInput }),
  output: z.object({ currency: z.string().optional(), total: z.number().optional(), combos: z.array(z.looseObject({ id: z.string(), name: z.string().optional() })), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    const page = await listPage(ctx, input, {
      tool: "list_combos",
      query: {},
      fetch: (params) => ctx.pos.listCombos(shopId, params),
      project: (c) => ({
        id: String(c.id),
        name: sanitizeName(c.name),
        custom_id: id(c.custom_id),
        discount_amount: num(c.discount_amount) || undefined,
        discount_percent: num(c.discount_by_percent) || undefined,
        value_combo: c.is_value_combo === true ? num(c.value_combo) : undefined,
        free_shipping: c.is_free_shipping === true ? true : undefined,
        start_time: recordTime(c.start_time, tz),
        end_time: recordTime(c.end_time, tz),
        variations: (Array.isArray(c.variations) ? c.variations : []).map((raw) => {
          const v = raw as Record<string, unknown>;
          return { variation_id: id(v.variation_id), product_id: id(v.product_id), count: num(v.count) };
        }),
      }),
    });
    return { currency, total: page.total, combos: page.rows, next_cursor: page.next_cursor };
  },
});
