import { z } from "zod";
import { InputError, NotFoundError, OutcomeUnknownError, PancakeError, UpstreamError } from "../../clients/errors.js";
import { ORDER_STATUSES, requireStatus } from "../../clients/pos-codes.js";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { orderStatusName } from "../../format/orders.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";
import { type Confirmation, shown } from "../confirm.js";
import type { ToolContext } from "../define.js";
import { jsonish } from "../inputs.js";
import { mapLimit } from "../page-stats/fan-out.js";
import { planned } from "../pos/plan.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { notAppliedSchema } from "../verify.js";
import { orderFields } from "./order-body.js";
import { nextNote, nextTags, requireLive, resolveTags, tagsOf, writeOrder } from "./order-changes.js";
import { resolveOrder } from "./order-ref.js";

// update_order with `order_ids`: the status, note and tags of many orders in one call, each
// written once, read back and answered on its own, under one confirmation.

/** Orders one call changes: a day's confirmations fit, and the results stay readable. */
const MAX_ORDERS = 50;
/**
 * Orders looked up or written at once; the client's limiter still paces them per shop. Each
 * request in flight listens on the call's abort signal (a lookup by bare digits makes two), and
 * Node warns past ten listeners.
 */
const IN_FLIGHT = 5;

export const orderIdsInput = jsonish(z.array(z.union([z.string().max(80), z.number().int()]).transform(String)).min(1).max(MAX_ORDERS))
  .optional()
  .describe(`Several orders (≤${MAX_ORDERS}) instead of order_id: status, notes, tags`);

/** What a batch reads of update_order's arguments. */
interface BatchArgs {
  shop_id?: string | undefined;
  order_ids: string[];
  status?: string | number | undefined;
  note?: string | undefined;
  add_note?: string | undefined;
  reason?: string | undefined;
  add_tags?: (string | number)[] | undefined;
  remove_tags?: (string | number)[] | undefined;
}

/** update_order's parameters that change one order only: its lines, and every order field but the status and note. */
const ONE_ORDER = ["items", ...Object.keys(orderFields).filter((k) => k !== "status" && k !== "note")];

const RESULTS = ["ok", "refused", "not_applied", "unknown"] as const;

const row = z.object({
  order: z.string().describe("As given"),
  id: z.string().optional(),
  result: z.enum(RESULTS),
  status_name: z.string().optional(),
  previous_status: z.string().optional().describe("Its status before this change"),
  note: z.string().optional(),
  tags: z.array(z.string()).optional(),
  replaced_note: z.string().optional().describe("The note the new one replaced"),
  not_applied: notAppliedSchema.optional(),
  error: z.string().optional(),
});
type Row = z.infer<typeof row>;

/** A batch's result: one row per order given, and how many ended each way. */
export const batchShape = {
  results: z.array(row).optional().describe("With order_ids: one per order"),
  counts: z
    .object(Object.fromEntries(RESULTS.map((r) => [r, z.number().optional()])) as Record<(typeof RESULTS)[number], z.ZodOptional<z.ZodNumber>>)
    .optional(),
};

/**
 * A reference that named an order (its id, and its number as the dialog shows it), or why it did
 * not. No more of the order: it is read again when its write is built (change).
 */
type Target = { ref: string; id: string; number: string; refused?: undefined } | { ref: string; id?: undefined; refused: string };

const reason = (error: unknown) => (error instanceof PancakeError ? `${error.message}${error.hint ? ` ${error.hint}` : ""}` : String(error));

/** Everything checked and resolved before the user is asked and before any order is written. */
const plan = planned(async (args: BatchArgs, ctx) => {
  const single = ONE_ORDER.filter((k) => (args as unknown as Record<string, unknown>)[k] !== undefined);
  if (single.length) {
    throw new InputError("order_ids", `${single.join(", ")} change one order at a time`, "Pass them with order_id, one order a call; order_ids takes status, note, add_note, reason, add_tags and remove_tags.");
  }
  const { status: given, note, add_note, reason: why, add_tags, remove_tags } = args;
  const status = given === undefined ? undefined : requireStatus("status", ORDER_STATUSES, given);
  if (status === undefined && note === undefined && add_note === undefined && why === undefined && !add_tags?.length && !remove_tags?.length) {
    throw new InputError(undefined, "nothing to change", "Pass status, note, add_note, add_tags or remove_tags.");
  }
  nextNote(undefined, { note, add_note, reason: why }, status);
  const shopId = await resolveShopId(ctx, args.shop_id);
  const { add, remove, known } = await resolveTags(ctx.pos, shopId, args);
  const seen = new Map<string, string>();
  const targets = await mapLimit(args.order_ids, IN_FLIGHT, async (ref): Promise<Target> => {
    try {
      const order = await resolveOrder(ctx.pos, shopId, ref, "order_ids");
      requireLive(order, "order_ids");
      return { ref, id: String(order.id), number: `#${order.display_id ?? order.id}` };
    } catch (error) {
      if (error instanceof InputError || error instanceof NotFoundError) return { ref, refused: reason(error) };
      throw error;
    }
  });
  // One order named twice ("#560" and its id) is written once.
  for (const t of targets) {
    if (t.id === undefined) continue;
    const first = seen.get(t.id);
    if (first !== undefined) Object.assign(t, { id: undefined, refused: `the same order as ${first}, changed once` });
    else seen.set(t.id, t.ref);
  }
  return { shopId, status, add, remove, known, targets };
});

