import { z } from "zod";
import type { AnyTool } from "./define.js";

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: Record<string, unknown>;
}

/**
 * Every tools/list entry is read by the model on every turn, so listed schemas keep only what
 * helps it call the tool: no `$schema` URI, no `additionalProperties: false` (zod strips unknown
 * keys anyway), no safe-integer bounds, no id patterns (the server validates them itself), and no
 * `propertyNames: {type: "string"}` or `additionalProperties: {}` (both say what JSON already does).
 */
function inputSchema(schema: z.ZodType): Record<string, unknown> {
  return strip(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })) as Record<string, unknown>;
}

const SAFE = Number.MAX_SAFE_INTEGER;

const DROPPED = new Set(["pattern", "maxLength", "maxItems", "$schema"]);

const isEmpty = (v: unknown) => v !== null && typeof v === "object" && Object.keys(v).length === 0;
const isStringType = (v: unknown) =>
  v !== null && typeof v === "object" && Object.keys(v).length === 1 && (v as { type?: unknown }).type === "string";

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (DROPPED.has(key) || (key === "additionalProperties" && (v === false || isEmpty(v)))) continue;
    if (key === "propertyNames" && isStringType(v)) continue;
    if ((key === "maximum" && v === SAFE) || (key === "minimum" && v === -SAFE)) continue;
    out[key] = strip(v);
  }
  // {anyOf: [{type: "string"}, {type: "integer"}]} says the same as {type: ["string", "integer"]}.
  const anyOf = out.anyOf as Record<string, unknown>[] | undefined;
  if (anyOf?.every((s) => Object.keys(s).length === 1 && typeof s.type === "string")) {
    delete out.anyOf;
    out.type = anyOf.map((s) => s.type);
  }
  return out;
}

/**
 * The listed output schema is the result's outline: top-level fields with their types. Rows are
 * self-describing JSON the model reads anyway; the full schema still validates every result.
 */
function outputSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
  return outline(json, 0) as Record<string, unknown>;
}

function outline(node: unknown, depth: number): unknown {
  if (node === null || typeof node !== "object") return node;
  const n = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (n.type !== undefined) out.type = n.type;
  if (n.anyOf) out.anyOf = (n.anyOf as unknown[]).map((x) => outline(x, depth));
  if (n.enum) out.enum = n.enum;
  if (n.properties && depth < 1) {
    const props: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(n.properties as Record<string, unknown>)) props[key] = outline(value, depth + 1);
    out.properties = props;
  }
  if (n.items && depth < 1) out.items = outline(n.items, depth);
  return out;
}

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
      outputSchema: outputSchema(tool.output),
      annotations: { ...tool.annotations },
    };
    cache.set(tool, entry);
  }
  return entry;
}
