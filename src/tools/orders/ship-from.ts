import { PancakeError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosVariation } from "../../clients/schemas/pos.js";
import { type Ref, warehouses } from "../pos/shop-refs.js";
import { geoIndex } from "../shop/geo-index.js";
import { namedLines, type ResolvedItem } from "./resolve-items.js";

/**
 * Where an order ships from when the call names no warehouse. Left to the POS, an order to Hồ Chí
 * Minh City went out of the Hà Nội warehouse though the one in the city held the item: so a
 * warehouse in the delivery's province that ships orders and holds every line (available stock,
 * remain_quantity, at least the units ordered) is chosen; else the POS's default, and `why` says
 * what the one nearby lacked. Provinces compare as post-2025 ones through the geo lists' new_id: a
 * delivery may carry the new province id, a warehouse the old one of its city.
 */
export interface ShipFrom {
  warehouse?: Ref;
  /** Why the warehouses in the delivery's province were passed over, when there are any. */
  why?: string;
}

const unitsIn = (v: PosVariation, warehouseId: string) =>
  Number(v.variations_warehouses?.find((s) => String(s.warehouse_id) === warehouseId)?.remain_quantity ?? 0);

export async function shipFrom(pos: PosClient, shopId: string, provinceId: string | undefined, lines: ResolvedItem[]): Promise<ShipFrom> {
  if (provinceId === undefined) return {};
  const geo = geoIndex(pos);
  const read = await Promise.all([geo.provinces("old"), geo.provinces("new"), warehouses(pos, shopId)]).catch((error: unknown) => {
    // A choice the call did not ask for never stops the order: the POS's default stands, said so.
    if (error instanceof PancakeError) return undefined;
    throw error;
  });
  if (!read) return { why: "the warehouses and places to choose one near the delivery could not be read" };
  const [old, fresh, list] = read;
  const newId = (id: string) => (fresh.some((p) => String(p.id) === id) ? id : (old.find((p) => String(p.id) === id)?.new_id ?? undefined));
  const target = newId(provinceId);
  const near = list.filter((w) => target !== undefined && w.province_id !== undefined && w.ships_orders !== false && newId(w.province_id) === target);
  if (near.length === 0) return {};
  // A variation on two lines needs the units of both.
  const wanted = new Map<string, { line: number; units: number }>();
  lines.forEach(({ input, variation }, line) => {
    const id = String(variation.id);
    wanted.set(id, { line: wanted.get(id)?.line ?? line, units: (wanted.get(id)?.units ?? 0) + input.quantity });
  });
  const short = (w: Ref) => [...wanted.values()].filter((need) => unitsIn(lines[need.line]!.variation, w.id) < need.units);
  const holder = near.find((w) => short(w).length === 0);
  if (holder) return { warehouse: holder };
  const named = namedLines(lines);
  const lacks = near.map((w) => {
    const missing = short(w).map(({ line, units }) => {
      const l = named[line]!;
      return `${l.product}${l.variant ? ` (${l.variant})` : ""}: ${unitsIn(lines[line]!.variation, w.id)} of ${units}`;
    });
    return `${w.name} has ${missing.join(", ")}`;
  });
  return { why: `in the delivery's province, ${lacks.join("; ")}` };
}
