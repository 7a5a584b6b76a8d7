import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosShop } from "../../clients/schemas/pos.js";
import type { ToolContext } from "../define.js";
import { cachePer } from "../../state/ttl-cache.js";

const shopCache = cachePer<PosClient>("shops", { ttlMs: 5 * 60_000 });

/** The shops the api key(s) can see, cached for a few minutes (shop lists rarely change). */
export function cachedShops(pos: PosClient): Promise<PosShop[]> {
  return shopCache(pos).get("shops", (shared) => shared.listShops());
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
  // A configured shop its key does not list is still a candidate.
  const candidates = new Map<string, string>(shops.map((s) => [String(s.id), s.name ?? "unnamed"]));
  for (const id of configured) if (!candidates.has(id)) candidates.set(id, "configured");
  if (candidates.size === 1) return [...candidates.keys()][0]!;
  const listed = [...candidates].map(([id, name]) => `${id} (${name})`).join(", ");
  throw new InputError(
    "shop_id",
    candidates.size === 0 ? "the api key sees no shop" : "several shops are available; say which one",
    candidates.size === 0 ? "Check PANCAKE_POS_API_KEY." : `Pass shop_id, one of: ${listed}.`,
  );
}
