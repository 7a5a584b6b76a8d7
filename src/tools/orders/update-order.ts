import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { orderCurrency, orderDetail, orderDetailSchema, orderStatusName } from "../../format/orders.js";
import { defineTool, OVERWRITE, type ToolContext } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { orderNames, warehouseId } from "../pos/shop-refs.js";
import { verifiedShape } from "../verify.js";
import { addressIds, addressMatchSchema } from "./address-names.js";
import { batchConfirmation, batchShape, orderIdsInput, updateBatch } from "./order-batch.js";
import { itemLines, orderBody, orderFields } from "./order-body.js";
import { nextNote, nextTags, noteChange, requireLive, requireNew, resolveTags, tagChange, writeOrder } from "./order-changes.js";
import { orderRefInput, resolveOrder } from "./order-ref.js";
import { itemsInput, resolveItems } from "./resolve-items.js";

// One tool for one order and for many. Issue 22 asked for a batch tool, `update_orders`; it is
// this tool with `order_ids`. The two differed only in how many orders a call names, and apart
// the batch sat outside the default tools: in a user trial a model given the defaults confirmed
// three orders with three calls, pointed to a tool it could not reach. One tool lists fewer
// tokens than two and leaves no choice between them to get wrong.

/** A list given as order_id means several orders: the error says where they go. */
const oneOrder = z.preprocess((value, ctx) => {
  if (Array.isArray(value)) ctx.issues.push({ code: "custom", message: "expected one order, not a list (several go in order_ids)", input: value });
  return value;
}, orderRefInput.optional());

const input = z.object({
  shop_id: shopIdInput,
  order_id: oneOrder,
  order_ids: orderIdsInput,
  items: jsonish(itemsInput).optional().describe("Replace all lines (new orders only)"),
  ...orderFields,
  ...noteChange,
  ...tagChange,
});
type Input = z.output<typeof input>;

/**
 * Order fields with a parameter of their own, under their upstream names: sent through `extra`
 * they would go out unchecked and replace what the parameter keeps (in a user trial,
 * `extra: {"tags": [...]}` dropped every tag the orders had). A parameter's own name in `extra`
 * is refused too.
 */
const PARAMETER_OF: Record<string, string> = {
  tags: "add_tags or remove_tags (the order's other tags stay)",
  bill_full_name: "customer_name",
  bill_phone_number: "phone",
};

function requireOwnParameters(extra: Record<string, unknown> | undefined): void {
  for (const key of Object.keys(extra ?? {})) {
    const parameter = Object.hasOwn(PARAMETER_OF, key) ? PARAMETER_OF[key] : Object.hasOwn(input.shape, key) ? key : undefined;
    if (parameter) throw new InputError(`extra.${key}`, "has its own parameter", `Pass ${parameter} instead; extra takes only order fields no parameter covers.`);
  }
}

/**
 * The arguments as a batch, when they name one (the same object: the batch's plan is kept per
 * arguments object, made once for the confirmation and the write). A call names one order or
 * several, never both.
 */
function batchOf(args: Input): (Input & { order_ids: string[] }) | undefined {
  if (args.order_ids === undefined) return undefined;
  if (args.order_id !== undefined) throw new InputError("order_id", "given with order_ids", "Pass one order as order_id, or several as order_ids, not both.");
  return args as Input & { order_ids: string[] };
}

async function updateOne(args: Input, ctx: ToolContext) {
  const { shop_id, order_id, order_ids: _none, items, add_note, reason, add_tags, remove_tags, ...fields } = args;
  if (order_id === undefined) throw new InputError("order_id", "missing (required)", 'Pass the order as order_id ("#560"), or several as order_ids.');
  const tagging = Boolean(add_tags?.length || remove_tags?.length);
  if (items === undefined && add_note === undefined && reason === undefined && !tagging && Object.values(fields).every((v) => v === undefined)) {
    throw new InputError(undefined, "nothing to change", "Pass at least one field, e.g. status or note.");
  }
  requireOwnParameters(fields.extra);
  const shopId = await resolveShopId(ctx, shop_id);
  const current = await resolveOrder(ctx.pos, shopId, order_id);
  requireLive(current);
  if (items) requireNew(current);
  const tags = await resolveTags(ctx.pos, shopId, { add_tags, remove_tags });
  const placed = await addressIds(ctx.pos, "shipping_address", fields.shipping_address);
  const body = orderBody({ ...fields, shipping_address: placed.address }, placed.form);
  if (fields.warehouse_id !== undefined) body.warehouse_id = await warehouseId(ctx.pos, shopId, "warehouse_id", fields.warehouse_id);
  if (items) body.items = itemLines(await resolveItems(ctx.pos, shopId, items));
  const note = nextNote(current.note, { note: fields.note, add_note, reason }, body.status as number | undefined);
  if (note.note !== undefined) body.note = note.note;
  if (tagging) body.tags = nextTags(current, tags.known, tags.add, tags.remove);
  // A new address replaces the old one whole: keep the receiver unless a new one is given.
  const address = body.shipping_address as Record<string, unknown> | undefined;
  if (address) {
    address.full_name ??= current.shipping_address?.full_name ?? current.bill_full_name ?? undefined;
    address.phone_number ??= current.shipping_address?.phone_number ?? current.bill_phone_number ?? undefined;
  }
  const written = await writeOrder(ctx.pos, shopId, String(current.id), body);
  const order = written.record;
  return {
    order: order && orderDetail(order, ctx.config.timezone, await orderNames(ctx.pos, shopId)),
    currency: order && orderCurrency([order]),
    address_match: placed.match,
    previous_status: body.status === undefined ? undefined : orderStatusName(current.status),
    replaced_note: note.replaced,
    not_applied: written.not_applied,
    unverified: written.unverified,
  };
}

export const updateOrder = defineTool({
  name: "update_order",
  title: "Update order",
  description: 'Change orders; only given fields change. Example: order_ids ["#560","#561"], status "confirmed".',
  toolset: "orders",
  annotations: OVERWRITE,
  input,
  output: z.object({
    order: orderDetailSchema.optional().describe("As read back after the change"),
    currency: z.string().optional(),
    address_match: addressMatchSchema.optional(),
    previous_status: z.string().optional().describe("Its status before this change"),
    replaced_note: z.string().optional().describe("The staff note the new one replaced"),
    ...verifiedShape,
    ...batchShape,
  }),
  // One order changes as asked; a batch is asked for once (order-batch.ts).
  confirm(args, ctx) {
    const batch = batchOf(args);
    return batch && batchConfirmation(batch, ctx);
  },
  async handler(args, ctx) {
    const batch = batchOf(args);
    return batch ? updateBatch(batch, ctx) : updateOne(args, ctx);
  },
});
