import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { useHarness } from "../helpers/harness.js";
import { expectOutputContract } from "../helpers/output-contract.js";

// Tools that follow several upstream pages report progress when the client asks for it.
const h = useHarness();

describe("progress notifications", () => {
  it("list_conversations reports each upstream page it follows to fill limit", async () => {
    const pageId = h.sandbox.messaging.pages[0]!.id;
    const seen: Progress[] = [];
    const result = await h.client.callTool({ name: "list_conversations", arguments: { page_ids: pageId, limit: 100 } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(result.isError).toBeFalsy();
    expectOutputContract("list_conversations", JSON.stringify(result.structuredContent));
    const rows = (result.structuredContent as { conversations: unknown[] }).conversations.length;
    // The v2 list gives 60 conversations a call: 100 rows take two calls, each reported.
    expect(rows).toBe(100);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.map((p) => p.progress)).toEqual([...seen.map((p) => p.progress)].sort((a, b) => a - b));
    expect(seen.at(-1)).toMatchObject({ progress: 100, total: 100 });
  });
});
