import { requireStatus, statusName } from "../../clients/pos-codes.js";
import { z } from "zod";
import { id } from "../../format/compact.js";
import { parseDateInput, toUnix } from "../../format/time.js";
import { CREATE, defineTool } from "../define.js";
import { dateInput, jsonish, shopIdInput } from "../inputs.js";
import { optionalCode } from "../pos/codes.js";
import { nonEmpty, someOf } from "../pos/fields.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { EXPORT_STATUSES, EXPORT_TYPES, settable } from "./codes.js";
import { pricedLine, stockLines } from "./stock-lines.js";
import { warehouseId } from "../pos/shop-refs.js";

const STATES = settable(EXPORT_STATUSES);

export const createStockExport = defineTool({
  name: "create_stock_export",
  title: "Create stock export",
  description:
    "Take goods out of a warehouse, e.g. defective goods back to a supplier.",
  toolset: "inventory",
  annotations: CREATE,
  input: z.object({
    shop_id: shopIdInput,
    warehouse_id: nonEmpty(120).describe("Source warehouse (id or name)"),
    status: z.union([z.string().max(40), z.number().int()]).describe(STATES.map((r) => r.name).join(", ")),
    items: jsonish(someOf(pricedLine, 200)).describe("Lines"),
    type: z.union([z.string().max(40), z.number().int()]).optional().describe("normal (default) or defective"),
    note: z.string().max(2000).optional().describe("Note"),
    supplier_products_id: z.number().int().optional().describe("Supplier id"),
    inserted_at: dateInput.optional().describe("Back-date"),
  }),
  output: z.object({ id: z.string().optional(), display_id: z.string().optional(), status: z.string().optional() }),
  async handler(input, ctx) {
    const status = requireStatus("status", STATES, input.status);
    const type = optionalCode(EXPORT_TYPES, "type", input.type);
    const at = input.inserted_at === undefined ? undefined : toUnix(parseDateInput("inserted_at", input.inserted_at, ctx.config.timezone));
    const shopId = await resolveShopId(ctx, input.shop_id);
    const warehouse = await warehouseId(ctx.pos, shopId, "warehouse_id", input.warehouse_id);
    const items = await stockLines(ctx.pos, shopId, "items", input.items);
    const created = await ctx.pos.createStockExport(shopId, {
      export_list: {
        warehouse_id: warehouse,
        status,
        type,
        note: input.note,
        supplier_products_id: input.supplier_products_id,
        export_items: items,
        inserted_at: at,
        change_inserted_at: at === undefined ? undefined : true,
      },
    });
    return { id: id(created.id), display_id: id(created.display_id), status: statusName(EXPORT_STATUSES, created.status ?? status) };
  },
});
