import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosCustomer } from "../../clients/schemas/pos.js";
import { orderCurrency, orderDetail, orderDetailSchema } from "../../format/orders.js";
import { formatMoney } from "../../format/money.js";
import { normalizePhone } from "../../format/phone.js";
import { sanitizeLine, sanitizeName } from "../../text/sanitize.js";
import { linesText } from "../confirm.js";
import { CREATE, defineTool, type ToolContext } from "../define.js";
import { type Chat, readChat } from "../inbox/chat-profile.js";
import { jsonish, optionalPageIdInput, shopIdInput } from "../inputs.js";
import { customerRecord, customersByPhoneOrName } from "../pos/customer-ref.js";
import { planned } from "../pos/plan.js";
import { orderNames, orderSources, type Ref, sourcePair, warehouseRef } from "../pos/shop-refs.js";
import { shopScope } from "../pos/shop-scope.js";
import { addressIds, addressMatchSchema, addressText } from "./address-names.js";
import { itemLines, orderBody, orderFields } from "./order-body.js";
import { orderDue, type Payment, paymentInput, paymentOf } from "./order-payment.js";
import { chatCustomer, chatLink, fromChat } from "./order-chat.js";
import { itemsInput, namedLines, resolveItems } from "./resolve-items.js";
import { type ShipFrom, shipFrom } from "./ship-from.js";

const input = z.object({
  shop_id: shopIdInput,
  items: jsonish(itemsInput).describe("Lines: variation_id, or product (name/SKU/barcode) + variant words"),
  ...orderFields,
  payment: paymentInput,
  customer_id: z.string().max(120).optional().describe("Customer id, phone or name"),
  source: z.string().max(120).optional().describe("Source or page name/id"),
  conversation_id: z.string().max(300).optional().describe("Chat it is for: fills receiver"),
  page_id: optionalPageIdInput,
});

/** "Facebook/Mây Kids": the names of a source id and its account id. */
const refNames = (list: Ref[], ...ids: unknown[]) =>
  ids.flatMap((id) => (id === undefined ? [] : [list.find((r) => r.id === String(id))?.name ?? String(id)])).join("/");

/**
 * What was chosen because the call did not say: the warehouse (one in the delivery's province that
 * holds every line, else the POS's default, with what the nearby one lacked), the source and the
 * payment. Said in the result, so a default is not taken for a choice.
 */
function defaultsTaken(
  args: { warehouse_id?: string | undefined; source?: string | undefined; shipping_fee?: number | undefined; payment?: Payment },
  ship: ShipFrom,
  detail: ReturnType<typeof orderDetail>,
) {
  const notes: string[] = [];
  if (args.warehouse_id === undefined && ship.warehouse) notes.push(`warehouse: ${ship.warehouse.name}, in the delivery's province with every item in stock (none given)`);
  else if (args.warehouse_id === undefined && detail.warehouse) {
    notes.push(`warehouse: ${detail.warehouse}, the POS's default (none given)${ship.why ? `; ${ship.why}` : ""}`);
  }
  if (args.source === undefined && detail.source) notes.push(`source: ${detail.source}, the POS's default (none given; pass source, e.g. the page the customer wrote on)`);
  // An update through the API cannot change fees later (order-changes.ts), so a fee left out is worth a word now.
  if (args.shipping_fee === undefined) notes.push(`shipping_fee: ${detail.shipping_fee ?? 0} (none given); the POS keeps an order's fees, so update_order cannot add one later`);
  if (args.payment === undefined) notes.push('payment: cash on delivery (none given; payment "prepaid" if the customer paid by transfer)');
  // The POS may take off promotions of its own: the amount sent as paid is then not its total.
  else if (args.payment === "prepaid" && (detail.cod ?? 0) > 0) notes.push(`payment: recorded as paid by transfer, yet the POS has ${detail.cod} to collect on delivery; check the order's payment in the POS app`);
  return notes;
}

type Fields = Omit<z.output<typeof input>, "shop_id" | "items" | "customer_id" | "source" | "conversation_id" | "page_id" | "payment">;

