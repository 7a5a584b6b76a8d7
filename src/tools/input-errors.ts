import { z } from "zod";
import { editDistance as distance } from "../text/edit-distance.js";

/**
 * What a model reads when its arguments do not fit. zod's own words ("Invalid input") do not tell
 * it what to add, and zod drops keys it does not know, so `search_orders {"status": "shipped"}`
 * would answer with every order as if filtered. Here a missing key is named as missing and an
 * unknown one, at any depth, is an error with the closest valid name and the whole list.
 */

z.config({ customError: (issue) => (issue.input === undefined ? "missing (required)" : undefined) });

/** Lower case, camelCase split, separators folded: `timeField`, `time-field` and `TIME_FIELD` meet. */
const norm = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");


/** `qty` for `quantity`: the same first letter, then the others in order. */
function abbreviates(short: string, long: string): boolean {
  if (short.length < 3 || short.length >= long.length || short[0] !== long[0]) return false;
  let i = 0;
  for (const c of long) if (c === short[i]) i++;
  return i === short.length;
}

/**
 * Words models use for what these tools name otherwise (from the names APIs commonly use), in the
 * order they are tried: `from`/`to` for since/until, `group_by` for a split, `phone` for a search.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  from: ["since"],
  start: ["since"],
  start_date: ["since"],
  date_from: ["since"],
  after: ["since"],
  to: ["until"],
  end: ["until"],
  end_date: ["until"],
  date_to: ["until"],
  before: ["until"],
  date: ["since"],
  group_by: ["by", "split_by"],
  groupby: ["by", "split_by"],
  split: ["split_by", "by"],
  order: ["sort_by", "sort"],
  order_by: ["sort_by", "sort", "time_field"],
  phone: ["search", "customer", "query", "phone_numbers"],
  phone_number: ["search", "customer", "query", "phone_numbers"],
  q: ["search", "query", "customer"],
  keyword: ["search", "query"],
  name: ["search", "query", "customer"],
  text: ["message", "search"],
  content: ["message"],
  page: ["page_ids", "page_id"],
  page_size: ["limit"],
  size: ["limit"],
  count: ["limit"],
  top: ["limit"],
  max: ["limit"],
  status: ["statuses"],
  type: ["metric", "view", "kind"],
  query: ["search"],
};

/**
 * The valid name a mistaken key most likely meant, if any is close: a word models use for it
 * (`from` for `since`), the same words in another case, a singular for a plural (`status` for
 * `statuses`), one name inside the other (`unread_only` for `unread`), an abbreviation, or a few
 * letters off.
 */
export function closestKey(key: string, valid: readonly string[]): string | undefined {
  const k = norm(key);
  if (!k) return undefined;
  if (!valid.some((name) => norm(name) === k)) {
    const synonym = SYNONYMS[k]?.find((name) => valid.includes(name));
    if (synonym) return synonym;
    // A bare `id` means the tool's subject (get_order's order_id), not the shop_id nearly every tool has.
    const subjects = k === "id" ? valid.filter((name) => /_ids?$/.test(name) && name !== "shop_id") : [];
    if (subjects.length === 1) return subjects[0];
  }
  let best: { name: string; score: number } | undefined;
  for (const name of valid) {
    const n = norm(name);
    let score: number;
    if (n === k) score = 0;
    else if (n.startsWith(k) || k.startsWith(n)) score = 1 + Math.abs(n.length - k.length) / 100;
    else if (n.includes(k) || k.includes(n)) score = 2 + Math.abs(n.length - k.length) / 100;
    else if (abbreviates(k, n)) score = 2.5 + (n.length - k.length) / 100;
    else {
      const d = distance(k, n);
      if (d > Math.max(2, Math.floor(Math.min(k.length, n.length) / 3))) continue;
      score = 3 + d;
    }
    if (!best || score < best.score) best = { name, score };
  }
  return best?.name;
}

