import type { PosClient } from "../clients/pos.js";
import type { PosOrder } from "../clients/schemas/pos.js";
import { id, num } from "../format/compact.js";
import { customerIdOf } from "../format/orders.js";
import { normalizePhone } from "../format/phone.js";
import { joinKey as key } from "./join-keys.js";
import { readOrders } from "./order-reader.js";
import { INDEX_FIELDS, indexedOrder, orderVersion, unix } from "./order-rows.js";
import type { IndexKind } from "./row-index.js";

/**
 * A shop's orders. The list counts any span in one request (its total), so every sync checks the
 * whole span held against it: one request more than the refresh.
 */
export function orderKind(shopId: string): IndexKind<PosOrder, PosClient> {
  return {
    name: `orders of shop ${shopId}`,
    table: "orders",
    id: (o) => String(o.id),
    updated: (o) => unix(o.updated_at),
    inserted: (o) => unix(o.inserted_at),
    version: orderVersion,
    // Most of an order's bytes, read by the questions on statuses reached, lines and what came back.
    heavy: ["status_history", "items"],
    columns: {
      status: (o) => (typeof o.status === "number" ? o.status : undefined),
      amount: (o) => num(o.total_price_after_sub_discount) ?? num(o.total_price),
      customer: customerIdOf,
      // What an ad sold, as the POS attributes the order (get_ad_stats' orders and revenue), of which page.
      ad: (o) => id((o as { ad_id?: unknown }).ad_id),
      page: (o) => id(o.page_id),
    },
    keys: (o) => {
      const phone = typeof o.bill_phone_number === "string" ? normalizePhone(o.bill_phone_number) : undefined;
      return [key("c", (o as { conversation_id?: unknown }).conversation_id), key("f", o.customer?.fb_id), key("p", phone)].filter((k): k is string => k !== undefined);
    },
    async read(pos, since, until, progress, sink) {
      await readOrders((q) => pos.listOrders(shopId, { ...q, updateStatus: "updated_at", fields: INDEX_FIELDS }), since, until, progress, {
        rows: (batch) => sink.rows(batch.map(indexedOrder)),
        covered: sink.covered,
        parallel: sink.parallel,
      });
    },
    async count(pos, since, until) {
      const page = await pos.listOrders(shopId, { updateStatus: "updated_at", startDateTime: since ?? undefined, endDateTime: until, page_number: 1, page_size: 1, fields: ["id"] });
      return page.total_entries === undefined ? undefined : { since, count: page.total_entries };
    },
    listed: (o) => (o as { is_removed?: unknown }).is_removed !== true,
    checkEveryMs: 0,
  };
}
