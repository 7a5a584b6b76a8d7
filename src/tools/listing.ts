import { z } from "zod";
import { viewMeta } from "../ui/views.js";
import type { AnyTool } from "./define.js";

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Record<string, unknown>;
  /** `ui.resourceUri`: the tool's chart view for hosts with MCP Apps (src/ui/views.ts). */
  _meta?: Record<string, unknown>;
}

/**
 * Every tools/list entry is read by the model on every turn, so listed schemas keep only what
 * helps it call the tool: no `$schema` URI, no `additionalProperties: false` (zod strips unknown
 * keys anyway), no safe-integer bounds, no id patterns, length limits or trivial lower bounds (the
 * server validates them itself and says what is wrong), and no `propertyNames: {type: "string"}`,
 * `additionalProperties: {}` or empty `properties` (they say what JSON already does). A parameter
 * that takes a string or an integer (ids, dates, status codes) is listed as a string, its canonical
 * form; integers are still accepted.
 */
function inputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = strip(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })) as Record<string, unknown>;
  return { ...json, properties: json.properties ?? {} };
}

const SAFE = Number.MAX_SAFE_INTEGER;

const DROPPED = new Set(["pattern", "maxLength", "maxItems", "minLength", "minItems", "$schema"]);

const isEmpty = (v: unknown) => v !== null && typeof v === "object" && Object.keys(v).length === 0;
const isStringType = (v: unknown) =>
  v !== null && typeof v === "object" && Object.keys(v).length === 1 && (v as { type?: unknown }).type === "string";

/** Lower bounds that say nothing a model would get wrong: counts from 1, amounts from 0. */
const trivialBound = (key: string, v: unknown) =>
  (key === "minimum" && (v === -SAFE || v === 0 || v === 1)) || (key === "exclusiveMinimum" && v === 0);

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (DROPPED.has(key) || (key === "additionalProperties" && (v === false || isEmpty(v)))) continue;
    if ((key === "propertyNames" && isStringType(v)) || (key === "properties" && isEmpty(v))) continue;
    if ((key === "maximum" && v === SAFE) || trivialBound(key, v)) continue;
    // Keys of `properties` are parameter names, not keywords: keep them all.
    out[key] = key === "properties" ? stripEach(v as Record<string, unknown>) : strip(v);
  }
  // {anyOf: [{type: "string"}, {type: "integer"}]} says the same as {type: ["string", "integer"]}.
  const anyOf = out.anyOf as Record<string, unknown>[] | undefined;
  if (anyOf?.every((s) => Object.keys(s).length === 1 && typeof s.type === "string")) {
    delete out.anyOf;
    out.type = anyOf.map((s) => s.type);
  }
  if (Array.isArray(out.type) && out.type.length === 2 && out.type.includes("string") && out.type.includes("integer")) {
    out.type = "string";
  }
  return out;
}

const stripEach = (props: Record<string, unknown>) => Object.fromEntries(Object.entries(props).map(([k, v]) => [k, strip(v)]));

/**
 * The listed output schema only says that the tool answers with a structured result (an object).
 * Results are self-describing JSON the model reads anyway, and listing their fields cost about a
 * sixth of the whole tools/list. Each tool's full zod schema is checked against its results by the
test suite (test/helpers/output-contract.ts).
 */
const OUTPUT_SCHEMA: Record<string, unknown> = { type: "object" };

const cache = new WeakMap<AnyTool, ListedTool>();

/** The tools/list entry of a tool, computed once per process (schemas never change at run time). */
export function listedTool(tool: AnyTool): ListedTool {
  let entry = cache.get(tool);
  if (!entry) {
    entry = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputSchema(tool.input),
      outputSchema: { ...OUTPUT_SCHEMA },
      annotations: { ...tool.annotations },
      ...viewMeta(tool.name),
    };
    cache.set(tool, entry);
  }
  return entry;
}
