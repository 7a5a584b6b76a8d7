import type { AnyTool } from "./define.js";
import { listedTool } from "./listing.js";

// Parameters in a few characters, from the listed schema: for enable_toolset's answer and the
// generated docs.

type Schema = Record<string, unknown>;

/** A listed parameter's type in a few characters: `string`, `a|b`, `[{variation_id, quantity*: integer}]`, `JSON`. */
export function typeText(s: Schema): string {
  if (Array.isArray(s.enum)) return s.enum.join("|");
  if (s.type === "array") return `[${typeText((s.items ?? {}) as Schema)}]`;
  if (s.type === "object") return `{${fieldsText(s)}}`;
  // Free-form values are listed as JSON text (listing.ts), and say so at the end of their description.
  if (s.type === "string" && /\(JSON( array)?\)$/.test(String(s.description ?? ""))) return "JSON";
  return String(s.type ?? "any");
}

/** An object's fields, the required ones starred; a text field's type goes without saying. */
function fieldsText(s: Schema): string {
  const required = new Set((s.required ?? []) as string[]);
  return Object.entries((s.properties ?? {}) as Record<string, Schema>)
    .map(([name, p]) => {
      const type = typeText(p);
      return `${name}${required.has(name) ? "*" : ""}${type === "string" ? "" : `: ${type}`}`;
    })
    .join(", ");
}

/**
 * A tool as the assistant needs it to call it next, without reading tools/list again (a client
 * may not re-read it on tools/list_changed): its name, description and parameters with their
 * types, required ones starred. Parameter descriptions are left to tools/list.
 */
export function toolSignature(tool: AnyTool) {
  const listed = listedTool(tool);
  return { name: listed.name, description: listed.description, params: fieldsText(listed.inputSchema) };
}
