import { statusName } from "../../clients/pos-codes.js";
import { z } from "zod";
import { id } from "../../format/compact.js";
import { sanitizeText } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, limitInput, shopIdInput } from "../inputs.js";
import { codeInput, optionalCode } from "../pos/codes.js";
import { listPage } from "../pos/list-page.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { EXPORT_STATUSES, EXPORT_TYPES } from "./codes.js";
import { lineSummary } from "./stock-lines.js";

export const listStockExports = defineTool({
  name: "list_stock_exports",
  title: "List stock exports",
  description:
    "Stock export slips, newest first.",
  toolset: "inventory",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    status: codeInput(EXPORT_STATUSES, "Export status"),
    type: codeInput(EXPORT_TYPES, "Export type"),
    limit: limitInput(100, 30),
    cursor: cursorInput,
  }),
  output: z.object({ total: z.number().optional(), exports: z.array(z.looseObject({ id: z.string() })), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const status = optionalCode(EXPORT_STATUSES, "status", input.status);
    const type = optionalCode(EXPORT_TYPES, "type", input.type);
    const shopId = await resolveShopId(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    const page = await listPage(ctx, input, {
      tool: "list_stock_exports",
      query: { status, type },
      fetch: (params) => ctx.pos.listStockExports(shopId, params),
      project: (e) => ({
        id: String(e.id),
        display_id: id(e.display_id),
        status: statusName(EXPORT_STATUSES, e.status),
        type: statusName(EXPORT_TYPES, e.type),
        warehouse_id: id(e.warehouse_id),
        supplier_id: id(e.supplier_products_id),
        note: sanitizeText(e.note, { max: 300 }),
        ...lineSummary(e.export_items),
        inserted_at: recordTime(e.inserted_at, tz),
      }),
    });
    return { total: page.total, exports: page.rows, next_cursor: page.next_cursor };
  },
});
