import { z } from "zod";
import { type AnyTool, defineTool } from "./define.js";
import { toolSignature } from "./signature.js";
import { TOOLSET_DESCRIPTIONS, TOOLSETS, type ToolsetName } from "../toolsets.js";

/** The session's tool list, as enable_toolset sees and changes it. */
export interface ToolsetSwitch {
  /** Every tool the configuration allows (read-only already applied). */
  available: readonly AnyTool[];
  active: Set<AnyTool>;
  /** Tells the client that the tool list changed (notifications/tools/list_changed). */
  changed(): void;
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
