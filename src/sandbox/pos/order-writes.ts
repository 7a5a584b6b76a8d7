import { invalid, notFound } from "./api.js";
import { ORDER_STATUSES, PAYMENT_TYPES } from "../../clients/pos-codes.js";
import {
  FIRST_ORDER_ID,
  applyTotals,
  cancelOrder,
  changeStock,
  moveStatus,
  newOrder,
  orderItem,
  renderedOld,
  shipOrder,
  shippingAddress,
  wardAddress,
  warehouseInfo,
} from "./order-model.js";
import { own } from "./derived.js";
import { posLists } from "./lists.js";
import { makeReturn } from "./return-model.js";
import { newCustomer } from "./customer-model.js";
import { nextNumber, type PosState, tell, writeTime } from "./state.js";
import { iso } from "./time.js";
import type { CustomerRecord, OrderItem, OrderRecord, ReturnOrderRecord, ShippingAddress } from "./types.js";

type Body = Record<string, unknown>;

const ORDER_CODES = new Set(ORDER_STATUSES.map((row) => row.code));
const RETURN_CODES = new Set([0, 1, 2, 4]);
/** Plain fields a create or an update copies from the body when present. */
const COPIED = [
  "bill_full_name",
  "bill_phone_number",
  "bill_email",
  "note",
  "note_print",
  "custom_id",
  "shipping_fee",
  "total_discount",
  ...PAYMENT_TYPES,
  "is_free_shipping",
  "received_at_shop",
  "returned_reason",
  "tags",
  "conversation_id",
  "post_id",
] as const;

const asRecords = (value: unknown): Body[] =>
  Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null) ? (value as Body[]) : [];

function editor(state: PosState) {
  return state.users[0]!;
}

function warehouseOf(state: PosState, id: unknown) {
  if (id === undefined || id === null) return state.warehouses.find((w) => w.allow_create_order) ?? state.warehouses[0]!;
  const warehouse = state.warehouses.find((w) => w.id === id);
  if (!warehouse) throw invalid();
  return warehouse;
}

/** Order items from a payload; `quantity` (or `returned_quantity` in exchange orders) >= 1. */
function itemsOf(state: PosState, value: unknown): OrderItem[] {
  const rows = asRecords(value);
  if (!rows.length) throw invalid();
  return rows.map((row) => {
    const variation = state.variations.find((v) => v.id === row.variation_id);
    const quantity = Number(row.quantity ?? row.returned_quantity);
    if (!variation || !Number.isInteger(quantity) || quantity < 1) throw invalid();
    const item = orderItem(nextNumber(state, "orderItem"), variation, quantity, Number(row.discount_each_product ?? 0));
    const info = row.variation_info as Body | undefined;
    if (typeof info?.retail_price === "number") item.variation_info.retail_price = info.retail_price;
    return item;
  });
}

/** The fields of the form an address is written in, on the vendor's order records. */
const FORM_FIELDS = ["render_type", "new_province_id", "new_full_address"] as const;

const formFields = (from: object) => Object.fromEntries(FORM_FIELDS.filter((k) => k in from).map((k) => [k, (from as Body)[k]])) as Partial<ShippingAddress>;

/**
 * The address a write leaves on an order. The names and the old full text follow the ids, as the
 * POS fills them from its address data; the form fields (render_type, new_province_id,
 * new_full_address) are kept as sent, and a new order given none has them as the vendor's records
 * show a three-tier address. An update that sends none keeps the order's: no document says the
 * POS works them out again, so a client moving an address between forms must send them.
 */
function addressOf(state: PosState, value: unknown, name: string, phone: string, previous?: ShippingAddress): ShippingAddress | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const a = value as Body;
  const full = String(a.full_name ?? name);
  const tel = String(a.phone_number ?? phone);
  const sent = formFields(a);
  // A known ward or commune id places the address in its tiers, whatever else the body says.
  const ward = state.geo.wards.find((w) => w.id === a.commune_id);
  if (ward) return { ...wardAddress(state.geo, ward, String(a.address ?? ""), full, tel), ...sent };
  if (typeof a.commune_id === "string" && state.geo.communes.some((c) => c.id === a.commune_id)) {
    const placed = shippingAddress(state.geo, a.commune_id, String(a.address ?? ""), full, tel);
    return { ...(previous ? { ...placed, ...formFields(previous) } : renderedOld(state.geo, placed)), ...sent };
  }
  return { ...(a as unknown as ShippingAddress), full_name: full, phone_number: tel };
}

