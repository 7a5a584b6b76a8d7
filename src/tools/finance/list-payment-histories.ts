import { z } from "zod";
import { id, num } from "../../format/compact.js";
import { orderNumber } from "../../format/orders.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, limitInput, shopIdInput, sinceInput, untilInput } from "../inputs.js";
import { listPage } from "../pos/list-page.js";
import { unixRange } from "../pos/open-range.js";
import { shopScope } from "../pos/shop-scope.js";

const row = z.looseObject({ id: z.string(), amount: z.number().optional() });

export const listPaymentHistories = defineTool({
  name: "list_payment_histories",
  title: "List payment histories",
  description:
    "Payments into the shop's bank/QR accounts with their orders: did a transfer arrive?",
  toolset: "finance",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    since: sinceInput,
    until: untilInput,
    limit: limitInput(100, 30),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({ currency: z.string().optional(), total: z.number().optional(), payments: z.array(row), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const range = unixRange(input.since, input.until, ctx.config.timezone);
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    const page = await listPage(ctx, input, {
      tool: "list_payment_histories",
      query: { startDate: range.from, endDate: range.to },
      fetch: (params) => ctx.pos.listPaymentHistories(shopId, params),
      project: (h) => {
        const order = h.order ?? {};
        return {
          id: String(h.id),
          amount: num(h.amount),
          date: recordTime(h.date, tz),
          type: h.type ?? undefined,
          result_code: h.result_code ?? undefined,
          trans_id: h.trans_id ?? undefined,
          payer_content: sanitizeText(h.payment_content, { max: 300 }),
          order: orderNumber(order.display_id),
          order_id: id(order.id),
          customer_name: sanitizeName(order.name),
        };
      },
    });
    return { currency, total: page.total, payments: page.rows, next_cursor: page.next_cursor };
  },
});