/**
 * The receiver's name, phone and address the call left out, from the customer's record: an order
 * for "the customer with phone 09…" otherwise went out with no name, no phone and the POS's
 * placeholder address. Says which it took. The record holds what a customer or anyone with POS
 * access typed: sanitized, on one line, and only a phone that reads as one.
 */
function fromCustomer(fields: Fields, customer: PosCustomer | undefined): { fields: Fields; filled: string[] } {
  if (!customer) return { fields, filled: [] };
  const out = { ...fields };
  const filled: string[] = [];
  const name = sanitizeName(customer.name);
  if (out.customer_name === undefined && name) [out.customer_name, filled[filled.length]] = [name, "name"];
  const phone = customer.phone_numbers?.map((p) => normalizePhone(String(p ?? ""))).find(Boolean);
  if (out.phone === undefined && phone) [out.phone, filled[filled.length]] = [phone, "phone"];
  const saved = customer.shop_customer_address?.find((a) => a.address || a.commune_id != null);
  if (out.shipping_address === undefined && saved) {
    const idOf = (v: unknown) => (v == null ? undefined : String(v));
    out.shipping_address = { address: sanitizeLine(saved.address) ?? "", commune_id: idOf(saved.commune_id), district_id: idOf(saved.district_id), province_id: idOf(saved.province_id) };
    filled.push("address");
  }
  return { fields: out, filled };
}

/**
 * The customer an order is for: the one named, else the one the chat surely belongs to, else the
 * only one with the receiver's phone. The chat's own phones were searched with the chat
 * (chatCustomers: one customer alone with one of them is a sure match), so only another is looked up.
 */
async function customerOf(ctx: ToolContext, shopId: string, customer_id: string | undefined, phone: string | undefined, chat: Chat | undefined) {
  if (customer_id !== undefined) return { customer: await customerRecord(ctx.pos, shopId, "customer_id", customer_id) };
  const linked = chat && (await chatCustomer(ctx.pos, shopId, chat));
  if (linked) return { customer: linked.customer, linked };
  if (phone === undefined || chat?.phones.includes(normalizePhone(phone) ?? phone)) return {};
  const found = await customersByPhoneOrName(ctx.pos, shopId, phone);
  return { customer: found.length === 1 ? found[0] : undefined };
}

/** Every name of the order resolved, before the user is asked and before anything is written. */
const plan = planned(async (args: z.output<typeof input>, ctx) => {
  const { shop_id, items, customer_id, source, conversation_id, page_id, payment, ...given } = args;
  if (page_id !== undefined && conversation_id === undefined) throw new InputError("page_id", "is the page of conversation_id", "Pass conversation_id with it, or drop page_id.");
  const { shopId, currency } = await shopScope(ctx, shop_id);
  const chat = conversation_id === undefined ? undefined : await readChat(ctx.messaging, conversation_id, page_id);
  const { customer, linked } = await customerOf(ctx, shopId, customer_id, given.phone, chat);
  const record = fromCustomer(given, customer);
  const captured = fromChat(record.fields, chat);
  const fields = captured.fields;
  const placed = await addressIds(ctx.pos, "shipping_address", fields.shipping_address);
  const body = orderBody({ ...fields, shipping_address: placed.address }, placed.form);
  // The OpenAPI links an order to its customer as customer.id (it has no shop_customer_id).
  if (customer) body.customer = { id: String(customer.id) };
  const warehouse = fields.warehouse_id === undefined ? undefined : await warehouseRef(ctx.pos, shopId, "warehouse_id", fields.warehouse_id);
  if (warehouse) body.warehouse_id = warehouse.id;
  const sources = source === undefined && !chat ? [] : await orderSources(ctx.pos, shopId);
  if (source !== undefined) {
    const [key, account] = source.split("/").map((s) => s.trim());
    const [sourceId, accountId] = sourcePair("source", sources, key!, account || undefined);
    body.order_sources = sourceId;
    // An order source's accounts are the shop's pages (and OAs): the order keeps one as page_id.
    if (accountId) body.page_id = accountId;
  }
  if (chat) chatLink(chat, body, sources, source !== undefined);
  const lines = await resolveItems(ctx.pos, shopId, items);
  body.items = itemLines(lines);
  const ship: ShipFrom = warehouse ? {} : await shipFrom(ctx.pos, shopId, placed.address?.province_id, lines);
  if (ship.warehouse) body.warehouse_id = ship.warehouse.id;
  const due = orderDue(lines, fields);
  const paying = paymentOf(payment, due, fields.extra);
  Object.assign(body, paying.fields);
  const who = sanitizeName(customer?.name) ?? customer?.id;
  const whose = linked ? `the record of ${who}, the POS customer of the chat (by ${linked.matched_by})` : `the customer's record (${who})`;
  const taken = [record.filled.length ? `${record.filled.join(", ")} from ${whose}` : "", captured.filled.length ? `${captured.filled.join(", ")} from the chat` : ""].filter(Boolean);
  const receiverFrom = taken.length ? taken.join("; ") : undefined;
  const linkedTo = chat && { conversation_id: chat.conversationId, page_id: chat.pageId, customer_id: customer === undefined ? undefined : String(customer.id), matched_by: linked?.matched_by };
  const sourceNames = body.order_sources === undefined ? undefined : refNames(sources, body.order_sources, body.page_id);
  return { shopId, currency, body, fields, receiverFrom, lines, placed, warehouse: warehouse ?? ship.warehouse, ship, due, collect: paying.collect, source: sourceNames, chat: linkedTo };
});