/**
 * The shop customer with this phone, else with the order's customer.fb_id (the OpenAPI's create
 * body: an order made in a chat), created on first order as the live service does. A POS record
 * carries an fb_id at all because an order made in the chat created it.
 */
function customerFor(state: PosState, name: string, phone: string, at: string, fbId: unknown): CustomerRecord | null {
  const social = typeof fbId === "string" && fbId ? fbId : null;
  if (!phone && !social) return null;
  const found = state.customers.find((c) => (phone && c.phone_numbers.includes(phone)) || (social && c.fb_id === social));
  if (found) return found;
  const customer = newCustomer(state, at, { name, phone_numbers: phone ? [phone] : [], fb_id: social });
  state.customers.push(customer);
  return customer;
}

function statusOf(value: unknown, codes: Set<number>): number | undefined {
  if (value === undefined || value === null) return undefined;
  const code = Number(value);
  if (!Number.isInteger(code) || !codes.has(code)) throw invalid();
  return code;
}

function copyFields(order: OrderRecord, body: Body): void {
  for (const field of COPIED) if (body[field] !== undefined) order[field] = body[field] as never;
}

/** POST /orders: a new order (and its customer) from the create payload; stock is taken out. */
export function createOrder(state: PosState, body: Body): OrderRecord {
  const at = iso(writeTime(state));
  const items = itemsOf(state, body.items);
  const status = statusOf(body.status, ORDER_CODES);
  const warehouse = warehouseOf(state, body.warehouse_id);
  const name = String(body.bill_full_name ?? "");
  const phone = String(body.bill_phone_number ?? "");
  const pageId = typeof body.page_id === "string" ? body.page_id : null;
  const sourceId = String(body.order_sources ?? (pageId ? "-1" : "-2"));
  const source = state.orderSources.find((s) => String(s.id) === sourceId);
  if (!source) throw invalid();
  const n = nextNumber(state, "order");
  // The OpenAPI links the customer as customer.id; without one, the phone finds or makes one.
  const given = (body.customer ?? {}) as Body;
  const customer = state.customers.find((c) => c.id === given.id) ?? customerFor(state, name, phone, at, given.fb_id);
  const order = newOrder(state, {
    id: FIRST_ORDER_ID + n,
    displayId: n,
    at,
    creator: editor(state),
    warehouse,
    customer,
    billName: name,
    billPhone: phone,
    address: addressOf(state, body.shipping_address, name, phone) ?? shippingAddress(state.geo, "", "", name, phone),
    items,
    source: {
      id: sourceId,
      name: source.name,
      account: pageId ?? (body.account === undefined ? null : String(body.account)),
      accountName: typeof body.account_name === "string" ? body.account_name : null,
    },
  });
  copyFields(order, body);
  // The page the order came through, whatever its platform (newOrder sets it for Facebook only).
  if (pageId) order.page_id = pageId;
  if (pageId && order.customer) order.customer.page_id = pageId;
  if (typeof body.assigning_seller_id === "string") {
    order.assigning_seller_id = body.assigning_seller_id;
    order.time_assign_seller = at;
  }
  applyTotals(order);
  if (status !== undefined) moveStatus(order, editor(state), status, at);
  for (const item of items) changeStock(state, item.variation_id, warehouse.id, -item.quantity, 0);
  if (customer) {
    customer.order_count += 1;
    customer.last_order_at = at;
    tell(state, { type: "customers", customer });
  }
  state.orders.push(order);
  tell(state, { type: "orders", order });
  return order;
}

