import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { makeConfig } from "../../src/config.js";
import { enableToolsetTool } from "../../src/tools/enable-toolset.js";
import { availableTools, selectTools } from "../../src/tools/index.js";
import { listedTool } from "../../src/tools/listing.js";
import { TOOLSETS, type ToolsetChoice } from "../../src/toolsets.js";

// Every tools/list entry is read by the model on every turn: the budget keeps tool choice sharp
// and leaves the context for the shop's data. o200k is the proxy tokenizer. The default list is
// what a stdio client sees: the default toolsets and enable_toolset.
function listTokens(toolsets: readonly ToolsetChoice[]): number {
  const config = makeConfig({ toolsets: [...toolsets] });
  const active = new Set(selectTools(config));
  const available = availableTools(config);
  const session = active.size < available.length ? [enableToolsetTool({ available, active, changed() {} })] : [];
  const tools = [...session, ...active].map(listedTool);
  return countTokens(JSON.stringify({ tools }));
}

describe("context cost of tools/list", () => {
  it("stays within 12,800 tokens with every toolset", () => {
    expect(listTokens(TOOLSETS)).toBeLessThanOrEqual(12_800);
  });

  it("stays within 6,600 tokens with the default toolsets", () => {
    expect(listTokens(["default"])).toBeLessThanOrEqual(6_600);
  });
});
