// Tokens and keys travel in query strings, so any URL or upstream message can carry one.
// Every string that leaves the HTTP core (error text, log line) passes through redact().

export const SECRET_PARAMS = ["access_token", "page_access_token", "api_key"] as const;

const secretValues = new Set<string>();
let secretPattern: RegExp | undefined;

/** Registers a secret value so that redact() removes it wherever it appears. */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 4 || secretValues.has(value)) return;
  secretValues.add(value);
  const escaped = [...secretValues]
    .sort((a, b) => b.length - a.length)
    .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  secretPattern = new RegExp(escaped.join("|"), "g");
}

const paramPattern = new RegExp(`((?:${SECRET_PARAMS.join("|")})(?:=|%3D|":\\s*"))[^&\\s"'#]*`, "gi");

export function redact(text: string): string {
  let out = text.replace(paramPattern, "$1[redacted]");
  if (secretPattern) out = out.replace(secretPattern, "[redacted]");
  return out;
}
