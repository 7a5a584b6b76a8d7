import { copyOffsetMs, copySuffix, earlier, earlierOrNull, offsetWithin } from "../copies.js";
import type { InboxCopies } from "../messaging/scale.js";
import type { Person } from "../people.js";
import { Random } from "../random.js";
import { FIRST_ORDER_ID, trackingLink } from "./order-model.js";
import { shortName } from "./seed-customers.js";
import { nextNumber, type PosState } from "./state.js";
import { ms } from "./time.js";
import type { CustomerRecord, OrderRecord } from "./types.js";
import { ORDER_TIMES as ORDER_TIMES_LISTED } from "./order-times.js";
import { type Derivation, derivedCopy } from "./derived.js";

export interface OrderCopyContext {
  people: readonly Person[];
  /** copies[k - 1]: copy k of each person, by index. */
  copies: readonly Person[][];
  inbox: InboxCopies;
  /** When each of the inbox's posts was published (UTC ms): an order that names one stays after it. */
  postTimes: ReadonlyMap<string, number>;
}

/** Who a copied customer is in copy k: the person the seed made them from, and that person's copy. */
interface Twin {
  person: Person;
  copy: Person;
}

/** Top-level order fields that hold a record time: those the list filters on, and the last status change. */
const ORDER_TIMES = [...ORDER_TIMES_LISTED, "last_update_status_at"] as const;
const TIME_TEXT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

/**
 * Copies every order once per `copies` entry, and each customer who bought, so orders per
 * customer and repeat buyers keep their shape: copy k of an order has fresh ids (id, display_id,
 * system_id, item ids, carrier code) after the seeded ones, every time moved back by k's offset,
 * everything else as the original (status, source, carrier, address, staff, warehouse, money),
 * and points to copy k of its customer and of its inbox thread. A customer's copy is the copy of
 * the person the seed made them from (another name, phone, chat ids; the same address and level)
 * with their point logs. Returns, stock and the books stay the one shop's.
 */
export function scaleOrders(state: PosState, ctx: OrderCopyContext): void {
  const orders = [...state.orders];
  const buyers = new Set(orders.map((o) => o.shop_customer_id));
  const customers = state.customers.filter((c) => buyers.has(c.id));
  const byPhone = new Map(ctx.people.flatMap((p, i) => [[p.phone, i] as const, [p.otherPhone, i] as const]));
  const logs = state.pointLogs.filter((l) => buyers.has(l.shop_customer_id));
  const byDisplayId = new Map(orders.map((o) => [o.display_id, o.id]));
  ctx.copies.forEach((people, index) => {
    const k = index + 1;
    const offset = copyOffsetMs(k);
    const rng = new Random(0x706f7363 + k * 7919);
    const twins = new Map<string, { customer: CustomerRecord; twin: Twin }>();
    for (const original of customers) {
      const i = byPhone.get(original.phone_numbers[0] ?? "");
      if (i === undefined) continue;
      const twin = { person: ctx.people[i]!, copy: people[i]! };
      const customer = copyCustomer(original, k, twin, rng, (id) => ctx.inbox.customerId(id, k));
      twins.set(original.id, { customer, twin });
      state.customers.push(customer);
    }
    const ids = new Map<number, OrderRecord>();
    const lastOrder = new Map<CustomerRecord, string>();
    for (const original of orders) {
      const posted = original.post_id === null ? undefined : ctx.postTimes.get(original.post_id);
      const moved = posted === undefined ? offset : offsetWithin(k, ms(original.inserted_at) - posted - 1000);
      const buyer = original.shop_customer_id === null ? undefined : twins.get(original.shop_customer_id);
      const n = nextNumber(state, "order");
      const firstItemId = (state.sequences.orderItem ?? 0) + 1;
      state.sequences.orderItem = firstItemId + original.items.length - 1;
      const derivation = { items: original.items, history: original.status_history, partner: original.partner, k, offset: moved, firstItemId };
      const order = copyOrder(state, original, n, derivation, buyer, (id) => ctx.inbox.conversationId(id, k));
      ids.set(original.id, order);
      state.orders.push(order);
      if (buyer && !order.is_removed) lastOrder.set(buyer.customer, order.inserted_at);
    }
    for (const order of ids.values()) {
      if (order.change_by_orders) order.change_by_orders = order.change_by_orders.map((id) => ids.get(id)?.id ?? id);
    }
    for (const [customer, at] of lastOrder) customer.last_order_at = at;
    for (const log of logs) {
      const twin = twins.get(log.shop_customer_id);
      if (!twin) continue;
      state.pointLogs.push({
        ...log,
        shop_customer_id: twin.customer.id,
        inserted_at: earlier(log.inserted_at, offset),
        // "… đơn hàng #12": the order's number the shop sees is the copy's.
        note: log.note.replace(/#(\d+)$/, (text, display: string) => {
          const copy = ids.get(byDisplayId.get(Number(display)) ?? Number.NaN);
          return copy ? `#${copy.display_id}` : text;
        }),
      });
    }
  });
}

