import { z } from "zod";
import { id, num } from "../../format/compact.js";
import { toUnix } from "../../format/time.js";
import type { ReadState } from "../../shop-index/row-index.js";
import type { ToolContext } from "../define.js";
import { dateInput } from "../inputs.js";
import { openRange } from "../pos/open-range.js";
import { everyOrder } from "./every-order.js";

// Units sold per variation over a span, for search_products: what sells, what does not, and how
// long the stock lasts at the span's pace. Counted from every order created in the span (the shop
// index: a request or two at any size once read), canceled and deleted ones left out, as the
// owner means "sold"; units that came back are counted apart, never subtracted unasked.

export const salesInput = {
  sold_since: dateInput.optional().describe("Units sold from (default: last 30 days)"),
  sold_until: dateInput.optional().describe("Units sold to"),
  max_sold: z.number().int().min(0).optional().describe("Sold <= this (0: unsold)"),
  max_days_of_cover: z.number().min(0).optional().describe("Stock lasts <= N days at that pace"),
};

/** What one variation sold in the span. */
export interface Sold {
  sold: number;
  returned: number;
}

export interface Sales {
  byVariation: Map<string, Sold>;
  /** Days the span covers (its pace is units a day over them). */
  days: number;
  since: Date;
  until: Date;
  complete: boolean;
  reading?: ReadState;
}

const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

/** Whether a call asks for sales (any of their inputs, or a sort by them). */
export const asksSales = (input: { sold_since?: unknown; sold_until?: unknown; max_sold?: unknown; max_days_of_cover?: unknown; sort_by?: unknown }) =>
  input.sold_since !== undefined ||
  input.sold_until !== undefined ||
  input.max_sold !== undefined ||
  input.max_days_of_cover !== undefined ||
  input.sort_by === "sold" ||
  input.sort_by === "days_of_cover";

/** Units each variation sold (and got back) in the span asked, from every order created in it. */
export async function variantSales(ctx: ToolContext, shopId: string, input: { sold_since?: string | number; sold_until?: string | number }): Promise<Sales> {
  const tz = ctx.config.timezone;
  const asked = openRange(input.sold_since ?? `last ${DEFAULT_DAYS} days`, input.sold_until, tz);
  const since = asked.since!;
  const until = asked.until ?? new Date();
  const read = await everyOrder(ctx, shopId, {
    updateStatus: "inserted_at",
    startDateTime: toUnix(since),
    endDateTime: asked.until && toUnix(asked.until),
    fields: ["id", "status", "inserted_at", "items"],
  });
  const byVariation = new Map<string, Sold>();
  for (const order of read.rows) {
    // Canceled and deleted orders sold nothing; a returned one sent back all it had unless its lines say otherwise.
    if (order.status === 6 || order.status === 7) continue;
    const lines = order.items ?? [];
    const counted = lines.some((item) => (num(item.returned_count) ?? 0) > 0);
    for (const item of lines) {
      const key = id(item.variation_id);
      if (key === undefined) continue;
      const quantity = num(item.quantity) ?? 0;
      const back = order.status === 5 && !counted ? quantity : Math.min(num(item.returned_count) ?? 0, quantity);
      const held = byVariation.get(key) ?? { sold: 0, returned: 0 };
      held.sold += quantity;
      held.returned += back;
      byVariation.set(key, held);
    }
  }
  const days = Math.max(1, (until.getTime() - since.getTime()) / DAY_MS);
  return { byVariation, days, since, until, complete: read.complete, reading: read.reading };
}

/** Days the stock lasts at the span's pace; undefined when nothing sold (it lasts as long as nothing sells). */
export function daysOfCover(stock: number, sold: Sold | undefined, days: number): number | undefined {
  if (!sold || sold.sold <= 0) return undefined;
  return Math.round((Math.max(0, stock) / (sold.sold / days)) * 10) / 10;
}
