import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import { createClients } from "../clients/index.js";
import { registerSecret } from "../text/redact.js";
import { type Config, configSecrets, parsePairs } from "../config.js";
import { credentialHash } from "../state/seal.js";
import { cursorKeyOf } from "../cursor-key.js";
import type { Tenant, TenantDeps } from "./index.js";

/**
 * Credentials a gateway that holds the secrets passes with each request, when the operator allows
 * it (PANCAKE_MCP_CREDENTIAL_HEADERS=1). They replace the tenant's credentials for that request
 * alone, none of the tenant's mixed in. They are never logged, and kept past the request only
 * as what they hash to: the state namespace (so the page list and the rate limit carry over from
 * one request to the next) and the key that seals cached page tokens.
 */
export const CREDENTIAL_HEADERS = {
  accessToken: "x-pancake-access-token",
  pageAccessTokens: "x-pancake-page-access-tokens",
  posApiKey: "x-pancake-pos-api-key",
} as const;

type Credentials = Pick<Config, "accessToken" | "pageAccessTokens" | "posApiKeys">;

/** The credentials in a request's headers, undefined when it has none, or what is wrong with them. */
export function headerCredentials(headers: IncomingHttpHeaders): Credentials | undefined | { error: string } {
  const value = (name: string) => {
    const raw = headers[name];
    return (Array.isArray(raw) ? raw[0] : raw)?.trim() || undefined;
  };
  const accessToken = value(CREDENTIAL_HEADERS.accessToken);
  const pages = value(CREDENTIAL_HEADERS.pageAccessTokens);
  const pos = value(CREDENTIAL_HEADERS.posApiKey);
  if (accessToken === undefined && pages === undefined && pos === undefined) return undefined;
  try {
    return {
      accessToken,
      pageAccessTokens: parsePairs("X-Pancake-Page-Access-Tokens", pages),
      posApiKeys: pos === undefined ? {} : pos.includes("=") ? parsePairs("X-Pancake-Pos-Api-Key", pos) : { "*": pos },
    };
  } catch (error) {
    const message = error instanceof z.ZodError ? error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join("; ") : "unreadable";
    return { error: message };
  }
}

/** The request's tenant with the header credentials in place of its own. */
export function headerTenant(base: Tenant, credentials: Credentials, deps: TenantDeps): Tenant {
  const config: Config = { ...base.config, ...credentials };
  const secrets = configSecrets(config);
  // Scrubbed from what this request returns; kept among the most recent only (src/text/redact.ts).
  for (const secret of secrets) registerSecret(secret);
  const digest = credentialHash(secrets, 32);
  const logger = base.logger.child({ credentials: `headers:${digest.slice(0, 8)}` });
  const clients = createClients(config, logger, deps.pool, deps.states.scope(`${base.id}.headers.${digest}`, secrets));
  return { id: base.id, config, clients, cursorKey: cursorKeyOf(config.cursorKey, secrets, `${base.id}\u0000headers`), logger };
}
