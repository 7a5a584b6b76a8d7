import { z } from "zod";
import { viewMeta } from "../ui/views.js";
import type { AnyTool, ToolAnnotations } from "./define.js";

export interface ListedTool {
  name: string;
  /** Left out when it only says the name again (namesOnly). */
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, unknown>;
  /** `ui.resourceUri`: the tool's chart view for hosts with MCP Apps (src/ui/views.ts). */
  _meta?: Record<string, unknown>;
}

type Schema = Record<string, unknown>;

/**
 * Every tools/list entry is read by the model on every turn, and clients hand it to their model's
 * function-calling API, whose schema dialects are narrower than JSON Schema (OpenAI strict mode,
 * Gemini, Anthropic strict tool use; test/tools/schema-dialects.test.ts checks all three). So a
 * listed schema keeps only what helps a model call the tool, in the keywords all of them accept:
 *
 * - Dropped, since the server validates them itself and says what is wrong: `$schema`, id
 *   patterns, length and item-count limits, `format`, safe-integer bounds, trivial lower bounds,
 *   and what JSON says anyway (`propertyNames: {type: "string"}`, empty `properties`).
 * - Moved into the description, which every dialect reads, where a keyword is not in all of them:
 *   `default` and the remaining numeric bounds ("Max rows (≤100)"). Not noted, to keep the list
 *   within its budget: a flag's `false` default (an omitted flag is off), sanity caps of 10,000
 *   and more, and the defaults of `limit` (a result's next_cursor says when there is more) and
 *   `detail` (its description names the one other value).
 * - One `type` per parameter: one that takes a string or a number (ids, dates, status codes) is
 *   listed as a string, its canonical form; numbers are still accepted.
 * - A free-form value (an object with no declared keys, an array of them, an untyped value, or a
 *   string-or-object) is listed as JSON text: no dialect can describe a free-form object (strict
 *   modes want every object closed, Gemini wants its keys), and the server parses JSON text for
 *   every such parameter (inputs.ts `jsonish`; the dialect test proves it tool by tool).
 * - Every object declares `additionalProperties: false`: unknown parameters are an error.
 */
function inputSchema(schema: z.ZodType): Schema {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Schema;
  const required = json.required as string[] | undefined;
  return { type: "object", properties: listedProperties(json.properties), ...(required?.length ? { required } : {}), additionalProperties: false };
}

const SAFE = Number.MAX_SAFE_INTEGER;

const DROPPED = new Set(["$schema", "pattern", "maxLength", "minLength", "maxItems", "minItems", "format", "propertyNames", "additionalProperties"]);

/** Bounds that say nothing a model would get wrong: counts from 1, amounts from 0, sanity caps. */
const trivialBound = (key: string, v: unknown) =>
  ((key === "minimum" || key === "maximum") && Math.abs(v as number) === SAFE) ||
  (key === "minimum" && (v === 0 || v === 1)) ||
  (key === "exclusiveMinimum" && v === 0) ||
  (key === "maximum" && (v as number) >= SANITY_CAP);

const SANITY_CAP = 10_000;

/** Defaults not worth their tokens (see inputSchema). */
const unnotedDefault = (name: string | undefined, v: unknown) => v === false || name === "limit" || name === "detail";

/**
 * A text that only says a name again ("Note" for `note`, "Conversation id" for `conversation_id`,
 * "Search orders" for `search_orders`): a model reads the name itself, and a client with no title
 * shows the name. Left out, they gave about 300 tokens of tools/list back.
 */
const spoken = (text: string) => text.toLowerCase().replace(/[_\s]+/g, " ").trim();
const namesOnly = (text: string, name: string) => spoken(text) === spoken(name);

const BOUND_SIGNS: Record<string, string> = { minimum: "≥", maximum: "≤", exclusiveMinimum: ">", exclusiveMaximum: "<" };

const typesOf = (s: Schema): unknown[] => {
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).flatMap(typesOf);
  return Array.isArray(s.type) ? s.type : [s.type];
};

/** An object with no declared keys, an array of such (or of anything), or a value of no stated type. */
function freeForm(s: Schema): boolean {
  if (s.enum || s.const !== undefined) return false;
  const types = typesOf(s);
  if (types.includes(undefined)) return true;
  if (types.includes("object") && !(s.properties && Object.keys(s.properties as Schema).length > 0)) return true;
  if (types.includes("array")) return !s.items || freeForm(s.items as Schema);
  return false;
}

