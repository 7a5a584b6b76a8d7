// Tokens and keys travel in query strings, so any URL or upstream message can carry one. Every
// string that leaves the server (error text, log line, and through src/outbound.ts every tool
// result, resource and prompt) passes through redact().

export const SECRET_PARAMS = ["access_token", "page_access_token", "api_key"] as const;

/** What stands where a secret was. */
export const REDACTED = "[redacted]";

/** Secrets by value; `true` for configured ones, kept for the life of the process. */
const secretValues = new Map<string, boolean>();
let secretPattern: RegExp | undefined;
let secretProbe: RegExp | undefined;
let passing = 0;
/**
 * Most secrets kept that were not configured (page tokens read from page lists, credentials a
 * gateway passed in request headers): a stream of new credentials cannot grow the set, or the
 * time each string takes to scrub, without bound. Configured ones always stay.
 */
const MAX_PASSING_SECRETS = 2000;

/**
 * Registers a secret value so that redact() removes it wherever it appears. `configured` ones
 * (the environment's, the tenants file's) stay for good; others make room for newer ones.
 */
export function registerSecret(value: string | undefined, configured = false): void {
  if (!value || value.length < 4) return;
  const known = secretValues.get(value);
  if (known !== undefined) {
    if (configured && !known) {
      secretValues.set(value, true);
      passing--;
    }
    return;
  }
  secretValues.set(value, configured);
  if (!configured && ++passing > MAX_PASSING_SECRETS) {
    for (const [old, kept] of secretValues) {
      if (kept) continue;
      secretValues.delete(old);
      passing--;
      break;
    }
  }
  const escaped = [...secretValues.keys()]
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
