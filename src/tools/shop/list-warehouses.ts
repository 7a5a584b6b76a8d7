import { z } from "zod";
import { upstreamRecord } from "../../format/orders.js";
import { defineTool, READ } from "../define.js";
import { detailInput, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { warehouseRow, warehouseRowSchema } from "./warehouse-row.js";

export const listWarehouses = defineTool({
  name: "list_warehouses",
  title: "List warehouses",
  description:
    "Warehouses: ids, names, address ids, whether they may create orders.",
  toolset: "shop",
  annotations: READ,
  input: z.object({ shop_id: shopIdInput, detail: detailInput }),
  output: z.object({ warehouses: z.array(warehouseRowSchema) }),
  async handler(input, ctx) {
    const shopId = await resolveShopId(ctx, input.shop_id);
    const rows = await ctx.pos.listWarehouses(shopId);
    return { warehouses: input.detail === "full" ? rows.map(upstreamRecord) : rows.map(warehouseRow) };
  },
});
