import { z } from "zod";
import type { AnyTool } from "./define.js";
import { listedTool } from "./listing.js";
import { typeText } from "./signature.js";
import { DEFAULT_TOOLS, TOOLSET_DESCRIPTIONS, TOOLSETS } from "../toolsets.js";

interface Prop {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
  anyOf?: Prop[];
  items?: Prop;
}

function typeOf(prop: Prop): string {
  // An object or a list of objects says its fields: they have no row of their own.
  const object = prop.type === "object" || (prop.type === "array" && prop.items?.type === "object");
  if (object) return `${prop.type === "array" ? "object[]" : "object"} \`${typeText(prop as Record<string, unknown>).replace(/\|/g, "\\|")}\``;
  if (prop.enum) return prop.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (prop.anyOf) return prop.anyOf.map(typeOf).join(" \\| ");
  if (Array.isArray(prop.type)) return prop.type.join(" \\| ");
  if (prop.type === "array" && prop.items) return `${typeOf(prop.items)}[]`;
  return prop.type ?? "any";
}

type Schema = Record<string, unknown>;

/** A placeholder string for a parameter; ids refuse "<...>", so each is tried in this order. */
const placeholders = (name: string): string[] =>
  /since|until|date/.test(name) ? ["2026-11-20"] : [`<${name}>`, name.toUpperCase(), "1"];

/** An object with no declared keys: a `shaped` or JSON-text body, whose keys the output schema has. */
const opaque = (s: Schema) => (s.type === "object" || s.type === undefined) && !s.anyOf && !s.enum && Object.keys((s.properties ?? {}) as Schema).length === 0;

/**
 * The smallest value of a JSON Schema: its default, its first enum value, a placeholder string, 1,
 * one item of an array (as many as it needs at least), an object's required keys. `s` is the
 * tool's input schema; where it declares no keys (a body checked after parsing), `out`, the same
 * place in the output schema, has them.
 */
function minimalValue(s: Schema, out: Schema | undefined, name: string, tries: Map<string, number>, path: string): unknown {
  if (opaque(s) && out && !opaque(out)) return minimalValue(out, out, name, tries, path);
  // A flag is off unless given: the example shows it given.
  if (s.default !== undefined && !(s.type === "boolean" && s.default === false)) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const anyOf = s.anyOf as Schema[] | undefined;
  if (anyOf) {
    const i = Math.max(0, anyOf.findIndex((b) => b.type !== "null"));
    const outAnyOf = out?.anyOf as Schema[] | undefined;
    return minimalValue(anyOf[i]!, outAnyOf?.length === anyOf.length ? outAnyOf[i] : out, name, tries, path);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "number" || type === "integer") {
    const min = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : 1;
    return Math.min(Math.max(min, 1), typeof s.maximum === "number" ? s.maximum : Number.POSITIVE_INFINITY);
  }
  if (type === "boolean") return true;
  if (type === "array") {
    const count = Math.max(1, typeof s.minItems === "number" ? s.minItems : 0);
    return Array.from({ length: count }, (_, i) =>
      minimalValue((s.items ?? {}) as Schema, out?.items as Schema | undefined, singular(name), tries, `${path}.${i}`),
    );
  }
  if (type === "object" || s.properties) {
    const props = (s.properties ?? {}) as Record<string, Schema>;
    const outProps = (out?.properties ?? {}) as Record<string, Schema>;
    const required = ((s.required ?? []) as string[]).filter((k) => props[k]);
    return Object.fromEntries(required.map((k) => [k, minimalValue(props[k]!, outProps[k], k, tries, `${path}.${k}`)]));
  }
  const options = placeholders(name);
  return options[Math.min(tries.get(path) ?? 0, options.length - 1)];
}

/** items -> item, variations -> variation: the name of one element of a list. */
const singular = (name: string) => name.replace(/ies$/, "y").replace(/(?<!s)s$/, "");

/**
 * Example arguments that the tool's own input schema accepts: the required parameters (or else
 * the first optional one but shop_id) at their smallest. A placeholder the schema refuses (an id check) is
 * replaced by the next one; a parameter listed as JSON text is written as JSON text.
 */
export function exampleArguments(tool: AnyTool): Record<string, unknown> {
  const full = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as Schema;
  const parsed = z.toJSONSchema(tool.input, { io: "output", unrepresentable: "any" }) as Schema;
  const listed = listedTool(tool).inputSchema as { properties?: Record<string, Schema>; required?: string[] };
  const props = Object.entries((full.properties ?? {}) as Record<string, Schema>);
  const required = new Set(listed.required ?? []);
  const shown = props.filter(([n]) => required.has(n));
  // shop_id is optional everywhere and never what a call is about.
  const first = props.find(([n]) => n !== "shop_id") ?? props[0];
  if (shown.length === 0 && first) shown.push(first);
  const tries = new Map<string, number>();
  let example: Record<string, unknown> = {};
  for (let attempt = 0; attempt < 4; attempt++) {
    example = Object.fromEntries(shown.map(([n, p]) => [n, minimalValue(p, (parsed.properties as Record<string, Schema>)[n], n, tries, n)]));
    const result = tool.input.safeParse(example);
    if (result.success) break;
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join(".");
      tries.set(path, (tries.get(path) ?? 0) + 1);
    }
  }
  return asListed(example, listed) as Record<string, unknown>;
}

/** A value shaped as the listed schema says: free-form values there are JSON text (listing.ts). */
function asListed(value: unknown, listed: Schema | undefined): unknown {
  if (!listed) return value;
  if (listed.type === "string" && typeof value !== "string") return JSON.stringify(value);
  if (Array.isArray(value)) return value.map((v) => asListed(v, listed.items as Schema | undefined));
  if (value && typeof value === "object") {
    const props = (listed.properties ?? {}) as Record<string, Schema>;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asListed(v, props[k])]));
  }
  return value;
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
  lines.push("Example arguments:", "", "```json", JSON.stringify(exampleArguments(tool)), "```", "");
  return lines.join("\n");
}

/** docs/tools.md, generated from the registry so it can never drift from the code. */
export function renderToolDocs(tools: readonly AnyTool[]): string {
  const out = [
    "# Tools",
    "",
    "Generated from the tool registry by `npm run docs`; do not edit by hand (CI fails when it is stale).",
    "",
    "Each tool's example arguments are the smallest call its input schema accepts; replace the placeholders (`<name>`, or `NAME` where an id may hold only letters, digits and `_ . : -`).",
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
