import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosShop } from "../../clients/schemas/pos.js";
import type { ToolContext } from "../define.js";
import { cachePer } from "./ttl-cache.js";

const shopCache = cachePer<PosClient>(5 * 60_000);

/** The shops the api key(s) can see, cached for a few minutes (shop lists rarely change). */
export function cachedShops(pos: PosClient): Promise<PosShop[]> {
  return shopCache(pos).get("shops", () => pos.listShops());
}

/**
 * The shop a POS tool acts on: the one given, else the only shop configured or visible.
 * With several shops and none given, the error lists them.
 */
export async function resolveShopId(ctx: Pick<ToolContext, "config" | "pos">, shopId: string | undefined): Promise<string> {
  if (shopId !== undefined) return shopId;
  const configured = Object.keys(ctx.config.posApiKeys).filter((k) => k !== "*");
  if (configured.length === 1) return configured[0]!;
  const shops = await cachedShops(ctx.pos);
  if (shops.length === 1) return String(shops[0]!.id);
  const listed = shops.map((s) => `${s.id} (${s.name ?? "unnamed"})`).join(", ");
  throw new InputError(
    "shop_id",
    shops.length === 0 ? "the api key sees no shop" : "several shops are available; say which one",
    shops.length === 0 ? "Check PANCAKE_POS_API_KEY." : `Pass shop_id, one of: ${listed}.`,
  );
}
