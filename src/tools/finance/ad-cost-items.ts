import type { PosClient } from "../../clients/pos.js";
import { findProduct } from "../catalog/product-ref.js";
import { sanitizeName } from "../../text/sanitize.js";
import { orderSources, type Ref, refId, sourcePair, staff, warehouses } from "../pos/shop-refs.js";

export interface AdCostItem {
  cost: number;
  tax?: number | undefined;
  warehouse_id?: string | undefined;
  product?: string | undefined;
  marketer?: string | undefined;
  source?: { key: string; account?: string | undefined } | undefined;
  post_ids?: string[] | undefined;
  is_livestream?: boolean | undefined;
  is_wholesale?: boolean | undefined;
}

/** The upstream items of an ad cost, and what each is booked against by name (for the confirmation). */
export interface AdCostLines {
  items: Record<string, unknown>[];
  labels: string[];
}

/**
 * The upstream items of an ad cost, every reference resolved before the write: the service takes
 * any key and books the spend against it, so an unknown source ("Facebook" instead of "-1"),
 * warehouse, product or marketer would attribute it to nothing. Names are resolved to ids and what
 * does not resolve is an error listing the valid values.
 */
export async function adCostItems(pos: PosClient, shopId: string, items: AdCostItem[]): Promise<AdCostLines> {
  const [sources, stores, people] = await Promise.all([
    items.some((it) => it.source) ? orderSources(pos, shopId) : [],
    items.some((it) => it.warehouse_id) ? warehouses(pos, shopId) : [],
    items.some((it) => it.marketer) ? staff(pos, shopId) : [],
  ]);
  const products = new Map<string, Promise<{ id: string; name?: string }>>();
  const productOf = (field: string, value: string) => {
    if (!products.has(value)) {
      products.set(value, findProduct(pos, shopId, field, value).then(({ product }) => ({ id: String(product.id), name: sanitizeName(product.name) })));
    }
    return products.get(value)!;
  };
  const nameIn = (list: Ref[], id: string | undefined) => (id === undefined ? undefined : (list.find((r) => r.id === id)?.name ?? id));
  const resolved = await Promise.all(
    items.map(async ({ marketer, source, warehouse_id, product, ...rest }, i) => {
      const at = `items[${i}]`;
      const pair = source && sourcePair(`${at}.source`, sources, source.key, source.account);
      const warehouse = warehouse_id && refId(`${at}.warehouse_id`, stores, warehouse_id);
      const found = product === undefined ? undefined : await productOf(`${at}.product`, product);
      const marketerId = marketer && refId(`${at}.marketer`, people, marketer);
      const label = [pair?.map((id) => nameIn(sources, id)).join("/"), nameIn(stores, warehouse), found?.name, nameIn(people, marketerId)];
      return {
        item: { ...rest, source: pair && { key: pair[0], account: pair[1] }, warehouse_id: warehouse, product: found?.id, pke_mkter: marketerId },
        label: label.filter(Boolean).join(", "),
      };
    }),
  );
  return { items: resolved.map((r) => r.item), labels: resolved.map((r) => r.label) };
}