/**
 * The order as it is now, read when its write is built: the user may have spent minutes on the
 * dialog while a colleague tagged the order or wrote on its note, and the write keeps what they did.
 * Nothing is sent for an order that cannot be read, or that was deleted meanwhile.
 */
async function current(ctx: ToolContext, shopId: string, id: string): Promise<PosOrder | string> {
  try {
    const order = await ctx.pos.getOrder(shopId, id);
    requireLive(order, "order_ids");
    return order;
  } catch (error) {
    if (error instanceof InputError) return reason(error);
    return `it could not be read again before its change was written (${reason(error)}); nothing was sent for it`;
  }
}

/** One order's change: sent once, read back, and said as one of ok, refused, not_applied or unknown. */
async function change(args: BatchArgs, p: Awaited<ReturnType<typeof plan>>, id: string, ctx: ToolContext): Promise<Omit<Row, "order">> {
  const order = await current(ctx, p.shopId, id);
  if (typeof order === "string") return { id, result: "refused", error: order };
  const body: Record<string, unknown> = {};
  if (p.status !== undefined) body.status = p.status;
  const note = nextNote(order.note, { note: args.note, add_note: args.add_note, reason: args.reason }, p.status);
  if (note.note !== undefined) body.note = note.note;
  if (p.add.length || p.remove.length) body.tags = nextTags(order, p.known, p.add, p.remove);
  try {
    const written = await writeOrder(ctx.pos, p.shopId, id, body);
    const back = written.record;
    if (!back) return { id, result: "unknown", error: written.unverified };
    return {
      id,
      result: written.not_applied ? "not_applied" : "ok",
      status_name: orderStatusName(back.status),
      previous_status: p.status === undefined ? undefined : orderStatusName(order.status),
      note: body.note === undefined ? undefined : sanitizeText(back.note, { max: 300 }),
      tags: body.tags === undefined ? undefined : tagsOf(back.tags, p.known).map((t) => sanitizeName(t.name) ?? String(t.id)),
      replaced_note: note.replaced,
      not_applied: written.not_applied,
    };
  } catch (error) {
    // The POS said no (a 4xx, or success: false): nothing changed. A failure while it handled
    // the write (5xx, a lost or broken answer) may have changed it.
    if (error instanceof UpstreamError && (error.status === undefined || error.status < 500)) return { id, result: "refused", error: reason(error) };
    const unsure = error instanceof OutcomeUnknownError ? "" : " It may or may not have been changed: check it with get_order before trying again.";
    return { id, result: "unknown", error: `${reason(error)}${unsure}` };
  }
}

/** A batch is one decision: the user is asked once, shown every order it names and the change. */
export async function batchConfirmation(args: BatchArgs, ctx: ToolContext): Promise<Confirmation> {
  const p = await plan(args, ctx);
  const named = (ids: number[]) => ids.map((id) => shown(p.known.get(String(id))) ?? String(id)).join(", ");
  const orders = p.targets.flatMap((t) => (t.id === undefined ? [] : [t.number]));
  const skipped = p.targets.flatMap((t) => (t.refused ? [t.ref] : []));
  return {
    action: `Cập nhật ${orders.length} đơn hàng?`,
    details: [
      ["Đơn", orders.join(", ")],
      ["Bỏ qua", skipped.join(", ")],
      ["Trạng thái", orderStatusName(p.status)],
      ["Ghi chú mới", args.note],
      ["Thêm vào ghi chú", args.add_note],
      ["Lý do hủy", args.reason],
      ["Thêm thẻ", named(p.add)],
      ["Bỏ thẻ", named(p.remove)],
    ],
  };
}

/** Every order of the batch changed in parallel under the limiter, none retried, each answered. */
export async function updateBatch(args: BatchArgs, ctx: ToolContext) {
  const p = await plan(args, ctx);
  let done = 0;
  const results = await mapLimit(p.targets, IN_FLIGHT, async (t): Promise<Row> => {
    const result = t.id === undefined ? { order: t.ref, result: "refused" as const, error: t.refused } : { order: t.ref, ...(await change(args, p, t.id, ctx)) };
    await ctx.progress(++done, p.targets.length, `order ${t.ref}`);
    return result;
  });
  const counts = Object.fromEntries(RESULTS.map((r) => [r, results.filter((x) => x.result === r).length || undefined]));
  return { results, counts };
}