type JsonSchema = {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

interface Unknown {
  path: string;
  key: string;
  valid: string[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Some clients send nested objects as JSON text; the tools accept that (jsonish), so look inside. */
function decoded(value: unknown): unknown {
  if (typeof value !== "string" || !/^\s*[[{]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * Keys of `value` that its schema does not name. An object schema with `properties` and no
 * `additionalProperties` is closed: every input object of a tool is (a record or a loose object
 * says so with `additionalProperties`).
 */
function walk(raw: unknown, schema: JsonSchema, path: string, out: Unknown[]): void {
  const value = decoded(raw);
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (branches.length > 0) {
    const fitting = branches.filter((b) => (Array.isArray(value) ? b.items : isPlainObject(value) ? b.properties || b.additionalProperties : false));
    // Several object shapes may fit: a key is unknown only when no shape names it.
    if (fitting.length === 1) walk(value, fitting[0]!, path, out);
    else if (fitting.length > 1 && isPlainObject(value)) walk(value, mergeShapes(fitting), path, out);
    return;
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items) for (const [i, item] of value.entries()) walk(item, items, `${path}[${i}]`, out);
    return;
  }
  if (!isPlainObject(value)) return;
  const properties = schema.properties ?? {};
  const extra = schema.additionalProperties;
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (Object.hasOwn(properties, key)) walk(child, properties[key]!, at, out);
    else if (typeof extra === "object") walk(child, extra, at, out);
    else if (extra !== true && schema.properties) out.push({ path, key, valid: Object.keys(properties) });
  }
}

function mergeShapes(shapes: JsonSchema[]): JsonSchema {
  if (shapes.some((s) => s.additionalProperties !== undefined && s.additionalProperties !== false)) return { additionalProperties: true };
  return { properties: Object.assign({}, ...shapes.map((s) => s.properties ?? {})) };
}

const schemas = new WeakMap<z.ZodType, JsonSchema>();

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  let json = schemas.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
    schemas.set(schema, json);
  }
  return json;
}

const takesList = (p: JsonSchema) => p.type === "array" || (p.anyOf ?? []).some((b) => b.type === "array");
const takesOne = (p: JsonSchema) => (p.anyOf ?? []).some((b) => b.type !== "array");

/**
 * A lone value where a parameter takes a list (`statuses: "canceled"`, `split_by: "Order.source"`)
 * is that one-item list: what the caller meant, where an error would cost a call. Text with a
 * comma or JSON text is left to the parameter's own reading (comma lists, JSON lists).
 */
export function listsFromSingles(schema: z.ZodType, args: unknown): unknown {
  if (!isPlainObject(args)) return args;
  const properties = jsonSchemaOf(schema).properties ?? {};
  let out = args;
  for (const [key, value] of Object.entries(args)) {
    const param = properties[key];
    if (!param || !takesList(param) || takesOne(param)) continue;
    const single = typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && !value.includes(",") && !/^\s*[[{]/.test(value));
    if (single) out = { ...out, [key]: [value] };
  }
  return out;
}

/** The message for every key of `args` that `schema` does not name, or undefined when all are known. */
export function unknownKeysMessage(schema: z.ZodType, args: unknown): string | undefined {
  const json = jsonSchemaOf(schema);
  const found: Unknown[] = [];
  walk(args, json, "", found);
  if (found.length === 0) return undefined;
  return found
    .map(({ path, key, valid }) => {
      const near = closestKey(key, valid.filter((v) => !found.some((f) => f.path === path && f.key === v)));
      const where = path ? ` in ${path}` : "";
      return `unknown parameter \`${key}\`${where}${near ? `; did you mean \`${near}\`?` : ""} (valid${where}: ${valid.join(", ") || "none"})`;
    })
    .join("\n");
}

/** A parameter's place, as a caller writes it: `items[0].quantity`. */
const pathText = (path: readonly PropertyKey[]) =>
  path.map((seg, i) => (typeof seg === "number" ? `[${seg}]` : i === 0 ? String(seg) : `.${String(seg)}`)).join("");

/** zod issues as one line each: what is wrong, then where ("missing (required) at page_id"). */
export function issuesMessage(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.message} at ${pathText(i.path)}` : i.message)).join("\n");
}
