import { z } from "zod";
import type { PosClient, ReturnOrderListParams } from "../../clients/pos.js";
import type { PosReturnOrder } from "../../clients/schemas/pos.js";
import { returnedAmountOf, returnedUnits, returnStatusName, returnValueOf } from "../../format/orders.js";
import type { ToolContext } from "../define.js";
import { everyRow, MAX_PAGE_SIZE, type UpstreamPage } from "../pos/paging.js";
import { type EveryOrder, everyOrder } from "./every-order.js";

// "What did customers send back in November, and what was it worth?" has two answers, and the
// owner means either: the return orders the shop made for goods sent back, and the orders the
// carrier brought back (returned whole, or in part). Both are given, each named, each over the
// span by its own date, valued alike: the goods at what the customer paid for them.

/** Most rows read to value one notion (pages of MAX_PAGE_SIZE, in parallel); past it only counts are given. */
export const VALUE_MAX = 1_000;

const RETURN_CANCELED = 4;
/** Order statuses of goods the carrier brought back, each dated by when the order reached it. */
const CARRIER_BACK = { returned: 5, partly_returned: 15 } as const;

export const cameBackSchema = z.object({
  return_orders: z
    .object({
      count: z.number(),
      units: z.number().optional(),
      value: z.number().optional(),
      by_status: z.record(z.string(), z.number()).optional(),
      canceled: z.number().optional().describe("Not counted"),
      dated_by: z.string(),
    })
    .optional(),
  carrier_returned: z
    .object({ orders: z.number(), value: z.number().optional(), returned: z.number(), partly_returned: z.number(), dated_by: z.string() })
    .optional(),
});

export const CAME_BACK_FIGURES =
  "came_back.return_orders: return/exchange orders made for goods customers sent back (canceled ones apart); came_back.carrier_returned: orders the carrier brought back, whole (returned) or in part (partly_returned); value: those goods at what the customer paid (goods after discounts)";

/** Every row of a list when it holds at most VALUE_MAX, else its first page alone; the list's total either way. */
async function readAll<T extends { id: string | number }>(fetch: (page: number, size: number) => Promise<UpstreamPage<T>>) {
  const first = await fetch(1, MAX_PAGE_SIZE);
  const total = first.total_entries ?? first.data.length;
  const whole = total <= first.data.length ? first.data : total <= VALUE_MAX ? await everyRow(total, fetch) : undefined;
  return { total, rows: whole };
}

/**
 * What the return orders of a query come to: counted, their units and value, per status; canceled
 * ones apart unless asked for. `every` is every match when the caller already read them all.
 */
export async function returnOrderTotals(pos: PosClient, shopId: string, query: ReturnOrderListParams, datedBy: string, every?: PosReturnOrder[]) {
  const { total, rows } = every ? { total: every.length, rows: every } : await readAll((page, page_size) => pos.listReturnOrders(shopId, { ...query, page, page_size }));
  const canceledAsked = query.status === RETURN_CANCELED;
  if (!rows) {
    // Too many to value: counted by the list, the canceled ones by a list of their own.
    const canceled = query.status === undefined ? ((await pos.listReturnOrders(shopId, { ...query, status: RETURN_CANCELED, page: 1, page_size: 1 })).total_entries ?? 0) : 0;
    return { totals: { count: total - canceled, canceled: canceled || undefined, dated_by: datedBy }, complete: false };
  }
  const counted = rows.filter((r) => canceledAsked || r.status !== RETURN_CANCELED);
  const byStatus: Record<string, number> = {};
  for (const r of counted) {
    const name = returnStatusName(r.status) ?? String(r.status);
    byStatus[name] = (byStatus[name] ?? 0) + 1;
  }
  const sum = (f: (r: PosReturnOrder) => number) => counted.reduce((n, r) => n + f(r), 0);
  return {
    totals: {
      count: counted.length,
      units: sum(returnedUnits),
      value: sum(returnValueOf),
      by_status: byStatus,
      canceled: rows.length - counted.length || undefined,
      dated_by: datedBy,
    },
    complete: true,
  };
}

/**
 * The orders the carrier brought back within a span (Unix seconds, either end open): each status
 * asked of the order list apart, dated by when the order reached it, so an order is counted once,
 * in the status it is in. Deleted orders are none of them.
 */
export async function carrierReturned(ctx: ToolContext, shopId: string, range: { from?: number | undefined; to?: number | undefined }) {
  const ranged = range.from !== undefined || range.to !== undefined;
  // Read as search_orders reads orders: from the shop index when it holds the span (no request
  // past its refresh), else the list, bounded.
  const each = await Promise.all(
    Object.values(CARRIER_BACK).map((status) =>
      everyOrder(ctx, shopId, {
        filter_status: [status],
        ...(ranged ? { updateStatus: String(status), startDateTime: range.from, endDateTime: range.to } : {}),
        fields: ["id", "status", "items", "total_price_after_sub_discount", "total_price"],
      }),
    ),
  );
  const [returned, partly] = each;
  const count = (read: EveryOrder) => (read.complete ? read.rows.length : (read.total ?? read.rows.length));
  const complete = each.every((read) => read.complete);
  return {
    totals: {
      orders: count(returned!) + count(partly!),
      value: complete ? each.flatMap((read) => read.rows).reduce((n, o) => n + returnedAmountOf(o), 0) : undefined,
      returned: count(returned!),
      partly_returned: count(partly!),
      dated_by: "reached returned / partly_returned",
    },
    complete,
  };
}

/**
 * What came back within a span (Unix seconds, either end open), both ways: the return orders
 * created in it (canceled ones apart) and the orders the carrier brought back in it.
 */
export async function cameBack(ctx: ToolContext, shopId: string, range: { from?: number | undefined; to?: number | undefined }) {
  const [returns, carrier] = await Promise.all([
    returnOrderTotals(ctx.pos, shopId, { start_time: range.from, end_time: range.to }, "created"),
    carrierReturned(ctx, shopId, range),
  ]);
  return { came_back: { return_orders: returns.totals, carrier_returned: carrier.totals }, complete: returns.complete && carrier.complete };
}
