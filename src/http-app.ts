import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { limiterEvents, sharedPool, upstreamEvents } from "./clients/http.js";
import type { Clients } from "./clients/index.js";
import type { Config } from "./config.js";
import type { Logger } from "./log.js";
import { buildServer } from "./server.js";
import { toolEvents } from "./tools/define.js";
import { cacheEvents } from "./state/ttl-cache.js";
import type { RedisState } from "./state/redis.js";
import { headerCredentials, headerTenant } from "./tenants/headers.js";
import { memoryStates, type StateSource, type Tenant } from "./tenants/index.js";
import { TenantRegistry } from "./tenants/registry.js";
import type { HttpHandle, Refusal, RequestTarget } from "./transports/http.js";
import { shopIndexFor } from "./shop-index/service.js";
import { receiveWebhook, WEBHOOK_MAX_BYTES, type WebhookTenant } from "./webhooks.js";

export interface AppOptions {
  config: Config;
  logger: Logger;
  /** The environment's clients (single-tenant mode). */
  clients: Clients;
  /** Where tenants' state lives (Redis); unset, each process's memory. */
  states?: StateSource;
  redis?: RedisState;
}

export interface App extends HttpHandle {
  /** Re-reads the tenants file (SIGHUP); keeps the tenants it had when the file is not valid. */
  reload(): void;
}

/**
 * `--http`: who each request is for and what serves it. One tenant from the environment
 * (PANCAKE_MCP_TOKEN and the PANCAKE_* credentials), or the tenants of PANCAKE_MCP_TENANTS by
 * bearer token; either may take credentials from request headers when the operator allows it.
 */
export async function serveApp(options: AppOptions): Promise<App> {
  const { config, logger, redis } = options;
  const states = options.states ?? memoryStates();
  const pool = sharedPool(config);
  const deps = { logger, states, pool: pool.get };
  const registry = config.tenantsFile ? new TenantRegistry(config.tenantsFile, config, deps) : undefined;
  if (registry) logger.info(`tenants: ${registry.load()} from ${config.tenantsFile}`);
  const single: Tenant = { id: "env", config, clients: options.clients, logger };
  const tokenDigest = config.mcpToken ? sha256(config.mcpToken) : undefined;
  const metrics = config.metrics
    ? await (await import("./metrics.js")).startMetrics(
        { tenants: () => registry?.size ?? 1, redis: () => redis?.link.status },
        { toolEvents, upstreamEvents, limiterEvents, cacheEvents },
      )
    : undefined;

  const tenantOf = (req: IncomingMessage): Tenant | Refusal => {
    const token = bearerToken(req.headers.authorization);
    if (registry) return (token !== undefined && registry.find(token)) || unauthorized("your tenant's token");
    return !tokenDigest || (token !== undefined && timingSafeEqual(sha256(token), tokenDigest)) ? single : unauthorized("PANCAKE_MCP_TOKEN");
  };

  const route = (req: IncomingMessage, requestId: string): RequestTarget | Refusal => {
    let tenant = tenantOf(req);
    if ("status" in tenant) return tenant;
    const credentials = headerCredentials(req.headers);
    if (credentials !== undefined) {
      if (!config.credentialHeaders) {
        return refusal(400, "This server does not take credentials in X-Pancake-* headers (the operator enables them with PANCAKE_MCP_CREDENTIAL_HEADERS=1).");
      }
      if ("error" in credentials) return refusal(400, `Credential headers: ${credentials.error}`);
      tenant = headerTenant(tenant, credentials, deps);
    }
    metrics?.request(tenant.id);
    const served = tenant;
    return {
      tenant: served.clients.state.namespace,
      createServer: (era) =>
        buildServer({
          config: served.config,
          clients: served.clients,
          logger: served.logger.child({ request_id: requestId }),
          era,
          requestId,
          cursorKey: served.cursorKey,
        }),
    };
  };

  // Who a webhook delivery is for, by its secret: the environment's tenant, or the file's.
  const hooked = (): WebhookTenant[] =>
    (registry ? registry.all() : [single]).flatMap((t) =>
      t.config.webhookSecret
        ? [{ id: t.id, secret: t.config.webhookSecret, clients: t.clients, index: shopIndexFor(t.config, t.clients.state, t.logger), logger: t.logger, keyedShops: Object.keys(t.config.posApiKeys).filter((k) => k !== "*") }]
        : [],
    );
  const webhook = config.webhookSecret || registry ? { maxBodyBytes: WEBHOOK_MAX_BYTES, receive: (rest: string, headers: IncomingMessage["headers"], body: string | "too_large") => receiveWebhook(hooked, rest, headers, body) } : undefined;

  // The transport (and the SDK's HTTP server code) loads only for --http.
  const { serveHttp } = await import("./transports/http.js");
  const handle = await serveHttp({
    host: config.host,
    port: config.port,
    authenticated: registry !== undefined || tokenDigest !== undefined,
    allowedHosts: config.allowedHosts,
    allowedOrigins: config.allowedOrigins,
    logger,
    route,
    readiness: () => ({
      status: redis && redis.link.status !== "up" ? "degraded" : "ready",
      redis: redis?.link.status ?? "off",
      ...(registry ? { tenants: registry.size } : {}),
    }),
    metrics: metrics?.render,
    webhook,
  });
  return {
    url: handle.url,
    async close() {
      await handle.close();
      await pool.close();
    },
    reload() {
      if (!registry) return;
      try {
        logger.info(`tenants reloaded: ${registry.load()} from ${config.tenantsFile}`);
      } catch (error) {
        logger.error(`tenants not reloaded, the previous ones stay: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

/** The token of an `Authorization: Bearer <token>` header. */
function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim();
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function refusal(status: number, message: string): Refusal {
  return { status, code: -32000, message };
}

function unauthorized(what: string): Refusal {
  return { status: 401, code: -32001, message: `Unauthorized: send Authorization: Bearer <${what}>`, headers: { "www-authenticate": 'Bearer realm="pancake-mcp"' } };
}
