import { z } from "zod";
import type { PosCustomer, PosCustomerNote, PosPointLog } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";
import { normalizePhone } from "../../format/phone.js";
import { recordTime } from "../../format/time.js";

// Customer records, point logs and notes as assistants read them. Names and contact data come
// from customers; notes and point-log notes are staff text: the field names say so.

export const customerRowSchema = z.looseObject({
  id: z.string().optional(),
  customer_name: z.string().optional(),
  reward_point: z.number().optional(),
  order_count: z.number().optional(),
});

/**
 * What a customer row's order figures count, said once per answer, in the POS OpenAPI's words:
 * order_count "Số lượng đơn hàng", succeed_order_count "Số lượng đơn hàng thành công",
 * purchased_amount "Tổng giá trị mua" (total purchase value; the words of the levels'
 * upgrade_by_total_purchase, so the figure levels go by). Its example customer has 108 orders of
 * which 8 succeeded: order_count counts orders that did not succeed too. The inbox's OpenAPI calls
 * the same figure "Net amount the customer has purchased": the goods of the successful orders
 * (received, money collected), as the sandbox keeps it; a customer whose only order came back has
 * 0. Said so, because an owner reading "0 spent" beside one order asked which orders it sums.
 */
export const ORDER_FIGURES =
  "As the POS keeps them, all time, not the sales of the other tools: order_count: every order, canceled and deleted ones included; succeeded_orders: the delivered ones (received, money_collected); purchased_amount: the POS's own field, the goods of those delivered orders (their total_price: after item discounts, before order discounts, shipping excluded), orders not delivered, returned, canceled or deleted adding nothing. Their sales (canceled and deleted left out, amount after every discount): search_orders with customer_id.";

/** Customer-entered strings (phones, emails, tags), each sanitized, blanks dropped. */
const names = (values: readonly unknown[] | null | undefined) =>
  (values ?? []).map((v) => sanitizeName(v)).filter((v): v is string => v !== undefined);

/**
 * A customer as an assistant needs one: the level by name, each address as written with its id (to
 * edit it by), its receiver and phone only where they are not the customer's own; the place ids
 * the address names already are left to detail "full".
 */
export function customerRow(c: PosCustomer, timeZone: string, levels?: ReadonlyMap<string, string>) {
  const raw = c as Record<string, unknown>;
  const levelId = id(c.level_id);
  const customerName = sanitizeName(c.name);
  const phones = names(c.phone_numbers);
  const own = new Set(phones.map((p) => normalizePhone(p) ?? p));
  return {
    id: id(c.id),
    customer_name: customerName,
    phones,
    emails: names(c.emails),
    gender: sanitizeName(c.gender),
    date_of_birth: c.date_of_birth ?? undefined,
    reward_point: num(c.reward_point),
    level: levelId && (levels?.get(levelId) ?? levelId),
    order_count: num(c.order_count),
    succeeded_orders: num(c.succeed_order_count),
    purchased_amount: num(c.purchased_amount),
    tags: names(c.tags),
    blocked: raw.is_block === true || undefined,
    addresses: (c.shop_customer_address ?? []).map((a) => {
      const receiver = sanitizeName(a.full_name);
      const phone = sanitizeName(a.phone_number);
      return {
        id: id(a.id),
        full_address: sanitizeText(a.full_address ?? a.address, { max: 300 }),
        receiver_name: receiver === customerName ? undefined : receiver,
        phone: phone && own.has(normalizePhone(phone) ?? phone) ? undefined : phone,
      };
    }),
    created_at: recordTime(raw.inserted_at, timeZone),
    last_order_at: recordTime(raw.last_order_at, timeZone),
  };
}

const creatorName = (creator: unknown) => {
  const c = (creator ?? {}) as Record<string, unknown>;
  return sanitizeName(c.name ?? c.fb_name);
};

export function pointLogRow(log: PosPointLog, timeZone: string) {
  return {
    change: num(log.amount),
    balance: num(log.current_point),
    staff_note: sanitizeText(log.note, { max: 300 }),
    by: creatorName(log.creator),
    at: recordTime(log.inserted_at, timeZone),
  };
}

export function noteRow(note: PosCustomerNote, timeZone: string) {
  return {
    id: id(note.id),
    staff_text: sanitizeText(note.message, { max: 1000 }),
    images: (note.images ?? []).map((i) => id((i as Record<string, unknown> | null)?.url)).filter((u): u is string => u !== undefined),
    order_id: id(note.order_id),
    by: creatorName(note.created_by),
    created_at: recordTime(note.created_at, timeZone),
    updated_at: recordTime(note.updated_at, timeZone),
  };
}
