import type { ToolContext } from "../define.js";
import { cachedShops, resolveShopId } from "./resolve-shop.js";

export interface ShopScope {
  shopId: string;
  /** The shop's currency, stated once per result next to its integer amounts. */
  currency: string | undefined;
}

/** The shop a back-office tool acts on, with its currency (from the cached shop list). */
export async function shopScope(ctx: Pick<ToolContext, "config" | "pos">, shopId: string | undefined): Promise<ShopScope> {
  const id = await resolveShopId(ctx, shopId);
  const shop = (await cachedShops(ctx.pos).catch(() => [])).find((s) => String(s.id) === id);
  const currency = shop?.currency;
  return { shopId: id, currency: typeof currency === "string" ? currency : undefined };
}
