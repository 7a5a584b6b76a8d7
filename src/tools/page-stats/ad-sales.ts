import type { PosOrder } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { askAgainIn, readingNote } from "../../format/reading.js";
import { IndexFull } from "../../shop-index/row-index.js";
import { readBy, type ToolContext } from "../define.js";
import { shopsOf } from "../inbox/chat-orders.js";
import { everyOrder } from "../orders/every-order.js";

// get_ad_stats beside each ad's spend: what the shop's own POS counts from it. An order is from an
// ad when the POS records the ad on it (`ad_id`); only sales count (canceled and deleted orders are
// none, as every order figure counts), created in the report's days, their revenue the goods after
// discounts, shipping excluded (search_orders' amount).

/** Canceled and deleted: no sale. */
const VOID_STATUSES = [6, 7];

export interface AdSale {
  orders: number;
  revenue: number;
}

export interface AdSales {
  /** By `<ad id>`: its sales over every shop. */
  byAd: Map<string, AdSale>;
  /** The page each ad's orders came through, by ad id ("": the orders name none). */
  pageOf: Map<string, string>;
  complete: boolean;
  notes: string[];
  askAgainIn?: number | undefined;
}

const add = (to: Map<string, AdSale>, ad: string, orders: number, revenue: number) => {
  const sale = to.get(ad) ?? { orders: 0, revenue: 0 };
  sale.orders += orders;
  sale.revenue += revenue;
  to.set(ad, sale);
};

/**
 * The POS's sales per ad created within `span` (Unix s, both ends in), from every shop: counted in
 * the order index's table (a grouping query: nothing of the shop in memory) once it is up to date,
 * by the call's deadline (a first read of a big shop answers with what it read, saying so); read
 * from the order list where the index is off.
 */
export async function adSales(ctx: ToolContext, span: { since: number; until: number }): Promise<AdSales> {
  const shops = await shopsOf(ctx, "get_ad_stats");
  const out: AdSales = { byAd: new Map(), pageOf: new Map(), complete: true, notes: [] };
  const waits: number[] = [];
  await Promise.all(
    [...shops].map(async ([shopId, shopName]) => {
      const shop = `shop ${shopName ?? shopId}`;
      if (ctx.index) {
        const orders = ctx.index.orders(shopId);
        try {
          const view = await orders.view(ctx.pos, span.since, ctx.progress, readBy(ctx));
          for (const t of orders.tally(["ad", "page"], "amount", { by: "inserted", from: span.since, to: span.until }, ["status", VOID_STATUSES])) {
            const [ad, page] = t.values.map((v) => (v === null ? undefined : String(v)));
            if (ad === undefined) continue;
            add(out.byAd, ad, t.count, t.sum);
            out.pageOf.set(ad, page ?? "");
          }
          if (view.partial) {
            out.complete = false;
            out.notes.push(readingNote(`the orders of ${shop}`, view.partial, ctx.config.timezone));
            if (!view.partial.failed) waits.push(askAgainIn(view.partial));
          }
          return;
        } catch (error) {
          if (!(error instanceof IndexFull)) throw error;
        }
      }
      const read = await everyOrder(ctx, shopId, { startDateTime: span.since, endDateTime: span.until, fields: ["id", "status", "ad_id", "page_id", "total_price_after_sub_discount", "total_price"] });
      for (const o of read.rows as PosOrder[]) {
        const ad = id((o as { ad_id?: unknown }).ad_id);
        if (ad === undefined || VOID_STATUSES.includes(Number(o.status))) continue;
        add(out.byAd, ad, 1, num(o.total_price_after_sub_discount) ?? num(o.total_price) ?? 0);
        out.pageOf.set(ad, id(o.page_id) ?? "");
      }
      if (!read.complete) {
        out.complete = false;
        out.notes.push(`${shop}'s orders of the range were read in part (${read.rows.length}${read.total === undefined ? "" : ` of ${read.total}`}): the POS figures are at least these`);
      }
    }),
  );
  out.askAgainIn = waits.length ? Math.max(...waits) : undefined;
  return out;
}
