import type { Progress } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { useHarness } from "../helpers/harness.js";
import { expectOutputContract } from "../helpers/output-contract.js";

// Tools that follow several upstream pages report progress when the client asks for it, in both
// protocol generations (2026-07-28: on the call's own response stream).
describe.each(["legacy", "modern"] as const)("progress notifications (%s era)", (era) => {
  const h = useHarness({ era });

  it("list_conversations and list_messages report each upstream page they follow to fill limit", async () => {
    const pageId = h.sandbox.messaging.pages[0]!.id;
    const seen: Progress[] = [];
    const result = await h.client.callTool({ name: "list_conversations", arguments: { page_ids: pageId, limit: 50 } }, {
      onprogress: (p) => seen.push(p),
    });
    expect(result.isError).toBeFalsy();
    expectOutputContract("list_conversations", JSON.stringify(result.structuredContent));
    expect((result.structuredContent as { conversations: unknown[] }).conversations.length).toBe(50);
    expect(seen.at(-1)).toMatchObject({ progress: 50, total: 50 });

    // Messages come 30 to an upstream call: a longer thread takes two, each reported.
    const long = h.sandbox.messaging.conversations.find((c) => c.page_id === pageId && (h.sandbox.messaging.messages[c.id]?.length ?? 0) > 31)!;
    const messages: Progress[] = [];
    const read = await h.client.callTool({ name: "list_messages", arguments: { page_id: pageId, conversation_id: long.id, limit: 50 } }, {
      onprogress: (p) => messages.push(p),
    });
    expect(read.isError).toBeFalsy();
    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(messages.map((p) => p.progress)).toEqual([...messages.map((p) => p.progress)].sort((a, b) => a - b));
  });

  it("a first count over the shop reports the orders and conversations it reads into the index", async () => {
    const orders: Progress[] = [];
    // By customer: a grouping the POS's statistics do not answer, so the orders are read.
    const grouped = await h.client.callTool({ name: "search_orders", arguments: { group_by: ["customer"] } }, { onprogress: (p) => orders.push(p) });
    expect(grouped.isError).toBeFalsy();
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.at(-1)!.message).toMatch(/orders read: \d+/);
    const conversations: Progress[] = [];
    const waiting = await h.client.callTool({ name: "list_conversations", arguments: { awaiting_reply: true, group_by: ["page"] } }, { onprogress: (p) => conversations.push(p) });
    expect(waiting.isError).toBeFalsy();
    expect(conversations.some((p) => /conversations of page \S+ read: \d+/.test(p.message ?? ""))).toBe(true);
    // Every page is read at once, each counting its own: what is sent rises all the same (the spec).
    expect(new Set(conversations.map((p) => /conversations of page (\S+) read/.exec(p.message ?? "")?.[1]).filter(Boolean)).size).toBeGreaterThan(1);
    for (let i = 1; i < conversations.length; i++) expect(conversations[i]!.progress).toBeGreaterThan(conversations[i - 1]!.progress);
  });

  it("a join to the orders reports the page customers it reads, the figure still rising", async () => {
    const seen: Progress[] = [];
    const joined = await h.client.callTool({ name: "list_conversations", arguments: { ordered: false, group_by: ["page"] } }, { onprogress: (p) => seen.push(p) });
    expect(joined.isError).toBeFalsy();
    expect(seen.some((p) => /customers of page \S+ read: \d+/.test(p.message ?? ""))).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
  });
});
