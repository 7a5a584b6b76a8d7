import type { OrderListParams } from "../../clients/pos.js";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { rangeCheck } from "../../clients/list-checks.js";
import { boundedByUpdate, listedBy, selectOf, unindexable, unix } from "../../shop-index/order-rows.js";
import { IndexFull, type ReadState } from "../../shop-index/row-index.js";
import { readBy, type ToolContext } from "../define.js";
import { type RowCheck, type Sweep, sweep } from "../pos/sweep.js";
import { LAST_DISTINCT_PAGE } from "./order-ref.js";

/** Most orders one sweep reads, and its time: past either it answers with what it read. Tests lower them. */
export const SWEEP_BOUNDS = { orders: 10_000, ms: 20_000 };
/** Pages read at once; with PANCAKE_POS_RATE_PER_SECOND the client's limiter spaces them further. */
const PARALLEL_PAGES = 4;

export interface EveryOrder extends Sweep<PosOrder> {
  /** Read from the shop index, brought up to date at this time (ms); unset when read from the list itself. */
  asOf?: number;
  /** The index's read of the shop is not done yet: how far it got (the rows are those read so far). */
  reading?: ReadState;
}

/** The update time from which the index must hold every order to answer `query` (null: all time). */
const indexNeed = (query: OrderListParams) => (boundedByUpdate(query.updateStatus) && query.startDateTime !== undefined ? query.startDateTime : null);

/** Whether the shop index answers `query` already, without first reading orders it does not hold. */
export async function indexHolds(ctx: ToolContext, shopId: string, query: OrderListParams): Promise<boolean> {
  return !!ctx.index && !unindexable(query) && (await ctx.index.orders(shopId).holds(indexNeed(query)));
}

/**
 * Reads the orders `query` needs into the shop index after an answer that did without it (the
 * POS's statistics), so the same question next time costs a request or two. It runs on the shared
 * client, past the end of the call, and a failure only leaves the index as it was.
 */
export function warmIndex(ctx: ToolContext, shopId: string, query: OrderListParams): void {
  if (!ctx.index || unindexable(query)) return;
  void ctx.index.orders(shopId).warm(ctx.pos, indexNeed(query));
}

/**
 * Every order the list serves for `query`: from the shop index when it holds them (a request or
 * two to bring it up to date, whatever the shop's size), else read page by page, bounded. The
 * index holds every order updated since a time, so it answers a question whose time field moves
 * with an update (created, updated, a status reached) from any start, and any other from all time.
 * `slim` drops what a caller has no more use for from each order the index gives, as it is read.
 */
export async function everyOrder(ctx: ToolContext, shopId: string, query: OrderListParams, slim?: (order: PosOrder) => PosOrder): Promise<EveryOrder> {
  if (ctx.index && !unindexable(query)) {
    const need = indexNeed(query);
    try {
      const view = await ctx.index.orders(shopId).view(ctx.pos, need, ctx.progress, readBy(ctx));
      const keep = listedBy(query);
      const cut = projection(query.fields);
      const project = slim ? (order: PosOrder) => slim(cut(order)) : cut;
      const rows: PosOrder[] = [];
      for (const order of view.select(selectOf(query))) if (keep(order)) rows.push(project(order));
      return { rows, total: view.partial ? undefined : rows.length, complete: !view.partial, asOf: view.asOf, reading: view.partial };
    } catch (error) {
      if (!(error instanceof IndexFull)) throw error;
      ctx.logger.info(`search_orders: ${error.message}; reading the list instead`);
    }
  }
  return sweepOrders(ctx, shopId, query);
}

/**
 * An order cut to the `fields` asked, as the list serves them: a question over a big shop's month
 * holds tens of thousands of orders at once, and a whole kept order weighs ten times the few
 * fields a grouping reads (at 200x, 482 MB of heap for 112,000 orders).
 */
function projection(fields: readonly string[] | undefined): (order: PosOrder) => PosOrder {
  if (!fields?.length) return (order) => order;
  const kept = [...new Set(fields)];
  return (order) => {
    const cut: Record<string, unknown> = {};
    for (const field of kept) if (field in order) cut[field] = (order as Record<string, unknown>)[field];
    return cut as PosOrder;
  };
}

/** The orders the list serves for `query`, read page by page within SWEEP_BOUNDS. */
export function sweepOrders(ctx: ToolContext, shopId: string, query: OrderListParams): Promise<Sweep<PosOrder>> {
  return sweep(
    ctx.pos,
    { rows: SWEEP_BOUNDS.orders, ms: Math.max(0, Math.min(SWEEP_BOUNDS.ms, readBy(ctx) - Date.now())), lastPage: LAST_DISTINCT_PAGE, parallel: PARALLEL_PAGES },
    (pos, page_number, page_size) => pos.listOrders(shopId, { ...query, page_number, page_size }),
    ctx.progress,
    rangeOf(query),
  );
}

/**
 * An order the list served outside the time range asked, when the range is on a time the order
 * itself carries (created, updated): the list ignored that end of it. A range on a status reached
 * or a carrier's time is left to the list, whose reading of a history may differ from ours.
 */
function rangeOf(query: OrderListParams): RowCheck<PosOrder> | undefined {
  const field = String(query.updateStatus ?? "inserted_at");
  const range = { from: query.startDateTime, to: query.endDateTime };
  if ((field !== "inserted_at" && field !== "updated_at") || (range.from === undefined && range.to === undefined)) return undefined;
  const time = field === "inserted_at" ? "created" : "updated";
  const outside = rangeCheck<PosOrder>({ list: "order list", rows: "orders", time, params: ["startDateTime", "endDateTime"], timeOf: (o) => unix(o[field]) }, range);
  return (order) => outside(order)?.message;
}
