import { describe, expect, it } from "vitest";
import { makeConfig } from "../src/config.js";
import { clientSnippets, startDemo } from "../src/demo.js";

describe("the HTTP demo's client snippets", () => {
  const url = "http://127.0.0.1:3000/mcp";

  it("gives the MCP Inspector the bearer header when the server wants a token", () => {
    const text = clientSnippets(url, "demo-token-0123456789");
    const line = text.split("\n").find((l) => l.includes("@modelcontextprotocol/inspector"))!;
    expect(line).toContain(`--server-url ${url}`);
    expect(line).toMatch(/--header "Authorization: Bearer [^"]+"/);
  });

  it("leaves the header out when the server wants none", () => {
    const line = clientSnippets(url).split("\n").find((l) => l.includes("@modelcontextprotocol/inspector"))!;
    expect(line).not.toContain("--header");
  });
});

describe("the demo shop", () => {
  it("configures its pages' call-centre ids, as PANCAKE_CALL_CENTER_IDS would, so missed calls can be asked for", async () => {
    const demo = await startDemo(makeConfig());
    try {
      expect(Object.keys(demo.config.callCenterIds)).toHaveLength(2);
      expect(demo.config.callCenterIds).toEqual(demo.sandbox.messaging.sipPackages);
      expect(demo.sandbox.messaging.hostileConversationIds).toEqual([]);
    } finally {
      await demo.close();
    }
  });
});
