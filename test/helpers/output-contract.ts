import { z } from "zod";
import { enableToolsetTool } from "../../src/tools/enable-toolset.js";
import { allTools } from "../../src/tools/index.js";

const notSent = z.strictObject({ sent: z.literal(false), answer: z.enum(["decline", "cancel", "unavailable"]), note: z.string() });

/** The session's own tool, built the way the server builds it (its schemas do not depend on the session). */
const sessionTools = [enableToolsetTool({ available: [], active: new Set(), changed() {} })];

/**
 * The server does not re-check results against the output schemas at run time, so tests check
 * each successful result here, as it went over the wire (the JSON text), against the tool's full
 * zod output schema.
 */
export function expectOutputContract(name: string, text: string): void {
  const tool = [...allTools, ...sessionTools].find((t) => t.name === name);
  if (!tool) throw new Error(`no tool named ${name}`);
  const result = JSON.parse(text);
  // A write the user did not approve answers what confirm.ts `approve` says instead of its result.
  if (tool.confirm && notSent.safeParse(result).success) return;
  const parsed = tool.output.safeParse(result);
  if (!parsed.success) throw new Error(`${name}: result breaks its output schema: ${parsed.error.message}`);
}
