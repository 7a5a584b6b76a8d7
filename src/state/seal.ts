import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";

/**
 * Values that hold secrets (the page list's page tokens) leave the process only sealed with
 * AES-256-GCM under a key derived from the tenant's own credentials, which never reach Redis: a
 * copy of Redis reveals no page token, and one tenant's key opens nothing of another's.
 */
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

export function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/** The text, or undefined when the value was sealed under another key or altered. */
export function unseal(key: Buffer, sealed: string): string | undefined {
  try {
    const raw = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
