import { redactedPrefix } from "./redact.js";

/**
 * Customer-authored text is data, never instructions. Everything a customer (or any untrusted
 * party: names, notes, comments) wrote passes through sanitizeText before it reaches a model.
 */

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

// Every format character (zero-width, bidi marks, BOM, soft hyphen, the invisible "tag" letters
// U+E0000-E007F that can smuggle hidden instructions) and every control but \n and \t.
const INVISIBLE = /\p{Cf}|(?![\n\t])\p{Cc}/gu;

// The same less \r (turned into \n below), for the pass before markup is read.
const INVISIBLE_BUT_BREAKS = /\p{Cf}|(?![\n\t\r])\p{Cc}/gu;
const HAS_INVISIBLE = /\p{Cf}|(?![\n\t\r])\p{Cc}/u;

// Anything the clean-up below would change. Most text is already tidy and skips it.
const UNTIDY = /[\r\t\u2028\u2029]|\p{Cf}|(?!\n)\p{Cc}| {2}|\s\n|\n\s|^\s|\s$/u;

function stripTags(html: string, tag: RegExp): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|tr|h[1-6])\s*>/gi, "\n")
    .replace(tag, "");
}

export function htmlToText(html: string): string {
  const text = decodeEntities(stripTags(html, /<[^>]*>/g));
  // Decoded entities can spell markup again (&lt;script&gt;): strip what now reads as a tag.
  return stripTags(text, /<\/?[a-z!][^>]*>/gi);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : "";
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

export interface SanitizeOptions {
  /** Longest text kept, in characters; the rest is cut with a marker. */
  max?: number;
  /** Treat the input as HTML. */
  html?: boolean;
}

export function sanitizeText(value: unknown, options: SanitizeOptions = {}): string | undefined {
  if (value === null || value === undefined) return undefined;
  let text = String(value);
  // Invisible characters go first: removed after the markup, one inside a tag (<\u200bscript>)
  // would let the tag re-form once the markup had been stripped.
  if (HAS_INVISIBLE.test(text)) text = text.replace(INVISIBLE_BUT_BREAKS, "");
  if (options.html || /<\/?[a-z][^>]*>/i.test(text)) text = htmlToText(text);
  text = text.normalize("NFC");
  if (UNTIDY.test(text)) {
    text = text
      .replace(/\r\n?|[\u2028\u2029]/g, "\n")
      .replace(INVISIBLE, "")
      .replace(/[ \t]+/g, " ")
      .replace(/\s*\n\s*/g, "\n")
      .trim();
  }
  const max = options.max ?? 2000;
  if (text.length > max) {
    const cut = text.length - max;
    text = `${redactedPrefix(text, max)}… [cut ${cut} chars]`;
  }
  return text === "" ? undefined : text;
}

/** Text kept on one line (an address, a value in a confirmation dialog): no break in it can start a line of its own. */
export function sanitizeLine(value: unknown, max = 300): string | undefined {
  return sanitizeText(value, { max })?.replace(/\n/g, " ");
}

/** A person's or label's name: one line, short. */
export function sanitizeName(value: unknown): string | undefined {
  return sanitizeLine(value, 120);
}

/**
 * An upstream record as is (`detail: "full"`), with every string in it sanitized: the record
 * holds customer text (names, snippets, message bodies) like any projection does. Keys that
 * could reach an object's prototype are dropped.
 */
export function sanitizeDeep(value: unknown): unknown {
  if (typeof value === "string") return sanitizeText(value, { max: 4000 }) ?? "";
  if (Array.isArray(value)) return value.map(sanitizeDeep);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    out[key] = sanitizeDeep(v);
  }
  return out;
}
