import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosCategory } from "../../clients/schemas/pos.js";
import type { OrderNames } from "../../format/orders.js";
import { bestMatches, nearestName } from "../../text/name-match.js";
import { sanitizeName } from "../../text/sanitize.js";
import { cachePer } from "../../state/ttl-cache.js";

// Carriers, order sources, warehouses, staff, levels, order tags and categories of a shop: small
// lists that records only reference by id. Cached briefly so rows can carry names and callers can
// filter by name.

const refCache = cachePer<PosClient>("shop-refs", { ttlMs: 5 * 60_000 });

export interface Ref {
  id: string;
  name: string;
  parent_id?: string;
  email?: string;
  /** A warehouse's province: the one near a delivery. */
  province_id?: string;
  /** False for a warehouse the shop does not ship orders from (allow_create_order). */
  ships_orders?: boolean;
}

type Named = { id: string | number; name?: string | null; parent_id?: unknown; email?: string | null; province_id?: unknown; allow_create_order?: boolean | null };

function refs(kind: string, load: (pos: PosClient, shopId: string) => Promise<Named[]>) {
  return (pos: PosClient, shopId: string): Promise<Ref[]> =>
    refCache(pos).get(`${kind}:${shopId}`, async (shared) =>
      (await load(shared, shopId)).map((r) => ({
        id: String(r.id),
        name: sanitizeName(r.name) ?? String(r.id),
        parent_id: r.parent_id == null ? undefined : String(r.parent_id),
        email: r.email ?? undefined,
        province_id: r.province_id == null ? undefined : String(r.province_id),
        ships_orders: r.allow_create_order ?? undefined,
      })),
    );
}

/** Other small per-shop data kept as briefly as the lists (analytics metrics, product names). */
export function cachedForShop<T>(pos: PosClient, key: string, load: (shared: PosClient) => Promise<T>): Promise<T> {
  return refCache(pos).get(key, load);
}

export const carriers = refs("carriers", (pos, shopId) => pos.listPartners(shopId));
export const orderSources = refs("sources", (pos, shopId) => pos.listOrderSources(shopId));
export const warehouses = refs("warehouses", (pos, shopId) => pos.listWarehouses(shopId));
export const customerLevels = refs("levels", (pos, shopId) => pos.listCustomerLevels(shopId));
export const orderTags = refs("order-tags", (pos, shopId) => pos.listOrderTags(shopId));
/** Every category of the tree, children included. */
export const categories = refs("categories", async (pos, shopId) => flatten(await pos.listCategories(shopId)));

function flatten(tree: PosCategory[]): Named[] {
  return tree.flatMap((c) => [{ id: c.id, name: c.text }, ...flatten(Array.isArray(c.nodes) ? (c.nodes as PosCategory[]) : [])]);
}
export const staff = refs("staff", async (pos, shopId) =>
  (await pos.listUsers(shopId)).flatMap((u) => {
    const id = u.user?.id ?? u.user_id;
    return id == null ? [] : [{ id, name: u.user?.name, email: u.user?.email }];
  }),
);

/** A warehouse given by id or name, checked against the shop's list. */
export async function warehouseRef(pos: PosClient, shopId: string, field: string, value: string): Promise<Ref> {
  const list = await warehouses(pos, shopId);
  const id = refId(field, list, value);
  return list.find((r) => r.id === id)!;
}

export async function warehouseId(pos: PosClient, shopId: string, field: string, value: string): Promise<string> {
  return (await warehouseRef(pos, shopId, field, value)).id;
}

/** Carrier and warehouse names for order rows; rows fall back to ids when a list cannot be read. */
export async function orderNames(pos: PosClient, shopId: string): Promise<OrderNames> {
  const [c, w] = await Promise.all([carriers(pos, shopId).catch(() => []), warehouses(pos, shopId).catch(() => [])]);
  return { carriers: new Map(c.map((r) => [r.id, r.name])), warehouses: new Map(w.map((r) => [r.id, r.name])) };
}

/**
 * The id of a ref given by id (or a staff email) or by name as people type it: accents and case
 * ignored, a run of its words ("Kids" for "Mây Kids - Đồ trẻ em") when only one ref has it.
 * Unknown or ambiguous -> InputError listing the valid values.
 */
export function refId(field: string, list: Ref[], value: string | number): string {
  const text = String(value).trim();
  const byId = list.filter((r) => r.id === text || (r.email !== undefined && r.email.toLowerCase() === text.toLowerCase()));
  const candidates = byId.length ? byId : bestMatches(list, text, (r) => r.name);
  if (candidates.length === 1) return candidates[0]!.id;
  const listed = (refs: Ref[]) => refs.map((r) => `${r.name} (${r.id})`).join(", ");
  if (candidates.length > 1) throw new InputError(field, `${JSON.stringify(text)} matches ${candidates.length} values`, `Use one of: ${listed(candidates)}.`);
  const near = nearestName(list, text, (r) => r.name);
  throw new InputError(field, `unknown value ${JSON.stringify(text)}`, `${near ? `Did you mean ${listed([near])}? ` : ""}Use one of: ${listed(list)}.`);
}

/**
 * `[source id, account id?]` of an order source given by id or name, with its account (a page
 * or other account listed under it) when given; an account named alone brings its source.
 */
export function sourcePair(field: string, list: Ref[], source: string, account?: string): string[] {
  const id = refId(field, list, source);
  const parent = list.find((r) => r.id === id)?.parent_id;
  if (account === undefined) return parent ? [parent, id] : [id];
  const name = list.find((r) => r.id === id)?.name ?? id;
  if (parent) throw new InputError(field, `${name} is itself an account (of source ${parent})`, "Pass the account alone, or its source with it.");
  const accounts = list.filter((r) => r.parent_id === id);
  if (!accounts.length) throw new InputError(field, `source ${name} lists no accounts`, "Leave the account out.");
  return [id, refId(`${field} account`, accounts, account)];
}
