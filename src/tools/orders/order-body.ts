import { z } from "zod";
import { ORDER_STATUSES, requireStatus } from "../../clients/pos-codes.js";
import { jsonish } from "../inputs.js";
import { phoneInput } from "../pos/phone.js";
import { type ResolvedItem, variationInfo } from "./resolve-items.js";

// The order fields create_order and update_order share, and how they become the upstream body.

export const addressInput = z.object({
  address: z.string().max(300),
  commune_id: z.string().max(20).optional(),
  district_id: z.string().max(20).optional(),
  province_id: z.string().max(20).optional(),
});

const money = z.number().int().min(0).optional();

/** Fields of create_order and update_order besides items. */
export const orderFields = {
  customer_name: z.string().max(120).optional().describe("Receiver name"),
  phone: z.string().max(20).optional().describe("Receiver phone"),
  shipping_address: jsonish(addressInput).optional().describe("Street + place names, or ids (lookup_address)"),
  warehouse_id: z.string().max(120).optional().describe("Warehouse id or name"),
  status: z.union([z.string().max(40), z.number().int()]).optional().describe("Status name or code"),
  // Reported of the live POS: an update through the API leaves fees as they were (order-changes.ts),
  // so a fee is set when the order is made or in the POS app; a model should know before it creates.
  shipping_fee: money.describe("Fee; only set at creation"),
  total_discount: money.describe("Order discount; only set at creation"),
  note: z.string().max(2000).optional().describe("Internal note"),
  extra: jsonish(z.record(z.string(), z.unknown()))
    .optional()
    .describe("Other order fields (cash, page_id, …)"),
};

const fields = z.object(orderFields);
type OrderFields = z.output<typeof fields>;

/**
 * The upstream body of the given fields, items aside (see itemLines); checks the status name.
 * `addressForm` holds the fields a two-tier address adds to shipping_address (address-names.ts).
 */
export function orderBody(input: OrderFields, addressForm?: object): Record<string, unknown> {
  const { customer_name, phone, shipping_address, status, extra, ...rest } = input;
  const body: Record<string, unknown> = { ...extra, ...rest };
  if (customer_name !== undefined) body.bill_full_name = customer_name;
  const tel = phone === undefined ? undefined : phoneInput("phone", phone);
  if (tel !== undefined) body.bill_phone_number = tel;
  if (status !== undefined) body.status = requireStatus("status", ORDER_STATUSES, status);
  if (shipping_address) {
    body.shipping_address = {
      country_code: "84",
      full_name: customer_name,
      phone_number: tel,
      ...Object.fromEntries(Object.entries(shipping_address).filter(([, v]) => v !== undefined)),
      ...addressForm,
    };
  }
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** Upstream order lines of resolved items. */
export function itemLines(items: ResolvedItem[]) {
  return items.map(({ input: it, variation }) => ({
    variation_id: String(variation.id),
    product_id: variation.product_id == null ? undefined : String(variation.product_id),
    quantity: it.quantity,
    discount_each_product: it.discount_each ?? 0,
    is_bonus_product: false,
    is_discount_percent: false,
    is_wholesale: false,
    one_time_product: false,
    variation_info: variationInfo(variation, it.price),
  }));
}
