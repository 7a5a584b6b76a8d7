import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
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
});
