import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { OrderNames } from "../../format/orders.js";
import { fold, sanitizeName } from "../../format/text.js";
import { cachePer } from "./ttl-cache.js";

// Carriers, order sources and warehouses of a shop: small lists that orders only reference by
// id. Cached briefly so rows can carry names and callers can filter by name.

const refCache = cachePer<PosClient>(5 * 60_000);

export interface Ref {
  id: string;
  name: string;
  parent_id?: string;
}

type Named = { id: string | number; name?: string | null; parent_id?: unknown };

function refs(kind: string, load: (pos: PosClient, shopId: string) => Promise<Named[]>) {
  return (pos: PosClient, shopId: string): Promise<Ref[]> =>
    refCache(pos).get(`${kind}:${shopId}`, async () =>
      (await load(pos, shopId)).map((r) => ({
        id: String(r.id),
        name: sanitizeName(r.name) ?? String(r.id),
        parent_id: r.parent_id == null ? undefined : String(r.parent_id),
      })),
    );
}

export const carriers = refs("carriers", (pos, shopId) => pos.listPartners(shopId));
export const orderSources = refs("sources", (pos, shopId) => pos.listOrderSources(shopId));
export const warehouses = refs("warehouses", (pos, shopId) => pos.listWarehouses(shopId));
export const customerLevels = refs("levels", (pos, shopId) => pos.listCustomerLevels(shopId));

/** Carrier and warehouse names for order rows; rows fall back to ids when a list cannot be read. */
export async function orderNames(pos: PosClient, shopId: string): Promise<OrderNames> {
  const [c, w] = await Promise.all([carriers(pos, shopId).catch(() => []), warehouses(pos, shopId).catch(() => [])]);
  return { carriers: new Map(c.map((r) => [r.id, r.name])), warehouses: new Map(w.map((r) => [r.id, r.name])) };
}

/** The id of a ref given by id or by name (accents and case ignored); unknown -> InputError listing them. */
export function refId(field: string, list: Ref[], value: string | number): string {
  const text = String(value).trim();
  const found = list.find((r) => r.id === text) ?? list.find((r) => fold(r.name) === fold(text));
  if (found) return found.id;
  const valid = list.map((r) => `${r.name} (${r.id})`).join(", ");
  throw new InputError(field, `unknown value ${JSON.stringify(text)}`, `Use one of: ${valid}.`);
}
