import type { PosOrder } from "../../clients/schemas/pos.js";
import { customerIdOf } from "../../format/orders.js";
import { normalizePhone } from "../../format/phone.js";
import { recordDate, toDateInZone } from "../../format/time.js";
import { sanitizeName } from "../../text/sanitize.js";
import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { NONE } from "../group-rows.js";

// search_orders group_by "customer": one group per buyer, for "who ordered more than once",
// "top customers by what they spent" and "who stopped buying". A buyer is the POS customer the
// order names, else the phone it was placed with (a buyer the POS keeps no record of).

const timeOf = (o: PosOrder) => recordDate(o.inserted_at)?.getTime();

/** The group key of an order's buyer: "c:<POS customer id>", "p:<phone>", or none. */
export function customerKey(o: PosOrder): string {
  const customerId = customerIdOf(o);
  if (customerId) return `c:${customerId}`;
  const phone = o.bill_phone_number ? normalizePhone(o.bill_phone_number) : undefined;
  return phone ? `p:${phone}` : NONE;
}

interface Buyer {
  name?: string;
  first?: number;
  last?: number;
  /** When the name was taken: the newest order's name is the one shown. */
  named?: number;
}

/** Each buyer's name (as on their newest order) and first and last orders (of those counted). */
export class Buyers {
  private readonly byKey = new Map<string, Buyer>();

  constructor(matched: readonly PosOrder[], counted: (o: PosOrder) => boolean) {
    for (const o of matched) {
      const key = customerKey(o);
      const at = timeOf(o) ?? 0;
      const buyer = this.byKey.get(key) ?? {};
      if (buyer.named === undefined || at >= buyer.named) [buyer.name, buyer.named] = [sanitizeName(o.bill_full_name ?? o.customer?.name), at];
      if (counted(o)) [buyer.first, buyer.last] = [Math.min(buyer.first ?? at, at), Math.max(buyer.last ?? at, at)];
      this.byKey.set(key, buyer);
    }
  }

  /** The times sorting by first or last order reads (ms), for a group's key. */
  span(key: string): { first_order?: number; last_order?: number } {
    const buyer = this.byKey.get(key);
    return buyer?.first === undefined ? {} : { first_order: buyer.first, last_order: buyer.last! };
  }

  /** What a group's row shows of its buyer: name, and the POS id or the phone. */
  fields(key: string): Record<string, string | undefined> {
    if (key === NONE) return { customer: NONE };
    const name = this.byKey.get(key)?.name ?? NONE;
    return key.startsWith("c:") ? { customer: name, customer_id: key.slice(2) } : { customer: name, phone: key.slice(2) };
  }
}

/** A first or last order time as the shop's calendar day. */
export const orderDay = (ms: number | undefined, timeZone: string) => (ms === undefined ? undefined : toDateInZone(new Date(ms), timeZone));

/** Buyers by their first order ever (new in the span, or returning to it), or by its absence since (lapsed). */
export type BuyerClass = "new" | "returning" | "lapsed";
/** A class, or "split": every buyer grouped, and how many are new and returning, in one answer. */
export type BuyerMode = BuyerClass | "split";

export const buyersInput = z
  .enum(["new", "returning", "lapsed", "split"])
  .optional()
  .describe("group_by customer: first order ever in since/until, or earlier; lapsed: none since; split: both counted");

/** What buyers "split" counts, said with it. */
export const SPLIT_FIGURES =
  "buyers.new: customers whose first order ever (canceled and deleted aside) is within since/until; buyers.returning: who ordered before it too.";

/** The combinations a buyer class refuses, before any call. */
export function checkBuyers(input: { buyers?: BuyerMode | undefined; group_by: readonly string[]; since?: unknown }): void {
  if (!input.group_by.includes("customer")) throw new InputError("buyers", "sorts customers", 'Add "customer" to group_by.');
  if (input.since === undefined) {
    throw new InputError("buyers", `${input.buyers} is said of a span`, 'Pass since (and until): e.g. since "this month" for first-time buyers this month, since "90 days ago" for who has not ordered in 90 days.');
  }
}

export const buyersNote = (mode: BuyerClass) =>
  ({
    new: "buyers new: customers whose first order ever (canceled and deleted aside) is within since/until; group_count counts them.",
    returning: "buyers returning: customers who ordered within since/until and before it too; group_count counts them.",
    lapsed: "buyers lapsed: customers who ordered before since and not since; their groups sum every order they placed, last_order says when the last was; group_count counts them.",
  })[mode];

/**
 * The orders a buyer class keeps: of the span's (`entries`), those of customers whose first order
 * ever (read from `history`, every order of the shop) is in the span, or before it; for lapsed,
 * every order of the customers with none since the span's start. Canceled and deleted orders
 * never make a customer new or keep one from lapsing.
 */
export function buyerEntries<C extends { order: PosOrder }>(
  mode: BuyerClass,
  entries: C[],
  history: { rows: readonly PosOrder[] },
  span: { startDateTime?: number; endDateTime?: number },
  wrap: (o: PosOrder) => C,
): { entries: C[] } {
  const since = (span.startDateTime ?? 0) * 1000;
  const until = span.endDateTime === undefined ? Number.POSITIVE_INFINITY : span.endDateTime * 1000 + 999;
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  const live = history.rows.filter((o) => !o.is_removed);
  for (const o of live) {
    if (o.status === 6 || o.status === 7) continue;
    const key = customerKey(o);
    const at = timeOf(o);
    if (key === NONE || at === undefined) continue;
    first.set(key, Math.min(first.get(key) ?? at, at));
    last.set(key, Math.max(last.get(key) ?? at, at));
  }
  if (mode === "lapsed") return { entries: live.filter((o) => (last.get(customerKey(o)) ?? Number.POSITIVE_INFINITY) < since).map(wrap) };
  const kept = (o: PosOrder) => {
    const at = first.get(customerKey(o));
    return at !== undefined && (mode === "new" ? at >= since && at <= until : at < since);
  };
  return { entries: entries.filter((c) => kept(c.order)) };
}
