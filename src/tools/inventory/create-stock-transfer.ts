import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { id } from "../../format/compact.js";
import { parseDateInput } from "../../format/time.js";
import { CREATE, defineTool } from "../define.js";
import { dateInput, jsonish, shopIdInput } from "../inputs.js";
import { nonEmpty, someOf } from "../pos/fields.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { quantityLine, stockLines } from "./stock-lines.js";
import { warehouseId } from "../pos/shop-refs.js";

const warehouseRef = nonEmpty(120);

export const createStockTransfer = defineTool({
  name: "create_stock_transfer",
  title: "Create stock transfer",
  description:
    "Move goods between warehouses, one transfer per target warehouse.",
  toolset: "inventory",
  annotations: CREATE,
  input: z.object({
    shop_id: shopIdInput,
    from_warehouse_id: warehouseRef.describe("Source warehouse (id or name)"),
    to_warehouse_ids: jsonish(someOf(warehouseRef, 20)).describe("Target warehouses"),
    items: jsonish(someOf(quantityLine, 200)).describe("Lines"),
    shipping_fee: z.number().int().optional().describe("Shipping fee"),
    note: z.string().max(2000).optional().describe("Note"),
    inserted_at: dateInput.optional().describe("Default now"),
  }),
  output: z.object({ transfers: z.array(z.object({ id: z.string().optional(), display_id: z.string().optional(), to_warehouse_id: z.string().optional() })) }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    // The service reads write times as UTC.
    const at = input.inserted_at === undefined ? undefined : parseDateInput("inserted_at", input.inserted_at, tz).toISOString();
    const shopId = await resolveShopId(ctx, input.shop_id);
    const from = await warehouseId(ctx.pos, shopId, "from_warehouse_id", input.from_warehouse_id);
    const to = await Promise.all(input.to_warehouse_ids.map((w, i) => warehouseId(ctx.pos, shopId, `to_warehouse_ids[${i}]`, w)));
    if (to.includes(from)) throw new InputError("to_warehouse_ids", "contains the source warehouse", "Transfer to warehouses other than from_warehouse_id.");
    const items = await stockLines(ctx.pos, shopId, "items", input.items);
    const created = await ctx.pos.createTransfers(shopId, {
      transfer: {
        from_warehouse_id: from,
        to_warehouse_ids: to,
        items,
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
        : to.map((target) => ({ to_warehouse_id: target })),
    };
  },
});
