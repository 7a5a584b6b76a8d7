import type { Schema } from "./types.js";

/**
 * Checks a JSON value against an index schema and names every problem by its path
 * (`body.items[0].quantity: expected integer, got "2"`). Stricter than OpenAPI's defaults on one
 * point, on purpose: an object whose schema lists its properties is closed, so a field the vendor
 * does not document is reported instead of being silently ignored upstream.
 */
export function validate(schema: Schema, value: unknown, where: string, problems: string[] = []): string[] {
  if (schema.anyOf) {
    const fits = schema.anyOf.map((alt) => validate(alt, value, where));
    if (!fits.some((p) => p.length === 0)) {
      // The alternative that failed least says most about what was meant.
      const closest = fits.reduce((a, b) => (b.length < a.length ? b : a));
      problems.push(...(closest.length ? closest : [`${where}: fits none of the documented forms`]));
    }
    if (!schema.type && !schema.properties) return problems;
  }
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (value === null) {
    if (types.length && !types.includes("null")) problems.push(`${where}: must not be null`);
    return problems;
  }
  const actual = typeOf(value);
  if (types.length && !types.some((t) => t === actual || (t === "number" && actual === "integer"))) {
    problems.push(`${where}: expected ${types.filter((t) => t !== "null").join(" or ")}, got ${describe(value)}`);
    return problems;
  }
  if (schema.enum && !schema.enum.some((allowed) => allowed === value)) {
    problems.push(`${where}: ${describe(value)} is not one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => {
      validate(schema.items!, item, `${where}[${i}]`, problems);
    });
  } else if (actual === "object") {
    validateObject(schema, value as Record<string, unknown>, where, problems);
  }
  return problems;
}

function validateObject(schema: Schema, value: Record<string, unknown>, where: string, problems: string[]): void {
  for (const key of schema.required ?? []) {
    if (value[key] === undefined) problems.push(`${where}.${key}: is required`);
  }
  const props = schema.properties;
  const extra = schema.additionalProperties;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const known = props && Object.hasOwn(props, key) ? props[key] : undefined;
    if (known) validate(known, item, `${where}.${key}`, problems);
    else if (typeof extra === "object") validate(extra, item, `${where}.${key}`, problems);
    else if (props && extra !== true) problems.push(`${where}.${key}: is not a documented field (documented: ${Object.keys(props).join(", ")})`);
  }
}

export function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * A query value as it travels (text) read as the JSON value its schema types: "12" as 12, "true" as
 * true, JSON object or array text as the value. Text that does not read as the type stays text, so the
 * check reports it.
 */
export function fromQueryText(schema: Schema, text: string): unknown {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (types.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  if ((types.includes("object") && text.startsWith("{")) || (types.includes("array") && text.startsWith("["))) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