/**
 * What PUT /orders/{id} with an api key does not take, though it answers success: the fees are
 * ignored or recomputed and customer_pay_fee is ignored. Reported by a public POS client that
 * replays production traces (/work/shared/reference/README.md), not documented: the sandbox
 * behaves so, so that the demo and the tests show what the live shop does.
 */
const IGNORED_BY_UPDATE = new Set<string>(["shipping_fee", "partner_fee", "is_free_shipping", "total_discount", "surcharge", "customer_pay_fee"]);

/**
 * PUT /orders/{id}: fields present in the body replace the order's (but those above); a status
 * change is logged. Items are replaced only while the order is new (status 0), as reported of
 * the live POS (same source); past it they are kept as they were.
 */
export function updateOrder(state: PosState, order: OrderRecord, body: Body): OrderRecord {
  const at = iso(writeTime(state));
  const status = statusOf(body.status, ORDER_CODES);
  const items = body.items === undefined || order.status !== 0 ? undefined : itemsOf(state, body.items);
  if (body.warehouse_id !== undefined) {
    const warehouse = warehouseOf(state, body.warehouse_id);
    order.warehouse_id = warehouse.id;
    order.warehouse_info = warehouseInfo(warehouse);
  }
  copyFields(order, Object.fromEntries(Object.entries(body).filter(([key]) => !IGNORED_BY_UPDATE.has(key))));
  if (items) order.items = items;
  const address = addressOf(state, body.shipping_address, order.bill_full_name, order.bill_phone_number, order.shipping_address);
  if (address) order.shipping_address = address;
  applyTotals(order);
  order.updated_at = at;
  if (status === 6) cancelOrder(state, order, editor(state), at);
  else if (status === 2) shipOrder(state, order, editor(state), at);
  else if (status !== undefined) moveStatus(order, editor(state), status, at);
  tell(state, { type: "orders", order });
  return order;
}

/** The order of an id, its fields its own to change (derived.ts). */
export function findOrder(state: PosState, id: string): OrderRecord {
  const order = posLists(state).orderById.get(id)[0];
  if (!order) throw notFound("order_not_found");
  return own(order);
}

/**
 * POST /orders_returned: returns items of the original order (restocked into `warehouse_id`)
 * and, when `order_additional` has items, creates the exchange order.
 */
export function createReturn(state: PosState, body: Body): ReturnOrderRecord {
  const status = statusOf(body.status, RETURN_CODES);
  const link = body.order_to_returned as Body | undefined;
  if (status === undefined || link?.id === undefined) throw invalid();
  const original = findOrder(state, String(link.id));
  const warehouse = warehouseOf(state, body.warehouse_id ?? original.warehouse_id);
  const lines = asRecords(body.returned_items).map((row) => {
    const item = original.items.find((it) => it.variation_id === row.variation_id);
    const quantity = Number(row.returned_quantity);
    if (!item || !Number.isInteger(quantity) || quantity < 1 || quantity > item.quantity - item.returned_count) {
      throw invalid();
    }
    return { item, quantity };
  });
  if (!lines.length) throw invalid();
  const extra = body.order_additional as Body | undefined;
  const exchange =
    extra && asRecords(extra.items).length
      ? createOrder(state, {
          bill_full_name: original.bill_full_name,
          bill_phone_number: original.bill_phone_number,
          shipping_address: original.shipping_address,
          customer: { id: extra.shop_customer_id ?? original.shop_customer_id },
          order_sources: original.order_sources,
          page_id: original.page_id,
          ...extra,
        })
      : null;
  const record = makeReturn(state, {
    id: nextNumber(state, "returnOrder"),
    original,
    lines,
    status,
    at: iso(writeTime(state)),
    warehouseId: warehouse.id,
    creator: editor(state),
    exchange,
    discount: Number(body.discount_from_order_to_returned ?? 0),
    restock: true,
  });
  record.discount_from_order_to_returned = record.discount;
  state.returnOrders.push(record);
  // The original counts the returned units (and names its exchange order): it changed too.
  tell(state, { type: "orders", order: original });
  return record;
}
