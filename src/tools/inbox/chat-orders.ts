import { InputError } from "../../clients/errors.js";
import type { Conversation } from "../../clients/schemas/messaging.js";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { id } from "../../format/compact.js";
import { customerIdOf, orderNumber, orderStatusName } from "../../format/orders.js";
import { normalizePhone } from "../../format/phone.js";
import { askAgainIn, readingNote } from "../../format/reading.js";
import type { ReadState } from "../../shop-index/row-index.js";
import { sanitizeName } from "../../text/sanitize.js";
import type { ToolContext } from "../define.js";
import { everyOrder } from "../orders/every-order.js";
import { statusFilter } from "../orders/order-query.js";
import { cachedShops } from "../pos/resolve-shop.js";
import { phonesOf } from "./conversation-lookup.js";
import { callPeople } from "./page-people.js";

/**
 * list_conversations with_open_orders: the chats whose customer has an order not yet delivered
 * (every status before received, search_orders' "undelivered"), each row carrying that POS
 * customer and their open orders. The shop's undelivered orders are read once, from the order
 * index (every-order.ts: all time, answering by the call's deadline with what a first read got),
 * and joined to each chat on what the order itself carries, strongest first:
 * - `order link`: the order names the chat (`conversation_id`, the vendor's order field create_order
 *   fills from the chat);
 * - `social id`: the order's customer carries the chat's customer id on the platform
 *   (`customer.fb_id`, the page-scoped id a chat shows as customers[].fb_id and from.id);
 * - `phone`: the order's bill phone is one the chat captured (recent_phone_numbers), both in the
 *   national form.
 * Never by name: a name is anyone's. The POS customer found names every open order of theirs
 * (by the POS customer id the order carries), linked to the chat or not.
 */

export type LinkedBy = "order link" | "social id" | "phone";

export interface ChatOrders {
  /** The POS customer of the strongest link (no id when the linked order names no POS customer). */
  customer: { id?: string | undefined; name?: string | undefined; by: LinkedBy; others?: number | undefined };
  /** Their open orders, newest first. */
  orders: PosOrder[];
}

export interface OpenOrders {
  /** The chat's customer and open orders, or undefined when it has none the join finds. */
  of(c: Conversation): ChatOrders | undefined;
  /** Every undelivered order of every shop read was read. */
  complete: boolean;
  /** Sentences on what was not read in full (an index read under way, a list read cut short). */
  notes: string[];
  /** When to ask again (s), the latest of the reads under way. */
  askAgainIn?: number | undefined;
}

/** Open orders a row shows; the rest are counted (open_orders_total). */
const SHOWN = 3;

/** Refused before any read: the join needs the POS. */
export function requirePos(ctx: Pick<ToolContext, "config">, field = "with_open_orders"): void {
  if (Object.keys(ctx.config.posApiKeys).length === 0) {
    throw new InputError(field, "needs the POS: no POS api key is configured", `Drop ${field}, or set PANCAKE_POS_API_KEY.`);
  }
}

/** The shops whose orders are read, by id with their names where known: those configured by id, and those a wildcard key sees. */
export async function shopsOf(ctx: ToolContext, field?: string): Promise<Map<string, string | undefined>> {
  requirePos(ctx, field);
  const configured = Object.keys(ctx.config.posApiKeys);
  const named = configured.filter((k) => k !== "*");
  const seen = named.length === configured.length ? [] : await cachedShops(ctx.pos);
  return new Map<string, string | undefined>([...named.map((shopId) => [shopId, undefined] as const), ...seen.map((shop) => [String(shop.id), sanitizeName(shop.name)] as const)]);
}

const newestFirst = (a: PosOrder, b: PosOrder) => String(b.inserted_at ?? "").localeCompare(String(a.inserted_at ?? "")) || String(b.id).localeCompare(String(a.id));

function push<K>(map: Map<K, PosOrder[]>, key: K | undefined, order: PosOrder): void {
  if (key === undefined || key === "") return;
  const list = map.get(key);
  if (list) list.push(order);
  else map.set(key, [order]);
}

