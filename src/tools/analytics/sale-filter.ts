import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { ORDER_STATUSES, requireStatus } from "../../clients/pos-codes.js";
import type { PosClient } from "../../clients/pos.js";
import { sanitizeName } from "../../text/sanitize.js";
import { findProduct } from "../catalog/product-ref.js";
import type { ToolContext } from "../define.js";
import { jsonish } from "../inputs.js";
import { variationIds } from "../orders/resolve-items.js";
import { customerIds } from "../pos/customer-ref.js";
import { nonEmpty, shaped, someOf } from "../pos/fields.js";
import { carriers, orderSources, type Ref, refId, staff, warehouses } from "../pos/shop-refs.js";
import { geoIndex } from "../shop/geo-index.js";

// get_sales_analytics' `filter`: keyed as the splits are (the OpenAPI's `<Table>.<field>` keys),
// `_exclude` appended to negate one. The service matches ids and codes, and an id of nothing
// filters every order out and reads as "no sales": each value is resolved first, a name as the
// shop calls it (a status, a carrier, a product's SKU, a customer's phone) taken as well as an id.

type Resolve = (pos: PosClient, shopId: string, field: string, values: string[]) => Promise<string[]>;

const byRef =
  (list: (pos: PosClient, shopId: string) => Promise<Ref[]>, only: (r: Ref) => boolean = () => true): Resolve =>
  async (pos, shopId, field, values) => {
    const refs = (await list(pos, shopId)).filter(only);
    return values.map((v, i) => refId(`${field}[${i}]`, refs, v));
  };

/**
 * A province by id or name, current (post-2025) before old; a current one stands for the old
 * provinces merged into it too, since orders written before the reform carry the old ids.
 */
const provinceIds: Resolve = async (pos, _shopId, field, values) => {
  const geo = geoIndex(pos);
  const [old, current] = await Promise.all([geo.provinces("old"), geo.provinces("new")]);
  const refs = (list: typeof old) => list.map((p) => ({ id: String(p.id), name: sanitizeName(p.name) ?? String(p.id) }));
  return values.flatMap((value, i) => {
    let id: string;
    try {
      id = refId(`${field}[${i}]`, refs(current), value);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      try {
        id = refId(`${field}[${i}]`, refs(old), value);
      } catch {
        throw error;
      }
    }
    return [id, ...old.filter((p) => String(p.new_id) === id).map((p) => String(p.id))];
  });
};

const RESOLVE: Record<string, Resolve> = {
  "Order.status": async (_pos, _shopId, field, values) => values.map((v, i) => String(requireStatus(`${field}[${i}]`, ORDER_STATUSES, v))),
  "Order.partner_id": byRef(carriers),
  "Order.warehouse_id": byRef(warehouses),
  // A source, not one of its accounts (pages): the key splits by source.
  "Order.source": byRef(orderSources, (r) => r.parent_id === undefined),
  "Order.province_id": provinceIds,
  "Customer.id": (pos, shopId, field, values) => customerIds(pos, shopId, field, values),
  "User.id": byRef(staff),
  "Variation.id": (pos, shopId, field, values) => variationIds(pos, shopId, values, (i) => `${field}[${i}]`),
  "Variation.product_id": (pos, shopId, field, values) =>
    Promise.all(values.map(async (p, i) => String((await findProduct(pos, shopId, `${field}[${i}]`, p)).product.id))),
};

const EXCLUDE = "_exclude";

/**
 * Canceled and deleted: the orders search_orders' excluding_canceled_deleted leaves out, which the POS
 * still counts as sales once they reached success_status.
 */
export const CANCELED_STATUSES: readonly string[] = ["6", "7"];

// A status or an id may come as a number (a status's code): taken as its text.
const listed = someOf(z.union([nonEmpty(64), z.number().int().transform(String)]), 100).optional();

export const saleFilterInput = jsonish(shaped(Object.fromEntries(Object.keys(RESOLVE).flatMap((key) => [[key, listed], [`${key}${EXCLUDE}`, listed]]))))
  .optional()
  .describe("{split_by key or key_exclude: [ids or names]}");

/** The filter with every value an id or code the service matches. */
export async function saleFilter(ctx: Pick<ToolContext, "pos">, shopId: string, filter: Record<string, string[] | undefined>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(filter)) {
    if (!values) continue;
    const resolve = RESOLVE[key.endsWith(EXCLUDE) ? key.slice(0, -EXCLUDE.length) : key]!;
    out[key] = [...new Set(await resolve(ctx.pos, shopId, `filter["${key}"]`, values))];
  }
  return out;
}
