import { requireStatus, statusName } from "../../clients/pos-codes.js";
import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { id } from "../../format/compact.js";
import { parseDateInput } from "../../format/time.js";
import { defineTool, OVERWRITE } from "../define.js";
import { dateInput, idInput, jsonish, shopIdInput } from "../inputs.js";

import { nonEmpty, someOf } from "../pos/fields.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { STOCKTAKING_STATUSES, settable } from "./codes.js";
import { stockLines } from "./stock-lines.js";
import { refId, staff, warehouseId } from "../pos/shop-refs.js";
import { fieldChecks, instant, notApplied, readBack, type SentField, verifiedShape } from "../verify.js";

const STATES = settable(STOCKTAKING_STATUSES);

const line = z.object({
  id: z.string().max(64).optional().describe("Line id"),
  variation_id: nonEmpty(64),
  changed_quantity: z.number().int().describe("Counted minus system"),
  note: z.string().max(500).optional(),
});

/** Each field of a stocktaking update beside what the count read back holds: lines by their id, the date as an instant, the status by name. */
function stocktakingChecks(sent: Record<string, unknown>, held: Record<string, unknown>): SentField[] {
  const { items, id: _id, ...fields } = sent;
  const lines = Array.isArray(held.items) ? (held.items as Record<string, unknown>[]) : [];
  return [
    ...fieldChecks(fields, held, { stocktaking_at: instant, status: (code) => statusName(STOCKTAKING_STATUSES, code) }),
    ...(items as Record<string, unknown>[]).map((line, i) => ({ field: `items[${i}]`, sent: line, held: lines.find((l) => String(l.id) === String(line.id)) })),
  ];
}

export const saveStocktaking = defineTool({
  name: "save_stocktaking",
  title: "Create or update stocktaking",
  description:
    "Create a stock count, or update one given stocktaking_id.",
  toolset: "inventory",
  annotations: OVERWRITE,
  input: z.object({
    shop_id: shopIdInput,
    stocktaking_id: idInput("Omit to create").optional(),
    warehouse_id: nonEmpty(120).describe("Warehouse counted (id or name)"),
    status: z.union([z.string().max(40), z.number().int()]).describe(STATES.map((r) => r.name).join(", ")),
    items: jsonish(someOf(line, 500)).describe("Lines"),
    note: z.string().max(2000).optional().describe("Note"),
    stocktaking_at: dateInput.optional().describe("Count date"),
    stocktaking_by: z.string().max(40).optional().describe("Scope, e.g. category_ids"),
    stocktaking_by_value: jsonish(z.array(z.string().max(64)).max(100)).optional().describe("Scope ids"),
    creator_id: z.string().max(120).optional().describe("Staff id, email or name"),
  }),
  output: z.object({ id: z.string().optional(), display_id: z.string().optional(), status: z.string().optional(), created: z.boolean(), ...verifiedShape }),
  async handler(input, ctx) {
    const status = requireStatus("status", STATES, input.status);
    const updating = input.stocktaking_id !== undefined;
    const missing = updating ? input.items.findIndex((it) => !it.id) : -1;
    if (missing >= 0) {
      throw new InputError(`items[${missing}].id`, "is required when updating", "Read the stocktaking with list_stocktakings (stocktaking_id) and pass each line's id.");
    }
    // The OpenAPI's create takes lines of variation_id and changed_quantity only; its update
    // also takes the line's id and note.
    const noted = updating ? -1 : input.items.findIndex((it) => it.note !== undefined);
    if (noted >= 0) {
      throw new InputError(`items[${noted}].note`, "line notes can be saved only when updating a stocktaking", "Put it in note, or save the line notes with stocktaking_id once the stocktaking exists.");
    }
    const tz = ctx.config.timezone;
    const { stocktaking_id, shop_id, stocktaking_at, status: _status, items: given, warehouse_id, creator_id, ...fields } = input;
    const shopId = await resolveShopId(ctx, shop_id);
    const items = await stockLines(ctx.pos, shopId, "items", given);
    const body = {
      stocktaking: {
        ...(updating ? { id: stocktaking_id } : {}),
        ...fields,
        warehouse_id: await warehouseId(ctx.pos, shopId, "warehouse_id", warehouse_id),
        creator_id: creator_id === undefined ? undefined : refId("creator_id", await staff(ctx.pos, shopId), creator_id),
        items: items.map(({ id: lineId, note, ...line }) => (updating ? { id: lineId, ...line, note } : line)),
        status,
        // The OpenAPI types it as text and writes it in ISO 8601 (the seed said Unix seconds).
        stocktaking_at: stocktaking_at === undefined ? undefined : parseDateInput("stocktaking_at", stocktaking_at, tz).toISOString(),
      },
    };
    if (stocktaking_id === undefined) {
      const saved = await ctx.pos.createStocktaking(shopId, body);
      return { id: id(saved.id), display_id: id(saved.display_id), status: statusName(STOCKTAKING_STATUSES, saved.status ?? status), created: true };
    }
    await ctx.pos.updateStocktaking(shopId, stocktaking_id, body);
    const back = await readBack("stocktaking change", () => ctx.pos.getStocktaking(shopId, stocktaking_id));
    const sent = Object.fromEntries(Object.entries(body.stocktaking).filter(([, v]) => v !== undefined));
    return {
      id: stocktaking_id,
      display_id: id(back.record?.display_id),
      status: back.record && statusName(STOCKTAKING_STATUSES, back.record.status),
      created: false,
      not_applied: back.record && notApplied(stocktakingChecks(sent, back.record as Record<string, unknown>)),
      unverified: back.unverified,
    };
  },
});
