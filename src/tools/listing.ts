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
 * JSON Schema of a tool's input or output, without what costs context and tells a model nothing:
 * the `$schema` URI and `additionalProperties: false` (zod strips unknown keys anyway).
 */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return strip(json) as Record<string, unknown>;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "additionalProperties" && v === false) continue;
    out[key] = strip(v);
  }
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
      inputSchema: jsonSchema(tool.input, "input"),
      outputSchema: jsonSchema(tool.output, "output"),
      annotations: { title: tool.title, ...tool.annotations },
    };
    cache.set(tool, entry);
  }
  return entry;
}
