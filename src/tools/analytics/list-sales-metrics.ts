import { z } from "zod";
import { defineTool, READ } from "../define.js";
import { shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { salesMetrics } from "./metrics.js";

export const listSalesMetrics = defineTool({
  name: "list_sales_metrics",
  title: "List sales metrics",
  description:
    "Metric fields for get_sales_analytics select_fields, incl. custom formulas.",
  toolset: "analytics",
  annotations: READ,
  input: z.object({ shop_id: shopIdInput }),
  output: z.object({
    metrics: z.array(
      z.object({ field: z.string(), name: z.string().optional(), formula: z.string().optional(), unit: z.string().optional() }),
    ),
  }),
  async handler(input, ctx) {
    const shopId = await resolveShopId(ctx, input.shop_id);
    return { metrics: await salesMetrics(ctx, shopId) };
  },
});
