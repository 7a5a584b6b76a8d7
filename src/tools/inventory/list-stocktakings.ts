import { statusName } from "../../clients/pos-codes.js";
import { z } from "zod";
import type { PosStocktaking } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { upstreamRecord } from "../../format/orders.js";
import { sanitizeText } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, idInput, limitInput, shopIdInput } from "../inputs.js";
import { codeInput, optionalCode } from "../pos/codes.js";
import { listPage } from "../pos/list-page.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { STOCKTAKING_STATUSES } from "./codes.js";

function summary(s: PosStocktaking, tz: string) {
  return {
    id: String(s.id),
    display_id: id(s.display_id),
    status: statusName(STOCKTAKING_STATUSES, s.status),
    warehouse_id: id(s.warehouse_id),
    progress: num(s.progress),
    by: typeof s.stocktaking_by === "string" ? s.stocktaking_by : undefined,
    note: sanitizeText(s.note, { max: 300 }),
    stocktaking_at: recordTime(s.stocktaking_at, tz),
    inserted_at: recordTime(s.inserted_at, tz),
  };
}

function items(s: PosStocktaking) {
  return (Array.isArray(s.items) ? s.items : []).map((raw) => {
    const it = raw as Record<string, unknown>;
    const variation = (it.variation ?? {}) as Record<string, unknown>;
    return {
      id: id(it.id),
      variation_id: id(it.variation_id),
      variation_display_id: id(variation.display_id),
      changed_quantity: num(it.changed_quantity),
      current_quantity: num(it.current_quantity),
      note: sanitizeText(it.note, { max: 300 }),
    };
  });
}

export const listStocktakings = defineTool({
  name: "list_stocktakings",
  title: "List stocktakings",
  description:
    "Stock counts; with stocktaking_id, that one with its lines (changed_quantity = counted minus system).",
  toolset: "inventory",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    stocktaking_id: idInput("Read one, with its items").optional(),
    status: codeInput(STOCKTAKING_STATUSES, "Stocktaking status"),
    limit: limitInput(100, 30),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({
    total: z.number().optional(),
    stocktakings: z.array(z.looseObject({ id: z.string(), items: z.array(z.looseObject({})).optional() })),
    next_cursor: z.string().optional(),
  }),
  async handler(input, ctx) {
    const status = optionalCode(STOCKTAKING_STATUSES, "status", input.status);
    const shopId = await resolveShopId(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    if (input.stocktaking_id !== undefined) {
      const one = await ctx.pos.getStocktaking(shopId, input.stocktaking_id);
      return { stocktakings: [input.detail === "full" ? upstreamRecord(one) : { ...summary(one, tz), items: items(one) }] };
    }
    const page = await listPage(ctx, input, {
      tool: "list_stocktakings",
      query: { status },
      fetch: (params) => ctx.pos.listStocktakings(shopId, params),
      project: (s) => summary(s, tz),
    });
    return { total: page.total, stocktakings: page.rows, next_cursor: page.next_cursor };
  },
});
