import { z } from "zod";
import type { PosClient, ReturnOrderListParams } from "../../clients/pos.js";
import type { PosReturnOrder } from "../../clients/schemas/pos.js";
import { returnedAmountOf, returnedUnits, returnStatusName, returnValueOf, unitsBackOf } from "../../format/orders.js";
import type { ToolContext } from "../define.js";
import { everyRow, MAX_PAGE_SIZE, type UpstreamPage } from "../pos/paging.js";
import { type EveryOrder, everyOrder } from "./every-order.js";

// "What came back in November, and what was it worth?" has two sources, and the owner means
// what came back: the return orders the shop received back, and the orders the carrier brought
// back (returned whole, or in part). Each is given, named, over the span by its own date, valued
// alike (the goods at what the customer paid for them); and, added up, what came back with each
// order's goods once: a return order for an order the carrier brought back is those same goods
// (in the demo, every one), while one for an order the carrier did not return (sent back by the
// customer after delivery) adds to them.

/** Most rows read to value one notion (pages of MAX_PAGE_SIZE, in parallel); past it only counts are given. */
export const VALUE_MAX = 1_000;

const RETURN_CANCELED = 4;
/** Order statuses of goods the carrier brought back, each dated by when the order reached it. */
const CARRIER_BACK = { returned: 5, partly_returned: 15 } as const;
const CARRIER_CODES: ReadonlySet<number> = new Set(Object.values(CARRIER_BACK));

const goods = { units: z.number().optional(), value: z.number().optional() };

export const cameBackSchema = z.object({
  total: z
    .object({ orders: z.number(), ...goods })
    .optional()
    .describe("What came back, each order's goods once: carrier_returned, plus return_orders less overlap"),
  carrier_returned: z
    .object({ orders: z.number(), ...goods, returned: z.number(), partly_returned: z.number(), dated_by: z.string() })
    .optional(),
  return_orders: z
    .object({
      count: z.number(),
      ...goods,
      by_status: z.record(z.string(), z.number()).optional(),
      canceled: z.number().optional().describe("Not counted"),
      dated_by: z.string(),
    })
    .optional(),
  overlap: z
    .object({ count: z.number(), ...goods })
    .optional()
    .describe("Of return_orders, those for orders in carrier_returned's statuses: the same goods"),
});

export const CAME_BACK_FIGURES =
  "came_back, both notions of returns: return_orders (return/exchange orders the shop received back, canceled ones apart) and carrier_returned (orders the carrier brought back, whole or in part); total (the figure to quote): each order's goods once, carrier_returned plus return_orders less overlap (return orders for orders the carrier returned: the same goods); each dated by the day the return was recorded (dated_by), not the order's date; value: at what the customer paid (goods after discounts)";

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
 * `counted`: the return orders summed, when every one was read.
 */
async function returnOrderTotals(pos: PosClient, shopId: string, query: ReturnOrderListParams, datedBy: string, every?: PosReturnOrder[]) {
  const { total, rows } = every ? { total: every.length, rows: every } : await readAll((page, page_size) => pos.listReturnOrders(shopId, { ...query, page, page_size }));
  const canceledAsked = query.status === RETURN_CANCELED;
  if (!rows) {
    // Too many to value: counted by the list, the canceled ones by a list of their own.
    const canceled = query.status === undefined ? ((await pos.listReturnOrders(shopId, { ...query, status: RETURN_CANCELED, page: 1, page_size: 1 })).total_entries ?? 0) : 0;
    return { totals: { count: total - canceled, canceled: canceled || undefined, dated_by: datedBy }, counted: undefined };
  }
  const counted = rows.filter((r) => canceledAsked || r.status !== RETURN_CANCELED);
  const byStatus: Record<string, number> = {};
  for (const r of counted) {
    const name = returnStatusName(r.status) ?? String(r.status);
    byStatus[name] = (byStatus[name] ?? 0) + 1;
  }
  return {
    totals: { count: counted.length, ...goodsOf(counted), by_status: byStatus, canceled: rows.length - counted.length || undefined, dated_by: datedBy },
    counted,
  };
}

/** The units and value of some return orders. */
const goodsOf = (returns: readonly PosReturnOrder[]) => ({
  units: returns.reduce((n, r) => n + returnedUnits(r), 0),
  value: returns.reduce((n, r) => n + returnValueOf(r), 0),
});

/**
 * The orders the carrier brought back within a span (Unix seconds, either end open): each status
 * asked of the order list apart, dated by when the order reached it, so an order is counted once,
 * in the status it is in. Deleted orders are none of them. `ids`: those orders, when every one was read.
 */
async function carrierReturned(ctx: ToolContext, shopId: string, range: Span) {
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
  const orders = each.flatMap((read) => read.rows);
  return {
    totals: {
      orders: count(returned!) + count(partly!),
      units: complete ? orders.reduce((n, o) => n + unitsBackOf(o), 0) : undefined,
      value: complete ? orders.reduce((n, o) => n + returnedAmountOf(o), 0) : undefined,
      returned: count(returned!),
      partly_returned: count(partly!),
      dated_by: "reached returned / partly_returned",
    },
    ids: complete ? new Set(orders.map((o) => String(o.id))) : undefined,
  };
}

type Span = { from?: number | undefined; to?: number | undefined };

/** The order a return order returns, by id. */
const originalOf = (r: PosReturnOrder) => String(r.order_id_to_returned ?? r.order_to_returned?.id);

/**
 * What came back within a span (Unix seconds, either end open), both ways: the return orders of
 * `query` (by default those created in it; canceled ones apart) and the orders the carrier
 * brought back in it; with every one of both read (no status of return orders asked, nor their
 * update date), their overlap and what they come to together. `every`: the return orders, when the caller read them all.
 */
export async function cameBack(ctx: ToolContext, shopId: string, range: Span, asked?: { query: ReturnOrderListParams; datedBy: string; every?: PosReturnOrder[] | undefined }) {
  const query = asked?.query ?? { start_time: range.from, end_time: range.to };
  const [returns, carrier] = await Promise.all([
    returnOrderTotals(ctx.pos, shopId, query, asked?.datedBy ?? "created", asked?.every),
    carrierReturned(ctx, shopId, range),
  ]);
  const complete = !!returns.counted && !!carrier.ids;
  const came_back = { carrier_returned: carrier.totals, return_orders: returns.totals };
  // One status asked, or return orders ranged by their last update (no day anything came back):
  // no total to give.
  if (!returns.counted || !carrier.ids || query.status !== undefined || query.update_status === "updated_at") return { came_back, complete };
  // The same goods: a return order for an order the carrier brought back (in the span, or in
  // another: it is counted when it came back).
  const ids = carrier.ids;
  const same = (r: PosReturnOrder) => ids.has(originalOf(r)) || CARRIER_CODES.has(Number(r.order_to_returned?.status));
  const overlap = returns.counted.filter(same);
  const more = returns.counted.filter((r) => !same(r));
  const extra = goodsOf(more);
  const total = {
    orders: carrier.totals.orders + new Set(more.map(originalOf)).size,
    units: carrier.totals.units! + extra.units,
    value: carrier.totals.value! + extra.value,
  };
  return { came_back: { total, ...came_back, overlap: overlap.length ? { count: overlap.length, ...goodsOf(overlap) } : undefined }, complete };
}