/** Reads every shop's undelivered orders (at once) and joins them to chats. */
export async function openOrders(ctx: ToolContext): Promise<OpenOrders> {
  const shops = await shopsOf(ctx);
  const query = { filter_status: statusFilter({ statuses: ["undelivered"] }) };
  const people = callPeople(ctx);
  const reads = await Promise.all([...shops.keys()].map(async (shopId) => ({ shopId, read: await everyOrder(ctx, shopId, query) })));
  const known = await people;
  const byChat = new Map<string, PosOrder[]>();
  const bySocial = new Map<string, PosOrder[]>();
  const byPhone = new Map<string, PosOrder[]>();
  const byCustomer = new Map<string, PosOrder[]>();
  for (const order of reads.flatMap((r) => r.read.rows).sort(newestFirst)) {
    const raw = order as Record<string, unknown>;
    push(byChat, id(raw.conversation_id), order);
    push(bySocial, id(order.customer?.fb_id), order);
    push(byPhone, typeof order.bill_phone_number === "string" ? normalizePhone(order.bill_phone_number) : undefined, order);
    push(byCustomer, customerIdOf(order), order);
  }
  const tz = ctx.config.timezone;
  const notes: string[] = [];
  const readings: ReadState[] = [];
  for (const { shopId, read } of reads) {
    const shop = `shop ${shops.get(shopId) ?? shopId}`;
    if (read.reading) {
      readings.push(read.reading);
      notes.push(readingNote(`the orders of ${shop}`, read.reading, tz));
    } else if (!read.complete) {
      // Without the index, a list read within its bounds (every-order.ts SWEEP_BOUNDS).
      notes.push(`${shop}'s undelivered orders were read in part (${read.rows.length}${read.total === undefined ? "" : ` of ${read.total}`}): chats whose orders are among the rest are left out`);
    }
  }
  notes.push(...known.notes);
  const waits = readings.filter((r) => !r.failed).map(askAgainIn);
  return {
    complete: reads.every((r) => r.read.complete) && known.complete,
    notes,
    askAgainIn: waits.length ? Math.max(...waits) : undefined,
    of(c) {
      const first = c.customers?.[0];
      const theirs = known.of(c);
      const socials = [...new Set([first?.fb_id, c.from_psid, c.from?.id].map(id).concat(theirs.socials).filter((x): x is string => !!x))];
      const phones = [...new Set(phonesOf(c.recent_phone_numbers).map((p) => normalizePhone(p)).concat(theirs.phones).filter((p): p is string => !!p))];
      const found: { by: LinkedBy; order: PosOrder }[] = [
        ...(byChat.get(String(c.id)) ?? []).map((order) => ({ by: "order link" as const, order })),
        ...socials.flatMap((s) => bySocial.get(s) ?? []).map((order) => ({ by: "social id" as const, order })),
        ...phones.flatMap((p) => byPhone.get(p) ?? []).map((order) => ({ by: "phone" as const, order })),
      ];
      const best = found[0];
      if (!best) return undefined;
      const customerId = customerIdOf(best.order);
      // Every open order of the POS customer; without one, the orders linked that name none.
      const orders = customerId === undefined ? [...new Set(found.filter((f) => customerIdOf(f.order) === undefined).map((f) => f.order))] : byCustomer.get(customerId)!;
      const others = new Set(found.map((f) => customerIdOf(f.order)).filter((x) => x !== undefined && x !== customerId)).size;
      const name = sanitizeName(best.order.customer?.name ?? best.order.bill_full_name);
      return { customer: { id: customerId, name, by: best.by, others: others || undefined }, orders };
    },
  };
}

/** What a row shows of its chat's open orders: the POS customer, the newest few, and how many. */
export function openOrderFields(found: ChatOrders | undefined) {
  if (!found) return {};
  const { customer, orders } = found;
  return {
    pos_customer: { id: customer.id, name: customer.name, by: customer.by, other_customers: customer.others },
    open_orders: orders.slice(0, SHOWN).map((o) => ({
      id: String(o.id),
      number: orderNumber(o.display_id),
      status: orderStatusName(o.status),
      amount: o.total_price_after_sub_discount ?? o.total_price ?? undefined,
    })),
    open_orders_total: orders.length,
  };
}

/** What with_open_orders kept, said once an answer. */
export const OPEN_ORDERS_NOTE =
  "with_open_orders: chats whose POS customer has an order not yet delivered (statuses before received), found by the order's link to the chat, the customer's social id on the order, or a phone the inbox caught of them on the order's bill (pos_customer.by), never by name";
