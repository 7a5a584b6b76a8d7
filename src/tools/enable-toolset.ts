import { z } from "zod";
import { type AnyTool, defineTool } from "./define.js";
import { listedTool } from "./listing.js";
import { TOOLSET_DESCRIPTIONS, TOOLSETS, type ToolsetName } from "./toolsets.js";

/** The session's tool list, as enable_toolset sees and changes it. */
export interface ToolsetSwitch {
  /** Every tool the configuration allows (read-only already applied). */
  available: readonly AnyTool[];
  active: Set<AnyTool>;
  /** Tells the client that the tool list changed (notifications/tools/list_changed). */
  changed(): void;
}

type Schema = Record<string, unknown>;

/** A listed parameter's type in a few characters: `string`, `a|b`, `[{variation_id, quantity*: integer}]`, `JSON`. */
function typeText(s: Schema): string {
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

/**
 * What github-mcp-server calls dynamic toolsets: the session starts with the default toolsets
 * (a small list keeps tool choice sharp) and the assistant adds one when a question needs it.
 */
export function enableToolsetTool(sw: ToolsetSwitch): AnyTool {
  const toolsOf = (name: string) => sw.available.filter((t) => t.toolset === name);
  return defineTool({
    name: "enable_toolset",
    title: "Enable a toolset",
    description: "Lists the toolsets; with toolset, adds its tools to this session and answers their parameters. Use when a question needs tools not listed.",
    toolset: "session",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: z.object({ toolset: z.enum(TOOLSETS).optional().describe("Toolset to add") }),
    output: z.object({
      enabled: z.string().optional(),
      added: z.array(z.object({ name: z.string(), description: z.string(), params: z.string() })).optional().describe("Callable now; * = required"),
      toolsets: z
        .array(
          z.object({
            name: z.string(),
            description: z.string(),
            enabled: z.union([z.boolean(), z.literal("partly")]),
            tools: z.array(z.string()),
            active: z.array(z.string()).optional(),
          }),
        )
        .optional(),
    }),
    async handler(input) {
      if (!input.toolset) {
        return {
          toolsets: TOOLSETS.map((name: ToolsetName) => {
            const tools = toolsOf(name);
            // The default tools take some of a toolset: say which, so "enabled: false" never hides them.
            const on = tools.filter((t) => sw.active.has(t)).map((t) => t.name);
            const enabled = on.length === tools.length ? true : on.length === 0 ? false : ("partly" as const);
            return {
              name,
              description: TOOLSET_DESCRIPTIONS[name],
              enabled,
              tools: tools.map((t) => t.name),
              active: enabled === "partly" ? on : undefined,
            };
          }).filter((t) => t.tools.length > 0),
        };
      }
      const added = toolsOf(input.toolset).filter((t) => !sw.active.has(t));
      for (const tool of added) sw.active.add(tool);
      if (added.length > 0) sw.changed();
      return { enabled: input.toolset, added: added.map(toolSignature) };
    },
  });
}
