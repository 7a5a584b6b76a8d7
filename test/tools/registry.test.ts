import { describe, expect, it } from "vitest";
import { z } from "zod";
import { makeConfig } from "../../src/config.js";
import { isWriteTool } from "../../src/tools/define.js";
import { allTools, selectTools } from "../../src/tools/index.js";
import { DEFAULT_TOOLS, TOOLSETS } from "../../src/toolsets.js";

const ANNOTATIONS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

describe("tool registry", () => {
  it.each(allTools.map((t) => [t.name, t] as const))("%s declares its full contract", (_name, tool) => {
    expect(tool.name).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(tool.title.trim().length).toBeGreaterThan(3);
    expect(tool.description.trim().length).toBeGreaterThan(30);
    expect(tool.description.length).toBeLessThan(700);
    expect(TOOLSETS).toContain(tool.toolset);
    expect(tool.input).toBeInstanceOf(z.ZodObject);
    expect(tool.output).toBeInstanceOf(z.ZodObject);
    for (const key of ANNOTATIONS) expect(typeof tool.annotations[key], `${tool.name}.${key}`).toBe("boolean");
    // Every parameter says what it is: assistants choose arguments from these texts.
    const json = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as {
      properties?: Record<string, { description?: string }>;
    };
    // shop_id alone is left undescribed on purpose (src/tools/inputs.ts: 287 listed tokens).
    for (const [param, schema] of Object.entries(json.properties ?? {})) {
      if (param === "shop_id") continue;
      expect(schema.description, `${tool.name}.${param} has no description`).toBeTruthy();
    }
    if (tool.annotations.readOnlyHint) expect(tool.annotations.destructiveHint).toBe(false);
    else expect(tool.annotations.idempotentHint, `${tool.name}: writes are never retried`).toBe(false);
  });

  it("has unique names", () => {
    const names = allTools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("names only registered tools as default tools", () => {
    expect(DEFAULT_TOOLS.filter((name) => !allTools.some((t) => t.name === name))).toEqual([]);
  });

  it("read-only mode drops every write tool and toolsets select tools", () => {
    const all = selectTools(makeConfig({ toolsets: [...TOOLSETS] }));
    const readOnly = selectTools(makeConfig({ toolsets: [...TOOLSETS], readOnly: true }));
    expect(readOnly.some(isWriteTool)).toBe(false);
    expect(readOnly.length).toBe(all.filter((t) => !isWriteTool(t)).length);
    const shopOnly = selectTools(makeConfig({ toolsets: ["shop"] }));
    expect(shopOnly.length).toBeGreaterThan(0);
    expect(shopOnly.every((t) => t.toolset === "shop")).toBe(true);
  });
});
