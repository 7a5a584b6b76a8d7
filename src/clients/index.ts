import type { Dispatcher } from "undici";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import { HttpCore } from "./http.js";
import { MessagingClient } from "./messaging.js";
import { PosClient } from "./pos.js";

export interface Clients {
  messaging: MessagingClient;
  pos: PosClient;
  close(): Promise<void>;
}

/**
 * One keep-alive pool per upstream. The page-token API allows 5 calls per second per page, so
 * the messaging core queues to stay under it; the POS has no documented per-key limit.
 */
export function createClients(config: Config, logger: Logger, dispatcher?: Dispatcher): Clients {
  const common = {
    connectTimeoutMs: config.connectTimeoutMs,
    responseTimeoutMs: config.responseTimeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    retry: config.retry,
    logger,
    dispatcher,
  };
  const messagingCore = new HttpCore({ ...common, api: "messaging", baseUrl: config.baseUrl, ratePerSecond: config.pageRatePerSecond ?? 5 });
  const posCore = new HttpCore({ ...common, api: "pos", baseUrl: config.posBaseUrl });
  const { "*": defaultKey, ...apiKeys } = config.posApiKeys;
  return {
    messaging: new MessagingClient({
      core: messagingCore,
      mediaTimeoutMs: config.responseTimeoutMs,
      userToken: config.accessToken,
      pageTokens: config.pageAccessTokens,
    }),
    pos: new PosClient({ core: posCore, apiKeys, defaultKey }),
    async close() {
      await Promise.all([messagingCore.close(), posCore.close()]);
    },
  };
}
