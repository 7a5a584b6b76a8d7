import { z } from "zod";
import { defineTool, READ } from "../define.js";
import { cursorInput, limitInput, shopIdInput } from "../inputs.js";
import { customerId } from "../pos/customer-ref.js";
import { pagedList } from "../pos/paging.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { pointLogRow } from "./customer-row.js";

export const listCustomerPointLogs = defineTool({
  name: "list_customer_point_logs",
  title: "List customer point changes",
  description: "A customer's reward-point changes, newest first, with the balance after each.",
  toolset: "customers",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    customer_id: z.string().max(120).describe("Customer id, phone or name"),
    limit: limitInput(100, 30),
    cursor: cursorInput,
  }),
  output: z.object({
    point_logs: z.array(z.looseObject({ change: z.number().optional(), balance: z.number().optional(), at: z.string().optional() })),
    total: z.number().optional(),
    next_cursor: z.string().optional(),
  }),
  async handler(input, ctx) {
    const shopId = await resolveShopId(ctx, input.shop_id);
    // Resolved on the first call only: the cursor carries the query.
    const customer = input.cursor ? undefined : await customerId(ctx.pos, shopId, "customer_id", input.customer_id);
    const page = await pagedList(
      "list_customer_point_logs",
      input,
      () => ({ shop_customer_id: customer! }),
      (q, page_number, page_size) => ctx.pos.listCustomerPointLogs(shopId, { ...q, page_number, page_size }),
      ctx.progress,
    );
    return { point_logs: page.rows.map((l) => pointLogRow(l, ctx.config.timezone)), total: page.total, next_cursor: page.next_cursor };
  },
});
