import { z } from "zod";
import { InputError, NotFoundError, UpstreamError } from "../../clients/errors.js";
import type { OrderListParams, PosClient } from "../../clients/pos.js";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { fold } from "../../text/fold.js";
import { mapLimit } from "../page-stats/fan-out.js";

// Orders as people name them. Customers and staff say "#560" or "order 560": the `display_id`
// the shop shows, not the `id` the API is keyed by. The OpenAPI has no display_id filter; its
// order list `search` ("phone number, name of customer, note, ...") is the catch-all the web app's
// search box uses, so it finds the candidates and a row counts only when its display_id is the
// number exactly (search also matches phones and notes that contain the digits).

export const orderRefInput = z
  .union([z.string().max(80), z.number().int()])
  .transform(String)
  .describe('Order id, or shop number "#560"');

/** "#560", "order 560", "đơn hàng số 560", "no. 560". */
const NUMBER = /^(?:(?:order|don hang|don|ma don)\s*)?(?:(?:number|no\.?|so)\s*)?#\s*(\d{1,12})$|^(?:order|don hang|don|ma don)\s*(?:(?:number|no\.?|so)\s*)?(\d{1,12})$/;
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** What an order reference can mean: surely a shop number, surely an id, or digits that may be either. */
export type OrderRef = { number: string; id?: undefined } | { id: string; number?: string };

/** The shop number a text names explicitly ("#560", "order 560"); bare digits are not one. */
export function orderNumberOf(text: string | undefined): string | undefined {
  const match = text === undefined ? null : NUMBER.exec(fold(text));
  return match ? (match[1] ?? match[2]) : undefined;
}

export function parseOrderRef(field: string, value: string): OrderRef {
  const text = value.trim();
  const number = orderNumberOf(text);
  if (number) return { number };
  const id = /^id\s*[:#]?\s*(\S+)$/i.exec(text)?.[1] ?? text;
  if (!ID.test(id) || id === "." || id === "..") {
    throw new InputError(field, `${JSON.stringify(text)} is not an order id or number`, 'Pass the id from search_orders, or the shop\'s order number as "#560".');
  }
  return /^\d+$/.test(text) ? { id, number: id } : { id };
}

/**
 * Upstream pages (of SCAN_PAGE_SIZE) one call reads to find orders by something the list cannot
 * filter on: a shop number among the search hits (phones and notes holding the digits come
 * along), or search_orders's post and livestream filters. One budget, so get_order "#560" finds
 * whatever search_orders "#560" finds.
 */
export const SCAN_PAGES = 20;
export const SCAN_PAGE_SIZE = 100;

/** The live list serves page 100's rows again for every later page (reference README). */
export const LAST_DISTINCT_PAGE = 100;

/** The orders whose shop number is `number`, within `query` (other filters of the list). */
export async function ordersNumbered(pos: PosClient, shopId: string, number: string, query: OrderListParams = {}): Promise<PosOrder[]> {
  for (let page = 1; page <= SCAN_PAGES; page++) {
    const hits = await pos.listOrders(shopId, { ...query, search: number, page_number: page, page_size: SCAN_PAGE_SIZE });
    const found = hits.data.filter((o) => String(o.display_id) === number);
    const more = hits.data.length === SCAN_PAGE_SIZE && (hits.total_entries === undefined || page * SCAN_PAGE_SIZE < hits.total_entries);
    if (found.length || !more) return found;
  }
  return [];
}

async function orderById(pos: PosClient, shopId: string, id: string): Promise<PosOrder | undefined> {
  try {
    return await pos.getOrder(shopId, id);
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * The order a reference names. Bare digits are tried as an id and as a shop number at once; when
 * they name two different orders the caller must say which, since a write to the wrong one
 * cannot be taken back.
 */
export async function resolveOrder(pos: PosClient, shopId: string, value: string, field = "order_id"): Promise<PosOrder> {
  const ref = parseOrderRef(field, value);
  const [byId, numbered] = await Promise.all([
    ref.id === undefined ? undefined : orderById(pos, shopId, ref.id),
    // Deleted orders too: "#4" of a deleted order is "deleted", never "no such order".
    ref.number === undefined ? [] : ordersNumbered(pos, shopId, ref.number, { include_removed: 1 }),
  ]);
  const other = numbered.find((o) => String(o.id) !== String(byId?.id));
  if (byId && other) {
    throw new InputError(
      field,
      `${ref.id} is the id of order #${byId.display_id ?? "?"} and also the number of order ${other.id}`,
      `Pass "#${ref.number}" for the order numbered ${ref.number}, or "id:${ref.id}" for the order with that id.`,
    );
  }
  const order = byId ?? numbered[0];
  if (order) return order;
  const what = ref.id === undefined ? `numbered #${ref.number}` : ref.number === undefined ? `with id ${ref.id}` : `with id or number ${ref.id}`;
  throw new NotFoundError(`no order ${what}`, "Check the number, or find the order with search_orders (phone or name).");
}

/** Orders a list names by id alone that one call looks up for their numbers; past it, the ids stay as they are. */
const NUMBERS_MAX = 20;

/**
 * The numbers ("#444") of orders a list names by id only (a note's, a cash-book entry's), read
 * a few at a time; an order that cannot be read keeps its id alone.
 */
export async function orderNumbers(pos: PosClient, shopId: string, ids: readonly (string | undefined)[]): Promise<Map<string, string>> {
  const distinct = [...new Set(ids.filter((i): i is string => i !== undefined))].slice(0, NUMBERS_MAX);
  const found = await mapLimit(distinct, 5, (orderId) => orderById(pos, shopId, orderId).catch(() => undefined));
  return new Map(found.flatMap((o, i) => (o?.display_id == null ? [] : [[distinct[i]!, `#${o.display_id}`] as const])));
}

/** Rows that name an order by `order_id` alone, each given the order's number as `order` ("#444"). */
export async function withOrderNumbers<R extends { order_id?: string | undefined }>(pos: PosClient, shopId: string, rows: R[]): Promise<(R & { order?: string })[]> {
  if (!rows.some((r) => r.order_id !== undefined)) return rows;
  const numbers = await orderNumbers(pos, shopId, rows.map((r) => r.order_id));
  return rows.map((r) => (r.order_id !== undefined && numbers.has(r.order_id) ? { order: numbers.get(r.order_id), ...r } : r));
}