function listed(s: Schema, name?: string): Schema {
  if (freeForm(s)) return asJsonText(s);
  const notes: string[] = [];
  const out: Schema = {};
  for (const [key, v] of Object.entries(s)) {
    if (DROPPED.has(key) || trivialBound(key, v) || (key === "description" && name !== undefined && namesOnly(v as string, name))) continue;
    if (key in BOUND_SIGNS) notes.push(`${BOUND_SIGNS[key]}${v}`);
    else if (key === "default") {
      if (!unnotedDefault(name, v)) notes.push(`default ${typeof v === "string" ? v : JSON.stringify(v)}`);
    }
    else if (key === "properties") out.properties = listedProperties(v);
    else if (key === "items") out.items = listed(v as Schema);
    else if (key === "anyOf") out.anyOf = (v as Schema[]).map((branch) => listed(branch));
    else out[key] = v;
  }
  oneType(out);
  if (out.type === "object") out.additionalProperties = false;
  if (notes.length > 0) out.description = [out.description, `(${notes.join(", ")})`].filter(Boolean).join(" ");
  return out;
}

const listedProperties = (props: unknown): Schema =>
  Object.fromEntries(Object.entries((props ?? {}) as Record<string, Schema>).map(([k, v]) => [k, listed(v, k)]));

/** {anyOf: [{type: "string"}, {type: "integer"}]} or {type: ["string", "number"]}: one type, the string. */
function oneType(out: Schema): void {
  const anyOf = out.anyOf as Schema[] | undefined;
  const plain = anyOf?.every((b) => Object.keys(b).length === 1 && typeof b.type === "string");
  const types = plain ? anyOf!.map((b) => b.type) : Array.isArray(out.type) ? (out.type as unknown[]) : undefined;
  if (!types?.includes("string")) return;
  delete out.anyOf;
  out.type = "string";
}

/** A free-form value listed as JSON text (every such parameter parses it; see inputSchema). */
function asJsonText(s: Schema): Schema {
  const types = typesOf(s);
  const kind = types.includes("array") ? "JSON array" : "JSON";
  return { type: "string", description: [s.description, `(${kind})`].filter(Boolean).join(" ") };
}

/** The hints' values when left out (MCP specification, ToolAnnotations). */
export const HINT_DEFAULTS: Readonly<ToolAnnotations> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/**
 * The hints a client needs, without those equal to the specification's defaults: listing all four
 * on every tool cost about 1,500 tokens of tools/list. For a read-only tool the destructive and
 * idempotent hints mean nothing (the specification says so), so it lists readOnlyHint alone; a
 * write always lists destructiveHint, the one a client decides its confirmation prompt on.
 */
export function listedHints(hints: ToolAnnotations): Partial<ToolAnnotations> {
  const out: Partial<ToolAnnotations> = hints.readOnlyHint ? { readOnlyHint: true } : { destructiveHint: hints.destructiveHint };
  if (!hints.readOnlyHint && hints.idempotentHint !== HINT_DEFAULTS.idempotentHint) out.idempotentHint = hints.idempotentHint;
  if (hints.openWorldHint !== HINT_DEFAULTS.openWorldHint) out.openWorldHint = hints.openWorldHint;
  return out;
}

const cache = new WeakMap<AnyTool, ListedTool>();

/**
 * The tools/list entry of a tool, computed once per process (schemas never change at run time).
 * No output schema is listed. Every result is structured (structuredContent, with the same JSON as
 * text), but its fields are self-describing JSON the model reads anyway: listing them cost about a
 * sixth of tools/list, and the `{type: "object"}` that later stood in their place told a model
 * nothing for 512 tokens. Each tool's full zod output schema is checked against its results by
 * the test suite (test/helpers/output-contract.ts).
 */
export function listedTool(tool: AnyTool): ListedTool {
  let entry = cache.get(tool);
  if (!entry) {
    entry = {
      name: tool.name,
      ...(namesOnly(tool.title, tool.name) ? {} : { title: tool.title }),
      description: tool.description,
      inputSchema: inputSchema(tool.input),
      annotations: listedHints(tool.annotations),
      ...viewMeta(tool.name),
    };
    cache.set(tool, entry);
  }
  return entry;
}
