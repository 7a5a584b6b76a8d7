import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { sanitizeName } from "../../text/sanitize.js";
import { refId } from "../pos/shop-refs.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { phoneInput } from "../pos/phone.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { warehouseRow, warehouseRowSchema } from "./warehouse-row.js";

const config = jsonish(z.unknown()).optional();

export const saveWarehouse = defineTool({
  name: "save_warehouse",
  title: "Create or update a warehouse",
  description:
    "Create a warehouse, or update one given warehouse_id (omitted fields kept).",
  toolset: "shop",
  annotations: OVERWRITE,
  input: z.object({
    shop_id: shopIdInput,
    warehouse_id: z.string().max(120).optional().describe("To update: id or name"),
    name: z.string().min(1).max(200).optional().describe("Required to create"),
    shelf_config: config.describe("Required, {} for none"),
    phone_number: z.string().max(20).optional().describe("Phone"),
    address: z.string().max(300).optional().describe("Street"),
    province_id: z.string().max(20).optional().describe("From lookup_address"),
    district_id: z.string().max(20).optional().describe("District"),
    commune_id: z.string().max(20).optional().describe("Commune"),
    extra: jsonish(z.record(z.string(), z.unknown()))
      .optional()
      .describe("Other fields (batch_config, custom_shelf_config, …)"),
  }),
  output: z.object({ warehouse: warehouseRowSchema.optional(), created: z.boolean() }),
  async handler(input, ctx) {
    const { shop_id, warehouse_id, extra, ...fields } = input;
    const body: Record<string, unknown> = { ...extra, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
    if (fields.phone_number !== undefined) body.phone_number = phoneInput("phone_number", fields.phone_number);
    if (!warehouse_id) {
      for (const field of ["name", "shelf_config"] as const) {
        if (body[field] === undefined) throw new InputError(field, "is required to create a warehouse", `Pass ${field} (shelf_config {} when the warehouse has no shelves).`);
      }
      // The OpenAPI types country_code as text ("84" for Vietnam).
      if (body.address || body.commune_id) body.country_code ??= "84";
      const shopId = await resolveShopId(ctx, shop_id);
      return { warehouse: warehouseRow(await ctx.pos.createWarehouse(shopId, body)), created: true };
    }
    // The update requires the create's name and shelf_config: the current name is kept, and so is
    // the current shelf_config when the list shows it. The OpenAPI's list does not, and an
    // invented {} would wipe the shelves, so then it must be given.
    const shopId = await resolveShopId(ctx, shop_id);
    const rows = await ctx.pos.listWarehouses(shopId);
    const targetId = refId("warehouse_id", rows.map((w) => ({ id: String(w.id), name: sanitizeName(w.name) ?? String(w.id) })), warehouse_id);
    const current = rows.find((w) => String(w.id) === targetId)!;
    const shelves = body.shelf_config ?? (current as Record<string, unknown>).shelf_config;
    if (shelves === undefined || shelves === null) {
      throw new InputError(
        "shelf_config",
        "is required to update a warehouse, and the warehouse list does not show the current one",
        'Pass the warehouse\'s shelf_config (e.g. {"col": "3"}, or {} when it has no shelves).',
      );
    }
    const merged = { name: current.name, ...body, shelf_config: shelves };
    const saved = await ctx.pos.updateWarehouse(shopId, targetId, merged);
    // A bare {success: true} answer carries no record: keep the id being updated.
    return { warehouse: warehouseRow({ ...saved, id: saved.id ?? targetId }), created: false };
  },
});
