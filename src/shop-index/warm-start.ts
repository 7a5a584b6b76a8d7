import type { Clients } from "../clients/index.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import { shopIndexFor } from "./service.js";

/**
 * At a server's start, in the background: every index kept from an earlier run (on disk, or in
 * Redis) is brought up to date, and a read a restart cut short goes on, so a desktop session's
 * first question finds the index current. With PANCAKE_INDEX_PRELOAD every page's conversations
 * and every shop's orders of all time are read as well: the first question of a big shop then
 * waits for nothing (the README says what it costs). Failures are logged; the server serves on.
 */
export async function warmStart(config: Config, clients: Clients, logger: Logger): Promise<void> {
  const index = shopIndexFor(config, clients.state, logger);
  if (!index || (config.index.mode !== "disk" && !config.index.preload)) return;
  // Those kept by an earlier run, as they were: nothing is read that a first question would not.
  const kept = await index.keptList();
  // With PANCAKE_INDEX_PRELOAD, every page and shop, read whole.
  const [pageIds, shopIdList] = config.index.preload
    ? await Promise.all([clients.messaging.activePageIds().catch(failed(logger, "pages")), shopIds(config, clients).catch(failed(logger, "shops"))])
    : [kept.conversations, kept.orders];
  const need = config.index.preload ? null : undefined;
  const started = await Promise.all([
    ...pageIds.map(async (id) => ((await index.conversations(id).warm(clients.messaging, need)) ? [`page ${id}`] : [])),
    ...shopIdList.map(async (id) => ((await index.orders(id).warm(clients.pos, need)) ? [`shop ${id}`] : [])),
  ]);
  const warmed = started.flat();
  if (warmed.length) logger.info(`shop index: ${need === null ? "reading" : "bringing up to date what is kept of"} ${warmed.join(", ")}`);
}

/** The shops the keys name, or those the single key sees. */
async function shopIds(config: Config, clients: Clients): Promise<string[]> {
  const named = Object.keys(config.posApiKeys).filter((id) => id !== "*");
  if (!config.posApiKeys["*"]) return named;
  const listed = (await clients.pos.listShops()).map((shop) => String(shop.id));
  return [...new Set([...named, ...listed])];
}

const failed = (logger: Logger, what: string) => (error: unknown) => {
  logger.info(`shop index: not warmed at start (the ${what} could not be listed: ${error instanceof Error ? error.message : String(error)})`);
  return [] as string[];
};
