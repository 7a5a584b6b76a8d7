import { DEFAULT_CURRENCY } from "../../format/orders.js";
import type { ToolContext } from "../define.js";
import { cachedShops, resolveShopId } from "./resolve-shop.js";

export interface ShopScope {
  shopId: string;
  /** The shop's currency, stated once per result next to its integer amounts. */
  currency: string;
}

/**
 * The shop a back-office tool acts on, with its currency. The live shop record has no currency
 * (only orders carry one), so the orders' default stands in when the shop list gives none.
 */
export async function shopScope(ctx: Pick<ToolContext, "config" | "pos">, shopId: string | undefined): Promise<ShopScope> {
  const id = await resolveShopId(ctx, shopId);
  const shop = (await cachedShops(ctx.pos).catch(() => [])).find((s) => String(s.id) === id);
  const currency = shop?.currency;
  return { shopId: id, currency: typeof currency === "string" && currency ? currency : DEFAULT_CURRENCY };
}
