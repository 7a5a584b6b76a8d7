import type { Dispatcher } from "undici";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import { MemoryScope } from "../state/memory.js";
import type { StateScope } from "../state/scope.js";
import { HttpCore } from "./http.js";
import { MessagingClient } from "./messaging.js";
import { PosClient } from "./pos.js";

export interface Clients {
  messaging: MessagingClient;
  pos: PosClient;
  /** The tenant's caches and limiters (in memory, or shared through Redis). */
  state: StateScope;
  close(): Promise<void>;
}

/**
 * One keep-alive pool per upstream (or the one given, shared by every tenant). The page-token API
 * allows 5 calls per second per page, so the messaging core queues to stay under it; the POS has
 * no documented per-key limit, so its core queues per shop only when PANCAKE_POS_RATE_PER_SECOND
 * sets one. The limiters and caches are the tenant's `state`.
 */
/** The page-token API's live limit: requests a second for each page (reference README). */
export const PAGE_RATE_PER_SECOND = 5;

export function createClients(
  config: Config,
  logger: Logger,
  dispatcher?: Dispatcher | (() => Promise<Dispatcher>),
  state: StateScope = new MemoryScope(),
): Clients {
  const common = {
    connectTimeoutMs: config.connectTimeoutMs,
    responseTimeoutMs: config.responseTimeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    retry: config.retry,
    logger,
    dispatcher,
  };
  const messagingCore = new HttpCore({
    ...common,
    api: "messaging",
    baseUrl: config.baseUrl,
    limiter: state.limiter("messaging", config.pageRatePerSecond ?? PAGE_RATE_PER_SECOND),
  });
  const posRate = config.posRatePerSecond;
  const posCore = new HttpCore({ ...common, api: "pos", baseUrl: config.posBaseUrl, limiter: posRate ? state.limiter("pos", posRate) : undefined });
  const { "*": defaultKey, ...apiKeys } = config.posApiKeys;
  return {
    messaging: new MessagingClient({
      core: messagingCore,
      mediaTimeoutMs: config.responseTimeoutMs,
      userToken: config.accessToken,
      pageTokens: config.pageAccessTokens,
      state,
    }),
    pos: new PosClient({ core: posCore, apiKeys, defaultKey, state }),
    state,
    async close() {
      await Promise.all([messagingCore.close(), posCore.close()]);
    },
  };
}
