import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { orderStatusName } from "../../format/orders.js";
import { sanitizeText } from "../../text/sanitize.js";
import { jsonish } from "../inputs.js";
import { orderTags, refId } from "../pos/shop-refs.js";
import { addressFields, notApplied, phones, readBack, type SentField } from "../verify.js";

// What update_order does to one order and to each of a batch (order-batch.ts): the checks made
// before an order is changed, the note kept or replaced, the tags added or removed, and the
// write read back.

const CANCELED = 6;

/** Text added below the staff note, and the reason a cancellation keeps there. */
export const noteChange = {
  add_note: z.string().max(2000).optional().describe("Added below the note"),
  reason: z.string().max(500).optional().describe("Why cancelled; added to the note"),
};

const tagNames = jsonish(z.array(z.union([z.string().max(80), z.number().int()])).max(20)).optional();

/** Tags added to or taken off an order: the order's other tags stay. */
export const tagChange = {
  add_tags: tagNames.describe("Tag names or ids; others kept"),
  remove_tags: tagNames.describe("Tag names or ids"),
};

/**
 * The tag ids a change names (checked against the shop's order tags before anything is sent),
 * and the shop's tags by id, to name what an order ends with.
 */
export async function resolveTags(pos: PosClient, shopId: string, change: { add_tags?: (string | number)[] | undefined; remove_tags?: (string | number)[] | undefined }) {
  const list = change.add_tags?.length || change.remove_tags?.length ? await orderTags(pos, shopId) : [];
  const pick = (field: string, values: (string | number)[] | undefined) => (values ?? []).map((v, i) => Number(refId(`${field}[${i}]`, list, v)));
  return { add: pick("add_tags", change.add_tags), remove: pick("remove_tags", change.remove_tags), known: new Map(list.map((t) => [t.id, t.name])) };
}

/** Refuses an order no change is meant for: a number can name a deleted order (get_order shows it). */
export function requireLive(order: PosOrder, field = "order_id"): void {
  if ((order as { is_removed?: unknown }).is_removed === true) {
    throw new InputError(field, `order #${order.display_id ?? order.id} was deleted`, "Restore it in the POS first, or pick another order with search_orders.");
  }
}

/**
 * Lines can be replaced only while the order is new (status 0): reported of the live POS by a
 * public client that replays production traces (/work/shared/reference/README.md). Refused
 * before anything is sent, naming the way out.
 */
export function requireNew(order: PosOrder, field = "items"): void {
  if (order.status === 0 || order.status === undefined || order.status === null) return;
  throw new InputError(
    field,
    `order #${order.display_id ?? order.id} is ${orderStatusName(order.status) ?? "past new"} (status ${order.status}): its lines can be replaced only while it is new (status 0)`,
    "To take items back, use create_return_order (toolset orders; exchange_items for what goes out instead); to sell other items, create a new order with create_order.",
  );
}

/**
 * The note an order gets: `note` replaces the staff note (the POS keeps one), `add_note` goes
 * below it, and a cancellation's `reason` below that. A replaced note is given back so nothing
 * the staff wrote is lost unseen.
 */
export function nextNote(
  current: string | null | undefined,
  change: { note?: string | undefined; add_note?: string | undefined; reason?: string | undefined },
  status: number | undefined,
): { note?: string; replaced?: string } {
  const { note, add_note, reason } = change;
  if (reason !== undefined && status !== CANCELED) {
    throw new InputError("reason", "goes with status cancelled", "To add text to the note, pass add_note.");
  }
  const before = current?.trim() ?? "";
  const below = (base: string | undefined, line: string | undefined) => (line?.trim() ? (base ? `${base}\n${line.trim()}` : line.trim()) : base);
  const text = below(below(note ?? (add_note || reason ? before : undefined), add_note), reason?.trim() && `Lý do hủy: ${reason.trim()}`);
  const replaced = note !== undefined && before && before !== note.trim() ? sanitizeText(before, { max: 500 }) : undefined;
  return { ...(text === undefined ? {} : { note: text }), ...(replaced ? { replaced } : {}) };
}

