import type { PosOrder } from "../../clients/schemas/pos.js";
import { customerIdOf } from "../../format/orders.js";
import { normalizePhone } from "../../format/phone.js";
import { recordDate, toDateInZone } from "../../format/time.js";
import { sanitizeName } from "../../text/sanitize.js";
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
