import { createHmac, randomBytes } from "node:crypto";

// The key that signs next_cursor values (src/tools/cursor.ts). The configuration sets it at start
// (config.ts), and config.ts imports nothing from the tools layer, so the key lives outside it.

let key: Buffer = randomBytes(32);

/**
 * The signing key. Several replicas behind one load balancer must agree on it, since a cursor
 * from one may come back to another:
 * - `PANCAKE_MCP_CURSOR_KEY` when set (rotating it invalidates the cursors in flight, nothing else);
 * - else derived from the configured credentials through HMAC, so replicas started with the same
 *   configuration agree without another secret to distribute, and the key reveals nothing about the
 *   credentials. Whoever knows the credentials could forge a cursor, but could call the upstream
 *   directly with them anyway;
 * - with no credential configured (no data to protect), a random key per process.
 */
export function setCursorKey(configured: string | undefined, secrets: readonly (string | undefined)[]): void {
  key = cursorKeyOf(configured, secrets);
}

/** The key a tenant's cursors are signed with: its own, else the process's (server.ts derives its requestState seal from it). */
export const signingKey = (tenantKey?: Buffer): Buffer => tenantKey ?? key;

/**
 * The key the rules above give for a configured key or a set of credentials; `scope` (a tenant's
 * id) makes it that tenant's own, so tenants sharing PANCAKE_MCP_CURSOR_KEY or credentials still
 * cannot use each other's cursors.
 */
export function cursorKeyOf(configured: string | undefined, secrets: readonly (string | undefined)[], scope?: string): Buffer {
  const known = [...new Set(secrets.filter((s): s is string => !!s))].sort();
  const base = configured
    ? createHmac("sha256", "pancake-mcp cursor key").update(configured).digest()
    : known.length === 0
      ? randomBytes(32)
      : createHmac("sha256", "pancake-mcp cursor key").update(known.join("\u0000")).digest();
  return scope === undefined ? base : createHmac("sha256", base).update(`tenant\u0000${scope}`).digest();
}
