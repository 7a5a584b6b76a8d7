import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseInput } from "../../src/tools/define.js";
import { renderToolDocs } from "../../src/tools/docs.js";
import { allTools } from "../../src/tools/index.js";

describe("docs/tools.md", () => {
  it("is generated from the current registry (run `npm run docs` after changing a tool)", () => {
    const committed = readFileSync(new URL("../../docs/tools.md", import.meta.url), "utf8");
    expect(committed).toBe(renderToolDocs(allTools));
  });

  it("documents every tool with its parameters and an example", () => {
    const doc = renderToolDocs(allTools);
    for (const tool of allTools) {
      expect(doc).toContain(`### ${tool.name}\n`);
    }
    expect(doc.match(/Example arguments:/g)?.length).toBe(allTools.length);
  });

  it("gives every tool example arguments that its own input schema accepts, as a call would parse them", () => {
    const doc = renderToolDocs(allTools);
    const examples = new Map<string, string>();
    for (const [, name, json] of doc.matchAll(/^### (\w+)\n[\s\S]*?^Example arguments:\n\n```json\n(.*)\n```$/gm)) examples.set(name!, json!);
    expect([...examples.keys()].sort()).toEqual(allTools.map((t) => t.name).sort());
    const refused: string[] = [];
    for (const tool of allTools) {
      const args = JSON.parse(examples.get(tool.name)!);
      try {
        parseInput(tool, args);
      } catch (error) {
        refused.push(`${tool.name} ${JSON.stringify(args)}: ${(error as Error).message}`);
      }
      // No required list left empty: the example shows what one entry holds.
      for (const value of Object.values(args)) if (Array.isArray(value)) expect(value.length, tool.name).toBeGreaterThan(0);
    }
    expect(refused).toEqual([]);
  });
});
