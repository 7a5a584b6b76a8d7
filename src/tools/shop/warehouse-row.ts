import { z } from "zod";
import type { PosWarehouse } from "../../clients/schemas/pos.js";
import { id } from "../../format/compact.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";

export const warehouseRowSchema = z.looseObject({ id: z.string().optional(), name: z.string().optional() });

export function warehouseRow(w: PosWarehouse) {
  return {
    id: id(w.id),
    name: sanitizeName(w.name),
    custom_id: w.custom_id ?? undefined,
    phone: w.phone_number ?? undefined,
    full_address: sanitizeText(w.full_address ?? w.address, { max: 300 }),
    province_id: id(w.province_id),
    district_id: id(w.district_id),
    commune_id: id(w.commune_id),
    can_create_orders: w.allow_create_order ?? undefined,
  };
}
