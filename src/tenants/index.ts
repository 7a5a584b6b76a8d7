import type { Dispatcher } from "undici";
import { type Clients, createClients } from "../clients/index.js";
import { registerSecret } from "../text/redact.js";
import { type Config, configSecrets } from "../config.js";
import type { Logger } from "../log.js";
import { MemoryScope } from "../state/memory.js";
import type { StateScope } from "../state/scope.js";
import { credentialHash, sealKey } from "../state/seal.js";
import { cursorKeyOf } from "../cursor-key.js";

/** Who a request is served for: its config, clients (credentials), cursor key and logger. */
export interface Tenant {
  /** `env` for the environment's configuration; else the tenants file's id. */
  id: string;
  config: Config;
  clients: Clients;
  /** Unset for the environment's tenant, which keeps the process's key (src/cursor-key.ts). */
  cursorKey?: Buffer;
  logger: Logger;
}

/** Where tenants' state lives: this process's memory, or Redis (src/state/redis.ts). */
export interface StateSource {
  scope(namespace: string, secrets: readonly (string | undefined)[]): StateScope;
}

/** Most namespaces kept in memory (credentials passed in headers come and go). */
const MAX_MEMORY_SCOPES = 1000;

export function memoryStates(): StateSource {
  const scopes = new Map<string, MemoryScope>();
  return {
    scope(namespace) {
      let scope = scopes.get(namespace);
      if (scope) {
        scopes.delete(namespace);
      } else {
        scope = new MemoryScope(namespace);
        for (const old of scopes.keys()) {
          if (scopes.size < MAX_MEMORY_SCOPES) break;
          scopes.delete(old);
        }
      }
      scopes.set(namespace, scope);
      return scope;
    },
  };
}

export function redisStates(redis: { scope(namespace: string, key: Buffer): StateScope }): StateSource {
  return { scope: (namespace, secrets) => redis.scope(namespace, sealKey(secrets)) };
}

/**
 * The state namespace of a tenant: its id and a hash of its credentials, so a tenant whose
 * credentials change (another account) starts afresh, and no key is, or reveals, a credential.
 */
export function namespaceOf(id: string, config: Config): string {
  return `${id}.${credentialHash(configSecrets(config), 12)}`;
}

export interface TenantDeps {
  logger: Logger;
  states: StateSource;
  /** The pool every tenant's clients share; unset, each tenant's clients have their own. */
  pool?: () => Promise<Dispatcher>;
}

/** A tenant from the tenants file: its credentials are configured secrets, its cursors its own. */
export function fileTenant(id: string, config: Config, deps: TenantDeps): Tenant {
  const secrets = configSecrets(config);
  for (const secret of [...secrets, config.webhookSecret]) registerSecret(secret, true);
  const logger = deps.logger.child({ tenant: id });
  const clients = createClients(config, logger, deps.pool, deps.states.scope(namespaceOf(id, config), secrets));
  return { id, config, clients, cursorKey: cursorKeyOf(config.cursorKey, secrets, id), logger };
}
