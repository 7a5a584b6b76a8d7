import { z } from "zod";
import { id, num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, jsonish, limitInput, shopIdInput, sinceInput, untilInput } from "../inputs.js";
import { listPage } from "../pos/list-page.js";
import { unixRange } from "../pos/open-range.js";
import { shopScope } from "../pos/shop-scope.js";
import { warehouseId } from "../pos/shop-refs.js";
import { variationIds } from "../orders/resolve-items.js";

const row = z.looseObject({ id: z.string(), quantity: z.number().optional(), remain_quantity: z.number().optional() });
const ref = (value: unknown) => (typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {});

export const listInventoryHistory = defineTool({
  name: "list_inventory_history",
  title: "List inventory history",
  description:
    "Stock movements, newest first: quantity signed (+ in, - out), remain_quantity after; ref_display_id: the slip or order.",
  toolset: "inventory",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    warehouse_id: z.string().max(120).optional().describe("Only this (id or name)"),
    variation_ids: jsonish(z.array(z.string().min(1).max(64)).min(1).max(50)).optional().describe("Only these (ids or SKUs)"),
    since: sinceInput,
    until: untilInput,
    limit: limitInput(100, 30),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({ currency: z.string().optional(), total: z.number().optional(), movements: z.array(row), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const range = unixRange(input.since, input.until, ctx.config.timezone);
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    // Resolved on the first call only: the cursor carries the query.
    const first = !input.cursor;
    const warehouse = first && input.warehouse_id !== undefined ? await warehouseId(ctx.pos, shopId, "warehouse_id", input.warehouse_id) : undefined;
    const variations = first && input.variation_ids ? await variationIds(ctx.pos, shopId, input.variation_ids, (i) => `variation_ids[${i}]`) : undefined;
    const page = await listPage(ctx, input, {
      tool: "list_inventory_history",
      query: { warehouse_id: warehouse, variation_ids: variations, startDate: range.from, endDate: range.to },
      fetch: (params) => ctx.pos.listInventoryHistories(shopId, params),
      project: (h) => {
        const warehouse = ref(h.warehouse);
        const variation = ref(h.variation_now);
        return {
          id: String(h.id),
          at: recordTime(h.inserted_at, tz),
          quantity: num(h.quantity),
          remain_quantity: num(h.remain_quantity),
          type: h.type ?? undefined,
          source: h.table_name ?? undefined,
          ref_display_id: id(h.ref_display_id),
          warehouse_id: id(warehouse.id),
          warehouse: sanitizeName(warehouse.name),
          variation_id: id(h.variation_id) ?? id(variation.id),
          variation_display_id: id(variation.display_id),
          avg_price: num(h.avg_price),
        };
      },
    });
    return { currency, total: page.total, movements: page.rows, next_cursor: page.next_cursor };
  },
});
