import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { PAYMENT_TYPES } from "../../clients/pos-codes.js";
import type { ResolvedItem } from "./resolve-items.js";

/**
 * How the customer pays, said by the call rather than left to the POS. "cod": the carrier collects
 * the order's amount on delivery (the POS reckons it: cod, money_to_collect). "prepaid": the amount
 * is recorded as paid by bank transfer, `transfer_money` of the create body (pos-openapi.yaml, Create
 * order; it has no `prepaid` field), so nothing is left to collect. Left out, the POS collects it all
 * on delivery, and the answer says so.
 */
export const paymentInput = z.enum(["cod", "prepaid"]).optional().describe("prepaid: paid by transfer");
export type Payment = z.output<typeof paymentInput>;

type Extra = Record<string, unknown> | undefined;

const amount = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/**
 * What the customer owes as the call gives the order: each line at its price less its discount,
 * less the order discount, plus the shipping fee unless shipping is free. The POS may take off
 * its own promotions: the order read back says what it holds.
 */
export function orderDue(lines: ResolvedItem[], fields: { shipping_fee?: number | undefined; total_discount?: number | undefined; extra?: Extra }): number {
  const goods = lines.reduce((sum, { input, variation }) => sum + ((input.price ?? variation.retail_price ?? 0) - (input.discount_each ?? 0)) * input.quantity, 0);
  const shipping = fields.extra?.is_free_shipping === true ? 0 : (fields.shipping_fee ?? 0);
  return Math.max(0, goods - (fields.total_discount ?? 0) + shipping);
}

/**
 * The body's payment fields for a choice, and what is left to collect on delivery. Amounts paid
 * through `extra` (a deposit by transfer, cash) count as paid; with "prepaid" they would be paid
 * twice, so that pair is refused.
 */
export function paymentOf(payment: Payment, due: number, extra: Extra): { fields: Record<string, number>; collect: number } {
  const paid = PAYMENT_TYPES.filter((field) => extra?.[field] !== undefined);
  if (payment === "prepaid") {
    if (paid.length) throw new InputError(`extra.${paid[0]}`, 'is an amount paid, and payment "prepaid" records the whole order as paid', 'Leave payment out to collect the rest on delivery, or drop the amount from extra.');
    return { fields: { transfer_money: due }, collect: 0 };
  }
  return { fields: {}, collect: Math.max(0, due - paid.reduce((sum, field) => sum + amount(extra?.[field]), 0)) };
}
