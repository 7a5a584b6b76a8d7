import type { PosClient } from "../../clients/pos.js";
import { findProduct } from "../catalog/product-ref.js";
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

/**
 * The upstream items of an ad cost, every reference resolved before the write: the service takes
 * any key and books the spend against it, so an unknown source ("Facebook" instead of "-1"),
 * warehouse, product or marketer would attribute it to nothing. Names are resolved to ids and what
 * does not resolve is an error listing the valid values.
 */
export async function adCostItems(pos: PosClient, shopId: string, items: AdCostItem[]): Promise<Record<string, unknown>[]> {
  const lists = new Map<string, Promise<Ref[]>>();
  const list = (kind: string, load: (pos: PosClient, shopId: string) => Promise<Ref[]>) => {
    if (!lists.has(kind)) lists.set(kind, load(pos, shopId));
    return lists.get(kind)!;
  };
  const products = new Map<string, Promise<string>>();
  const productId = (field: string, value: string) => {
    if (!products.has(value)) products.set(value, findProduct(pos, shopId, field, value).then((ref) => String(ref.product.id)));
    return products.get(value)!;
  };
  return Promise.all(
    items.map(async ({ marketer, source, warehouse_id, product, ...rest }, i) => {
      const at = `items[${i}]`;
      const pair = source && sourcePair(`${at}.source`, await list("sources", orderSources), source.key, source.account);
      return {
        ...rest,
        source: pair && { key: pair[0], account: pair[1] },
        warehouse_id: warehouse_id && refId(`${at}.warehouse_id`, await list("warehouses", warehouses), warehouse_id),
        product: product && (await productId(`${at}.product`, product)),
        pke_mkter: marketer && refId(`${at}.marketer`, await list("staff", staff), marketer),
      };
    }),
  );
}
