import { statusName } from "../../clients/pos-codes.js";
import { z } from "zod";
import { id, num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, limitInput, shopIdInput } from "../inputs.js";
import { codeInput, optionalCode } from "../pos/codes.js";
import { listPage } from "../pos/list-page.js";
import { shopScope } from "../pos/shop-scope.js";
import { PURCHASE_STATUSES } from "./codes.js";
import { lineSummary } from "./stock-lines.js";

const row = z.looseObject({ id: z.string(), total_price: z.number().optional(), total_quantity: z.number().optional() });

export const listPurchases = defineTool({
  name: "list_purchases",
  title: "List purchases (stock-in slips)",
  description:
    "Purchase (stock-in) slips, newest first, with supplier and totals.",
  toolset: "inventory",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    status: codeInput(PURCHASE_STATUSES, "Purchase status"),
    limit: limitInput(100, 30),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({ currency: z.string().optional(), total: z.number().optional(), purchases: z.array(row), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const status = optionalCode(PURCHASE_STATUSES, "status", input.status);
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    const page = await listPage(ctx, input, {
      tool: "list_purchases",
      query: { status },
      fetch: (params) => ctx.pos.listPurchases(shopId, params),
      project: (p) => ({
        id: String(p.id),
        display_id: id(p.display_id),
        status: statusName(PURCHASE_STATUSES, p.status),
        supplier: sanitizeName(p.supplier?.name),
        warehouse_id: id(p.warehouse_id),
        total_price: num(p.total_price),
        total_quantity: num(p.total_quantity),
        item_count: lineSummary(p.items).item_count,
        received_at: recordTime(p.received_at, tz),
        inserted_at: recordTime(p.inserted_at, tz),
      }),
    });
    return { currency, total: page.total, purchases: page.rows, next_cursor: page.next_cursor };
  },
});
