import type { AnyTool } from "./define.js";
import { listedTool } from "./listing.js";
import { DEFAULT_TOOLS, TOOLSET_DESCRIPTIONS, TOOLSETS } from "./toolsets.js";

interface Prop {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
  anyOf?: Prop[];
  items?: Prop;
}

function typeOf(prop: Prop): string {
  if (prop.enum) return prop.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (prop.anyOf) return prop.anyOf.map(typeOf).join(" \\| ");
  if (Array.isArray(prop.type)) return prop.type.join(" \\| ");
  if (prop.type === "array" && prop.items) return `${typeOf(prop.items)}[]`;
  return prop.type ?? "any";
}

function exampleValue(name: string, prop: Prop): unknown {
  if (prop.default !== undefined) return prop.default;
  if (prop.enum) return prop.enum[0];
  const type = Array.isArray(prop.type) ? prop.type[0] : (prop.type ?? prop.anyOf?.[0]?.type);
  if (type === "number" || type === "integer") return 1;
  if (type === "boolean") return true;
  if (type === "array") return [];
  if (type === "object") return {};
  if (/since|until|date/.test(name)) return "2026-11-20";
  return `<${name}>`;
}

function annotationText(tool: AnyTool): string {
  const a = tool.annotations;
  if (a.readOnlyHint) return "read-only";
  return [a.destructiveHint ? "destructive write" : "write", a.idempotentHint ? "idempotent" : "not idempotent, never retried"].join(", ");
}

function toolSection(tool: AnyTool): string {
  const schema = listedTool(tool).inputSchema as { properties?: Record<string, Prop>; required?: string[] };
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const flag = DEFAULT_TOOLS.includes(tool.name) ? "; default tool" : "";
  const lines = [`### ${tool.name}`, "", `**${tool.title}** (${annotationText(tool)}${flag})`, "", tool.description, ""];
  if (props.length > 0) {
    lines.push("| parameter | type | required | description |", "|---|---|---|---|");
    for (const [name, prop] of props) {
      const desc = (prop.description ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ");
      lines.push(`| ${name} | ${typeOf(prop)} | ${required.has(name) ? "yes" : ""} | ${desc} |`);
    }
    lines.push("");
  }
  // Required parameters, or else the first optional one, so every example shows a real call.
  const shown = props.filter(([n]) => required.has(n));
  if (shown.length === 0 && props[0]) shown.push(props[0]);
  const example = Object.fromEntries(shown.map(([n, p]) => [n, exampleValue(n, p)]));
  lines.push("Example arguments:", "", "```json", JSON.stringify(example), "```", "");
  return lines.join("\n");
}

/** docs/tools.md, generated from the registry so it can never drift from the code. */
export function renderToolDocs(tools: readonly AnyTool[]): string {
  const out = [
    "# Tools",
    "",
    "Generated from the tool registry by `npm run docs`; do not edit by hand (CI fails when it is stale).",
    "",
    "Tools marked \"default tool\" are listed when no toolset is chosen. Add a toolset with `--toolsets default,NAME` or `PANCAKE_TOOLSETS`, every one with `all`, or, on stdio, let the assistant call `enable_toolset`.",
    "",
  ];
  for (const toolset of TOOLSETS) {
    const members = tools.filter((t) => t.toolset === toolset);
    if (members.length === 0) continue;
    out.push(`## ${toolset}`, "", `${TOOLSET_DESCRIPTIONS[toolset]}.`, "");
    for (const tool of members) out.push(toolSection(tool));
  }
  return `${out.join("\n").trimEnd()}\n`;
}