/** An order's tags as {id, name} pairs (the list gives objects, older records bare ids). */
export function tagsOf(value: unknown, known: Map<string, string>): { id: number; name: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((tag) => {
    const tagId = typeof tag === "object" && tag !== null ? (tag as { id?: unknown }).id : tag;
    if (tagId === undefined || tagId === null) return [];
    const name = typeof tag === "object" && tag !== null ? (tag as { name?: unknown }).name : undefined;
    return [{ id: Number(tagId), name: String(name ?? known.get(String(tagId)) ?? tagId) }];
  });
}

/** The tags an order ends with: its own but `remove`, then `add` (ids of the shop's tag list). */
export function nextTags(order: PosOrder, known: Map<string, string>, add: number[], remove: number[]) {
  const current = tagsOf(order.tags, known).filter((t) => !remove.includes(t.id));
  return [...current, ...add.filter((tagId) => !current.some((t) => t.id === tagId)).map((tagId) => ({ id: tagId, name: known.get(String(tagId)) ?? String(tagId) }))];
}

/** Order fields the POS keeps to itself on an update through the API (see the sandbox's order-writes.ts). */
const FEES = new Set(["shipping_fee", "partner_fee", "is_free_shipping", "total_discount", "surcharge", "customer_pay_fee"]);
const FEES_KEPT = "The POS keeps its own fees and discount on an existing order (an update through the API is ignored)";
/** Statuses before the parcel leaves with the carrier: the order can still be made again. */
const BEFORE_SHIPPING = new Set([0, 17, 11, 20, 1, 12, 13, 8, 9]);
/** What to do about a fee that did not take: an order already with the carrier cannot just be made again. */
const feeFix = (status: unknown) =>
  BEFORE_SHIPPING.has(Number(status))
    ? `${FEES_KEPT}: set it in the POS app, or create the order again with it (create_order) and cancel this one.`
    : `${FEES_KEPT}, and this one is already with the carrier: set it in the POS app, and tell the carrier if the COD changes.`;
const ITEMS_FIX = "The POS replaces lines only while an order is new: use create_return_order (toolset orders), or create a new order.";
/** Body keys under the name the tools take them by. */
const PARAMS: Record<string, string> = { bill_full_name: "customer_name", bill_phone_number: "phone" };

const lines = (items: unknown) =>
  Array.isArray(items) ? items.map((it: { variation_id?: unknown; quantity?: unknown }) => ({ variation_id: String(it.variation_id), quantity: Number(it.quantity) })) : items;
const tagIds = (tags: unknown) => tagsOf(tags, new Map()).map((t) => t.id);

/** Each field of an order update's body beside what the order read back holds there. */
function orderChecks(body: Record<string, unknown>, order: PosOrder): SentField[] {
  const held = order as Record<string, unknown>;
  return Object.entries(body).map(([key, sent]): SentField => {
    const field = PARAMS[key] ?? key;
    if (key === "status") return { field, sent: orderStatusName(sent), held: orderStatusName(held.status) };
    if (key === "items") return { field, sent: lines(sent), held: lines(held.items), fix: ITEMS_FIX };
    if (key === "tags") return { field, sent: tagIds(sent), held: tagIds(held.tags) };
    if (key === "shipping_address") return { field, sent: addressFields(sent), held: addressFields(held.shipping_address) };
    if (key === "bill_phone_number") return { field, sent: phones(sent), held: phones(held[key]) };
    return { field, sent, held: held[key], fix: FEES.has(key) ? feeFix(held.status) : undefined };
  });
}

/**
 * Sends an order update once (never retried: a timeout throws OutcomeUnknownError), then reads
 * the order back: the record as it now is, and what of the body it does not hold.
 */
export async function writeOrder(pos: PosClient, shopId: string, orderId: string, body: Record<string, unknown>) {
  await pos.updateOrder(shopId, orderId, body);
  const back = await readBack("order change", () => pos.getOrder(shopId, orderId));
  if (!back.record) return { unverified: back.unverified };
  return { record: back.record, not_applied: notApplied(orderChecks(body, back.record)) };
}
