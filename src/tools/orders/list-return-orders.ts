import { z } from "zod";
import { RETURN_ORDER_STATUSES, requireStatus } from "../../clients/pos-codes.js";
import { orderCurrency, returnOrderRow, returnOrderRowSchema, returnStatusName, upstreamRecord } from "../../format/orders.js";
import { toIsoInZone, toUnix } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, shopIdInput, sinceInput, totalsLimitInput, untilInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { openRange } from "../pos/open-range.js";
import { pagedList } from "../pos/paging.js";
import { CAME_BACK_FIGURES, cameBackSchema, carrierReturned, returnOrderTotals, VALUE_MAX } from "./came-back.js";

const statusValue = z.union([z.string().max(40), z.number().int()]);

/** The date a return order is ranged by, in words: the answer says it. */
const datedBy = (field: string | number | undefined) =>
  field === undefined || field === "inserted_at" ? "created" : field === "updated_at" ? "updated" : `reached ${returnStatusName(field) ?? field}`;

export const listReturnOrders = defineTool({
  name: "list_return_orders",
  title: "List return orders",
  description:
    "What customers sent back: return/exchange orders, newest first, each with its value, and came_back: the span's totals both ways (return orders; orders the carrier returned).",
  toolset: "orders",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    status: statusValue.optional().describe("new, shipped, completed or cancelled (default all)"),
    time_field: statusValue.optional().describe("Range field: inserted_at (default), updated_at or a status"),
    since: sinceInput,
    until: untilInput,
    limit: totalsLimitInput(100, 20),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({
    range: z.object({ since: z.string().optional(), until: z.string().optional() }).optional(),
    came_back: cameBackSchema.optional(),
    return_orders: z.array(returnOrderRowSchema),
    total: z.number().optional().describe("Return orders matching, canceled included"),
    next_cursor: z.string().optional(),
    currency: z.string().optional(),
    complete: z.boolean().optional(),
    figures: z.string().optional(),
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const { since, until } = openRange(input.since, input.until, tz);
    const field = input.time_field === undefined ? undefined : String(input.time_field);
    const timeField = field === undefined || field === "inserted_at" || field === "updated_at" ? field : requireStatus("time_field", RETURN_ORDER_STATUSES, field);
    const query = {
      status: input.status === undefined ? undefined : requireStatus("status", RETURN_ORDER_STATUSES, input.status),
      update_status: timeField,
      start_time: since && toUnix(since),
      end_time: until && toUnix(until),
    };
    const shopId = await resolveShopId(ctx, input.shop_id);
    const page =
      input.limit === 0
        ? undefined
        : await pagedList(
            "list_return_orders",
            input,
            () => query,
            (params, p, page_size) => ctx.pos.listReturnOrders(shopId, { ...params, page: p, page_size }),
            ctx.progress,
          );
    const rows = page?.rows ?? [];
    const listed = {
      return_orders: rows.map((r) => (input.detail === "full" ? upstreamRecord(r) : returnOrderRow(r, tz))),
      next_cursor: page?.next_cursor,
      currency: rows.length ? orderCurrency(rows.map((r) => r.order_to_returned ?? {})) : undefined,
    };
    // A cursor's page belongs to an answer whose totals its first call gave.
    if (input.cursor) return { ...listed, total: page?.total };
    const whole = page && !page.next_cursor ? rows : undefined;
    const range = { from: query.start_time, to: query.end_time };
    const [returns, carrier] = await Promise.all([
      returnOrderTotals(ctx.pos, shopId, query, datedBy(timeField), whole),
      carrierReturned(ctx, shopId, range),
    ]);
    const complete = returns.complete && carrier.complete;
    return {
      range: since || until ? { since: since && toIsoInZone(since, tz), until: until && toIsoInZone(until, tz) } : undefined,
      came_back: { return_orders: returns.totals, carrier_returned: carrier.totals },
      ...listed,
      total: page?.total ?? returns.totals.count + (returns.totals.canceled ?? 0),
      currency: listed.currency ?? orderCurrency([]),
      complete: complete ? undefined : false,
      figures: complete ? CAME_BACK_FIGURES : `${CAME_BACK_FIGURES}. A value is left out where over ${VALUE_MAX} records would have to be read: narrow since/until`,
    };
  },
});
