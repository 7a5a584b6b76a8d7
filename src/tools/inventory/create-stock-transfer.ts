import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { id } from "../../format/compact.js";
import { parseDateInput } from "../../format/time.js";
import { CREATE, defineTool } from "../define.js";
import { dateInput, jsonish, shopIdInput } from "../inputs.js";
import { nonEmpty, someOf } from "../pos/fields.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { quantityLine } from "./stock-lines.js";

const warehouseId = nonEmpty(64);

export const createStockTransfer = defineTool({
  name: "create_stock_transfer",
  title: "Create stock transfer",
  description:
    "Move goods between warehouses, one transfer per target warehouse.",
  toolset: "inventory",
  annotations: CREATE,
  input: z.object({
    shop_id: shopIdInput,
    from_warehouse_id: warehouseId.describe("Source warehouse"),
    to_warehouse_ids: jsonish(someOf(warehouseId, 20)).describe("Target warehouses"),
    items: jsonish(someOf(quantityLine, 200)).describe("Lines: variation_id, quantity"),
    shipping_fee: z.number().int().optional().describe("Shipping fee"),
    note: z.string().max(2000).optional().describe("Note"),
    inserted_at: dateInput.optional().describe("Default now"),
  }),
  output: z.object({ transfers: z.array(z.object({ id: z.string().optional(), display_id: z.string().optional(), to_warehouse_id: z.string().optional() })) }),
  async handler(input, ctx) {
    if (input.to_warehouse_ids.includes(input.from_warehouse_id)) {
      throw new InputError("to_warehouse_ids", "contains the source warehouse", "Transfer to warehouses other than from_warehouse_id.");
    }
    const tz = ctx.config.timezone;
    // The service reads write times as UTC.
    const at = input.inserted_at === undefined ? undefined : parseDateInput("inserted_at", input.inserted_at, tz).toISOString();
    const shopId = await resolveShopId(ctx, input.shop_id);
    const created = await ctx.pos.createTransfers(shopId, {
      transfer: {
        from_warehouse_id: input.from_warehouse_id,
        to_warehouse_ids: input.to_warehouse_ids,
        items: input.items,
        shipping_fee: input.shipping_fee,
        note: input.note,
        inserted_at: at,
      },
    });
    // A bare {success: true} answer carries no record: list the targets without ids.
    const rows = created.filter((t) => id(t.id) !== undefined);
    return {
      transfers: rows.length
        ? rows.map((t) => ({ id: id(t.id), display_id: id(t.display_id), to_warehouse_id: id(t.to_warehouse_id) }))
        : input.to_warehouse_ids.map((to) => ({ to_warehouse_id: to })),
    };
  },
});
