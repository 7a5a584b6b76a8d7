import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { makeConfig } from "../../src/config.js";
import { selectTools } from "../../src/tools/index.js";
import { listedTool } from "../../src/tools/listing.js";
import { TOOLSETS } from "../../src/tools/toolsets.js";

// Every tools/list entry is read by the model on every turn: the budget keeps tool choice sharp
// and leaves the context for the shop's data. o200k is the proxy tokenizer.
function listTokens(toolsets: readonly (typeof TOOLSETS)[number][]): number {
  const tools = selectTools(makeConfig({ toolsets: [...toolsets] })).map(listedTool);
  return countTokens(JSON.stringify({ tools }));
}

describe("context cost of tools/list", () => {
  it("stays within 12,000 tokens with every toolset", () => {
    expect(listTokens(TOOLSETS)).toBeLessThanOrEqual(12_000);
  });

  it("stays within 6,000 tokens with the default toolsets", () => {
    expect(listTokens(makeConfig().toolsets)).toBeLessThanOrEqual(6_000);
  });
});
