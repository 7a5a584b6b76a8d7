import { statusName } from "../../clients/pos-codes.js";
import { z } from "zod";
import { id, num } from "../../format/compact.js";
import { sanitizeText } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, limitInput, shopIdInput, sinceInput, untilInput } from "../inputs.js";
import { codeInput, optionalCode } from "../pos/codes.js";
import { listPage } from "../pos/list-page.js";
import { unixRange } from "../pos/open-range.js";
import { shopScope } from "../pos/shop-scope.js";
import { TRANSFER_STATUSES } from "./codes.js";
import { lineSummary } from "./stock-lines.js";

export const listStockTransfers = defineTool({
  name: "list_stock_transfers",
  title: "List stock transfers",
  description:
    "Warehouse transfers, newest first (no status: the service's default filter).",
  toolset: "inventory",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    status: codeInput(TRANSFER_STATUSES, "Transfer status"),
    since: sinceInput,
    until: untilInput,
    limit: limitInput(100, 30),
    cursor: cursorInput,
  }),
  output: z.object({ currency: z.string().optional(), total: z.number().optional(), transfers: z.array(z.looseObject({ id: z.string() })), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const status = optionalCode(TRANSFER_STATUSES, "status", input.status);
    const range = unixRange(input.since, input.until, ctx.config.timezone);
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    const page = await listPage(ctx, input, {
      tool: "list_stock_transfers",
      query: { status, startDate: range.from, endDate: range.to },
      fetch: (params) => ctx.pos.listTransfers(shopId, params),
      project: (t) => ({
        id: String(t.id),
        display_id: id(t.display_id),
        status: statusName(TRANSFER_STATUSES, t.status),
        from_warehouse_id: id(t.from_warehouse_id),
        to_warehouse_id: id(t.to_warehouse_id),
        ...lineSummary(t.items),
        shipping_fee: num(t.shipping_fee),
        note: sanitizeText(t.note, { max: 300 }),
        inserted_at: recordTime(t.inserted_at, tz),
      }),
    });
    return { currency, total: page.total, transfers: page.rows, next_cursor: page.next_cursor };
  },
});
