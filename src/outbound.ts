import { holdsSecret, redact } from "./clients/redact.js";
import { setOwn } from "./format/compact.js";

/**
 * The one gate on the way out: every tool result, resource and prompt passes here, so a credential
 * that an upstream echoes into data (a page name, a message, an order note, a customer name) never
 * reaches the client. The JSON text is scanned once; only a text that holds a secret is walked
 * and rebuilt, so a clean result (nearly all) costs one regex pass.
 */
export function outboundJson<T>(value: T): { value: T; text: string } {
  const text = JSON.stringify(value);
  if (!holdsSecret(text)) return { value, text };
  const clean = scrubDeep(value) as T;
  return { value: clean, text: JSON.stringify(clean) };
}

/** A text for the client (a prompt message), with any secret in it redacted. */
export function outboundText(text: string): string {
  return holdsSecret(text) ? redact(text) : text;
}

function scrubDeep(value: unknown): unknown {
  if (typeof value === "string") return outboundText(value);
  if (Array.isArray(value)) return value.map(scrubDeep);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) setOwn(out, outboundText(key), scrubDeep(v));
  return out;
}
