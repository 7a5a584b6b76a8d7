// Tokens and keys travel in query strings, so any URL or upstream message can carry one. Every
// string that leaves the server (error text, log line, and through src/outbound.ts every tool
// result, resource and prompt) passes through redact().

export const SECRET_PARAMS = ["access_token", "page_access_token", "api_key"] as const;

/** What stands where a secret was. */
export const REDACTED = "[redacted]";

const secretValues = new Set<string>();
let secretPattern: RegExp | undefined;
let secretProbe: RegExp | undefined;

/** Registers a secret value so that redact() removes it wherever it appears. */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 4 || secretValues.has(value)) return;
  secretValues.add(value);
  const escaped = [...secretValues]
    .sort((a, b) => b.length - a.length)
    .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  secretPattern = new RegExp(escaped.join("|"), "g");
  secretProbe = new RegExp(secretPattern.source);
}

const paramSource = `((?:${SECRET_PARAMS.join("|")})(?:=|%3D|":\\s*"))[^&\\s"'#]*`;
const paramPattern = new RegExp(paramSource, "gi");
// Without the g flag: test() keeps no state between calls.
const paramProbe = new RegExp(paramSource, "i");

export function redact(text: string): string {
  let out = text.replace(paramPattern, "$1[redacted]");
  if (secretPattern) out = out.replace(secretPattern, "[redacted]");
  return out;
}

/** Whether redact() would change the text: one scan, so clean text (nearly all) costs little. */
export function holdsSecret(text: string): boolean {
  return paramProbe.test(text) || secretProbe?.test(text) === true;
}

/**
 * The first `max` characters of a text, redacted before it is cut: cutting first could split a
 * secret so that its first characters stay and no longer match it.
 */
export function redactedPrefix(text: string, max: number): string {
  return (holdsSecret(text) ? redact(text) : text).slice(0, max);
}
