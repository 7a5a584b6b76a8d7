import { holdsSecret, REDACTED, redact, registerSecret, SECRET_PARAMS } from "./text/redact.js";
import { setOwn } from "./text/own-property.js";

/** A resource or a listing as it is sent: redacted (`scrubbed`), and cut to its budget. */
export function outboundJson<T>(value: T, budget = DEFAULT_BUDGET): { value: T; text: string } {
  const out = scrubbed(value);
  return out.text.length <= budget ? out : withinBudget(out.value, budget);
}

/**
 * The one gate on the way out: every tool result (tools/page-fit.ts), resource and prompt passes
 * here, so a credential that an upstream echoes into data (a page name, a message, an order note,
 * a customer name) never reaches the client. The JSON text is scanned once; only a text that holds
 * a secret is walked and rebuilt, so a clean result (nearly all) costs one regex pass.
 */
export function scrubbed<T>(value: T): { value: T; text: string } {
  const text = JSON.stringify(value);
  const clean = holdsSecret(text) ? (scrubDeep(value) as T) : value;
  return { value: clean, text: clean === value ? text : JSON.stringify(clean) };
}

/**
 * Characters of JSON one result may take unless configured otherwise (PANCAKE_MAX_RESULT_CHARS) or
 * its tool sets a smaller budget: about 25k tokens, what clients accept from one tool call (Claude
 * Code stops there). Only a hostile or broken upstream record (a 40,000-entry history, megabytes
 * of note) or a page of large raw fields comes near it.
 */
export const DEFAULT_BUDGET = 100_000;

/** Why a result was cut, in the result itself, where the model reads it. */
export const CUT_KEY = "result_cut";

/**
 * The result cut to its budget: every list and object trimmed to its first `keep` entries, with
 * `keep` as large as fits (then long text cut too), and a `result_cut` note naming what was left
 * out (`say` words it around the list of cuts).
 */
export function withinBudget<T>(
  value: T,
  budget: number,
  say = (what: string) => `over the ${budget}-character budget for one result: ${what}. Ask for less (a smaller limit, detail "compact", a narrower filter).`,
): { value: T; text: string } {
  const most = widest(value);
  const attempt = (keep: number, textMax: number): { value: T; text: string } | undefined => {
    const cuts: string[] = [];
    const trimmed = trim(value, keep, textMax, "", cuts);
    const what = [...new Set(cuts)];
    const note = say(`${what.slice(0, 10).join("; ")}${what.length > 10 ? `; and ${what.length - 10} more` : ""}`);
    const withNote = (trimmed !== null && typeof trimmed === "object" && !Array.isArray(trimmed) ? { ...trimmed, [CUT_KEY]: note } : trimmed) as T;
    const text = JSON.stringify(withNote);
    return text.length <= budget ? { value: withNote, text } : undefined;
  };
  for (const textMax of [2000, 200]) {
    // Galloping up from 1, then halving: each try costs about what it keeps, never the whole value.
    let best = attempt(1, textMax);
    if (!best) continue;
    let low = 1;
    let high = 2;
    for (; high < most; high *= 2) {
      const next = attempt(high, textMax);
      if (!next) break;
      [best, low] = [next, high];
    }
    high = Math.min(high, most);
    while (high - low > 1) {
      const keep = Math.floor((low + high) / 2);
      const next = attempt(keep, textMax);
      if (next) [best, low] = [next, keep];
      else high = keep;
    }
    return best;
  }
  // Nothing of this shape fits (a key list alone too long): say so rather than send it.
  const note = { [CUT_KEY]: `the result is over the ${budget}-character budget for one result even cut down. Ask for less.` } as T;
  return { value: note, text: JSON.stringify(note) };
}

/** The most entries any list or object in the value holds. */
function widest(value: unknown): number {
  if (value === null || typeof value !== "object") return 1;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.reduce((most: number, child) => Math.max(most, widest(child)), children.length);
}

function trim(value: unknown, keep: number, textMax: number, path: string, cuts: string[]): unknown {
  if (typeof value === "string") {
    if (value.length <= textMax) return value;
    cuts.push(`${path || "text"}: ${textMax} of ${value.length} characters`);
    return `${value.slice(0, textMax)}… [cut ${value.length - textMax} chars]`;
  }
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    if (value.length > keep) cuts.push(`${path || "list"}: first ${keep} of ${value.length} entries`);
    return value.slice(0, keep).map((item) => trim(item, keep, textMax, `${path}[]`, cuts));
  }
  const entries = Object.entries(value);
  if (entries.length > keep) cuts.push(`${path || "object"}: first ${keep} of ${entries.length} fields`);
  const out: Record<string, unknown> = {};
  for (const [key, child] of entries.slice(0, keep)) setOwn(out, key, trim(child, keep, textMax, path ? `${path}.${key}` : key, cuts));
  return out;
}

/** A text for the client (a prompt message), with any secret in it redacted. */
export function outboundText(text: string): string {
  return holdsSecret(text) ? redact(text) : text;
}

const SECRET_KEYS = new Set<string>(SECRET_PARAMS);

/**
 * Every string redacted, and the value of a credential field (`page_access_token` in a raw page
 * record, say) replaced whatever it holds: a token no request of this process carried yet is not
 * a registered secret, so only its key gives it away. It is registered on the way, so the same
 * token is scrubbed wherever else it turns up.
 */
function scrubDeep(value: unknown): unknown {
  if (typeof value === "string") return outboundText(value);
  if (Array.isArray(value)) return value.map(scrubDeep);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (SECRET_KEYS.has(key.toLowerCase()) && v !== null && v !== undefined && v !== "") {
      if (typeof v === "string") registerSecret(v);
      setOwn(out, key, REDACTED);
    } else setOwn(out, outboundText(key), scrubDeep(v));
  }
  return out;
}
