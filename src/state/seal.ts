import { createHash, createHmac } from "node:crypto";

/** The key that seals a tenant's cached secrets in Redis (src/state/redis.ts), from its credentials. */
export function sealKey(credentials: readonly (string | undefined)[]): Buffer {
  return createHmac("sha256", "pancake-mcp state seal").update(credentialText(credentials)).digest();
}

/** A short, one-way name for a set of credentials (namespaces, cursor keys). */
export function credentialHash(credentials: readonly (string | undefined)[], length = 16): string {
  return createHash("sha256").update(credentialText(credentials)).digest("hex").slice(0, length);
}

function credentialText(credentials: readonly (string | undefined)[]): string {
  return [...new Set(credentials.filter((c): c is string => !!c))].sort().join("\u0000");
}
