import { z } from "zod";
import { RETURN_ORDER_STATUSES, requireStatus } from "../../clients/pos-codes.js";
import { returnOrderRow, returnOrderRowSchema, upstreamRecord } from "../../format/orders.js";
import { toUnix } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, limitInput, shopIdInput, sinceInput, untilInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { openRange } from "../pos/open-range.js";
import { pagedList } from "../pos/paging.js";

const statusValue = z.union([z.string().max(40), z.number().int()]);

export const listReturnOrders = defineTool({
  name: "list_return_orders",
  title: "List return orders",
  description:
    "Return/exchange orders, newest first, with original and exchange order ids.",
  toolset: "orders",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    status: statusValue.optional().describe("new, shipped, completed or cancelled (default all)"),
    time_field: statusValue.optional().describe("Range field: inserted_at (default), updated_at or a status"),
    since: sinceInput,
    until: untilInput,
    limit: limitInput(100, 20),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({ return_orders: z.array(returnOrderRowSchema), total: z.number().optional(), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const query = () => {
      const { since, until } = openRange(input.since, input.until, tz);
      const field = input.time_field === undefined ? undefined : String(input.time_field);
      return {
        status: input.status === undefined ? undefined : requireStatus("status", RETURN_ORDER_STATUSES, input.status),
        update_status:
          field === undefined || field === "inserted_at" || field === "updated_at"
            ? field
            : requireStatus("time_field", RETURN_ORDER_STATUSES, field),
        start_time: since && toUnix(since),
        end_time: until && toUnix(until),
      };
    };
    const q = input.cursor ? undefined : query();
    const shopId = await resolveShopId(ctx, input.shop_id);
    const page = await pagedList(
      "list_return_orders",
      input,
      () => q!,
      (params, page, page_size) => ctx.pos.listReturnOrders(shopId, { ...params, page, page_size }),
      ctx.progress,
    );
    return {
      return_orders: page.rows.map((r) => (input.detail === "full" ? upstreamRecord(r) : returnOrderRow(r, tz))),
      total: page.total,
      next_cursor: page.next_cursor,
    };
  },
});
