import type { PosClient } from "../../clients/pos.js";
import { num } from "../../format/compact.js";
import { orderStatusName } from "../../format/orders.js";
import { carriers, orderSources, type Ref, warehouses } from "../pos/shop-refs.js";
import { provincesNow } from "../shop/provinces-now.js";

// Splits whose values are codes and ids of the shop's small lists (a status, a carrier, a
// warehouse, a source, a province): rows show the name in their place, as search_orders' groups
// do, since nothing is asked of one by its id that its name does not say, and the filter takes the
// name too. A province is named by the list in force since 1 July 2025, so the rows of old
// provinces merged into one read alike (the tool sums them). A value no list names stays as given.

type Label = (value: unknown) => string | undefined;

const byRef =
  (list: (pos: PosClient, shopId: string) => Promise<Ref[]>) =>
  async (pos: PosClient, shopId: string): Promise<Label> => {
    const names = new Map((await list(pos, shopId).catch(() => [])).map((r) => [r.id, r.name]));
    return (value) => (value == null ? undefined : names.get(String(value)));
  };

const LABELS: Record<string, (pos: PosClient, shopId: string) => Promise<Label>> = {
  "Order.status": async () => (value) => orderStatusName(num(value)),
  "Order.partner_id": byRef(carriers),
  "Order.warehouse_id": byRef(warehouses),
  "Order.source": byRef(orderSources),
  "Order.province_id": async (pos) => {
    const provinces = await provincesNow(pos);
    return (value) => (provinces.read && value != null && value !== "" ? provinces.of({ province_id: value }) : undefined);
  },
};

/** A name for each split value a list names, by split: the lists read once for every row. */
export async function splitLabels(pos: PosClient, shopId: string, split: readonly string[]): Promise<(split: string, value: unknown) => string | undefined> {
  const wanted = split.filter((s) => LABELS[s]);
  const labels = new Map(await Promise.all(wanted.map(async (s) => [s, await LABELS[s]!(pos, shopId)] as const)));
  return (s, value) => labels.get(s)?.(value);
}