/** The copy's text where the original person's phone, name or short name stood. */
function swap(text: string, { person, copy }: Twin): string {
  if (text === person.name) return copy.name;
  if (text === shortName(person)) return shortName(copy);
  return text.replaceAll(person.phone, copy.phone).replaceAll(person.otherPhone, copy.otherPhone);
}

function copyCustomer(c: CustomerRecord, k: number, twin: Twin, rng: Random, inboxCustomer: (id: string) => string | undefined): CustomerRecord {
  const offset = copyOffsetMs(k);
  const { person, copy } = twin;
  const name = swap(c.name, twin);
  // `…?customer_id=<the inbox's id of the person>`: copy k's link names copy k's page customer.
  const link = c.conversation_link?.replace(/customer_id=([^&]+)/, (text, id: string) => {
    const twinId = inboxCustomer(id);
    return twinId ? `customer_id=${twinId}` : text;
  });
  return {
    ...c,
    id: rng.uuid(),
    customer_id: rng.uuid(),
    name,
    emails: c.emails.map((e) => e.replace("@", `.${copySuffix(k)}@`)),
    phone_numbers: c.phone_numbers.map((p) => swap(p, twin)),
    tags: [...c.tags],
    shop_customer_address: c.shop_customer_address.map((a) => ({
      ...a,
      id: rng.uuid(),
      full_name: swap(a.full_name, twin),
      phone_number: swap(a.phone_number, twin),
    })),
    fb_id: c.fb_id === person.psid ? copy.psid : c.fb_id === person.fbId ? copy.fbId : c.fb_id,
    pages_customers: c.pages_customers.map((p) => ({ ...p })),
    conversation_link: link ?? null,
    inserted_at: earlier(c.inserted_at, offset),
    updated_at: earlier(c.updated_at, offset),
    last_order_at: earlierOrNull(c.last_order_at, offset),
  };
}

function copyOrder(
  state: PosState,
  o: OrderRecord,
  n: number,
  derivation: Derivation,
  buyer: { customer: CustomerRecord; twin: Twin } | undefined,
  thread: (id: string) => string | undefined,
): OrderRecord {
  const id = FIRST_ORDER_ID + n;
  const as = (text: string) => (buyer ? swap(text, buyer.twin) : text);
  const values: Partial<OrderRecord> = {
    id,
    system_id: id,
    display_id: n,
    tracking_link: trackingLink(state, id),
    conversation_id: o.conversation_id === null ? null : (thread(o.conversation_id) ?? null),
    bill_full_name: as(o.bill_full_name),
    bill_phone_number: as(o.bill_phone_number),
    tags: [...o.tags],
    shipping_address: { ...o.shipping_address, full_name: as(o.shipping_address.full_name), phone_number: as(o.shipping_address.phone_number) },
    customer:
      o.customer && buyer
        ? { ...o.customer, id: buyer.customer.id, customer_id: buyer.customer.customer_id, fb_id: buyer.customer.fb_id, name: buyer.customer.name }
        : o.customer,
    shop_customer_id: buyer ? buyer.customer.id : o.shop_customer_id,
  };
  for (const field of ORDER_TIMES) {
    const value = o[field];
    if (typeof value === "string" && TIME_TEXT.test(value)) values[field] = earlier(value, derivation.offset);
  }
  return derivedCopy(o, values, derivation);
}