export const createOrder = defineTool({
  name: "create_order",
  title: "Create an order",
  // No example: the listed schema shows what a line and an address hold.
  description: "Create a sales order, for a customer or a chat.",
  toolset: "orders",
  annotations: CREATE,
  input,
  output: z.object({
    id: z.string(),
    order: orderDetailSchema,
    currency: z.string(),
    address_match: addressMatchSchema.optional(),
    chat: z.looseObject({ conversation_id: z.string(), page_id: z.string() }).optional().describe("The chat the order is linked to"),
    defaults: z.array(z.string()).optional().describe("What the POS chose where nothing was given"),
  }),
  async confirm(args, ctx) {
    const { currency, lines, placed, warehouse, source, fields, chat, due, collect } = await plan(args, ctx);
    const money = (n: number | undefined) => (n === undefined ? undefined : formatMoney(n, currency));
    return {
      action: "Tạo đơn hàng này?",
      details: [
        ["Người nhận", fields.customer_name],
        ["Điện thoại", fields.phone],
        ["Địa chỉ", addressText(placed)],
        ["Sản phẩm", linesText(namedLines(lines))],
        ["Kho", warehouse?.name],
        ["Nguồn", source],
        ["Hội thoại", chat?.conversation_id],
        ["Phí vận chuyển", money(args.shipping_fee)],
        ["Giảm giá", money(args.total_discount)],
        ["Thanh toán", args.payment === "prepaid" ? `Đã chuyển khoản ${money(due)}, không thu hộ` : `Thu hộ (COD) ${money(collect)}`],
        ["Ghi chú", args.note],
      ],
    };
  },
  async handler(args, ctx) {
    const { shopId, body, placed, fields, receiverFrom, chat, ship } = await plan(args, ctx);
    const order = await ctx.pos.createOrder(shopId, { ...body, shop_id: Number(shopId) || shopId });
    const names = await orderNames(ctx.pos, shopId);
    const detail = orderDetail(order, ctx.config.timezone, names);
    const missing = [fields.phone === undefined && "phone", fields.shipping_address === undefined && "address"].filter(Boolean);
    const notes = [
      ...(receiverFrom ? [`receiver's ${receiverFrom}`] : []),
      ...(missing.length ? [`no receiver ${missing.join(" or ")} given${chat ? ", on record or in the chat" : " or on record"}: set it with update_order before the order ships`] : []),
      // The chat's page is the order's source when none was given: not a default of the POS.
      ...defaultsTaken({ ...args, source: args.source ?? chat?.page_id }, ship, detail),
    ];
    return {
      id: String(order.id),
      order: detail,
      currency: orderCurrency([order]),
      address_match: placed.match,
      chat,
      defaults: notes.length ? notes : undefined,
    };
  },
});
