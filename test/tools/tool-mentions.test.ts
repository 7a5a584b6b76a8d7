import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AnyTool } from "../../src/tools/define.js";
import { allTools } from "../../src/tools/index.js";
import { listedTool } from "../../src/tools/listing.js";
import { DEFAULT_TOOLS } from "../../src/toolsets.js";

// A text that sends the model to a tool it may not have listed (the default set leaves most out)
// says which toolset has it, as "create_return_order (toolset orders)" or "(list_posts, toolset
// page_data)", so the model can enable it instead of guessing or giving up.

const byName = new Map(allTools.map((t) => [t.name, t]));
const elsewhere = (mentioned: AnyTool) => !DEFAULT_TOOLS.includes(mentioned.name);
const saysToolset = (text: string, tool: AnyTool) => new RegExp(`\\b${tool.name}(?: \\(toolset ${tool.toolset}\\b|, toolset ${tool.toolset}\\b)`).test(text);

/** Tools outside the default set named in `text` without their toolset. */
function unplaced(text: string, listedWith: (mentioned: AnyTool) => boolean): string[] {
  // An endpoint's path (".../generate_page_access_token") is no tool's name.
  return [...text.matchAll(/(?<![/\w])[a-z]+(?:_[a-z]+)+\b/g)].flatMap(([word]) => {
    const tool = byName.get(word);
    return tool && elsewhere(tool) && !listedWith(tool) && !saysToolset(text, tool) ? [word] : [];
  });
}

describe("texts that name a tool outside the default tools say which toolset has it", () => {
  it.each(allTools.map((t) => [t.name, t] as const))("%s's listing", (_name, tool) => {
    const listed = listedTool(tool);
    const texts = [listed.description, ...Object.values((listed.inputSchema.properties ?? {}) as Record<string, { description?: string }>).map((p) => p.description)];
    // A tool outside the default set is listed with its whole toolset: its own toolset's tools are there too.
    const listedWith = (mentioned: AnyTool) => mentioned.name === tool.name || (elsewhere(tool) && mentioned.toolset === tool.toolset);
    for (const text of texts) if (text) expect(unplaced(text, listedWith), text).toEqual([]);
  });

  it("in every note, hint and error the tools write", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
    // A toolset's own folder, when none of its tools is a default one, speaks only to sessions that list all of it.
    const ownFolder = (file: string, mentioned: AnyTool) =>
      file.split("/")[2]?.replace(/-/g, "_") === mentioned.toolset && !allTools.some((t) => t.toolset === mentioned.toolset && !elsewhere(t));
    const found: string[] = [];
    for (const file of [...files("src/tools"), ...files("src/prompts")]) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          const code = line.trim();
          if (code.startsWith("//") || code.startsWith("*")) return;
          // A tool's own name as an identifier ("list_posts" alone in quotes) is no text to a model.
          const text = code.replace(/(["'`])[a-z_]+\1/g, "");
          for (const name of unplaced(text, (mentioned) => ownFolder(file, mentioned))) found.push(`${file}:${i + 1} ${name}`);
        });
    }
    expect(found).toEqual([]);
  });
});
