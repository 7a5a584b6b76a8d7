import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type LoggingMessageNotification, LoggingMessageNotificationSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDateInput } from "../../src/format/time.js";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";

// Protocol details a client relies on, through the SDK's client against the built bin over stdio
// (a fresh process: nothing listed or cached beforehand). The test clock puts "today" at
// 2026-11-22 in the default zone (test/setup-clock.ts).
describe("protocol: prompt errors, client log level, completion", () => {
  let client: Client;
  let stderr = "";
  const messages: LoggingMessageNotification["params"][] = [];

  beforeAll(async () => {
    requireBuild();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--demo", "--toolsets", "all"],
      env: cleanEnv({ PANCAKE_LOG_LEVEL: "info" }),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: "e2e-protocol", version: "1.0.0" });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(n.params);
    });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  const complete = async (prompt: string, name: string, value: string, args?: Record<string, string>) =>
    (await client.complete({ ref: { type: "ref/prompt", name: prompt }, argument: { name, value }, ...(args ? { context: { arguments: args } } : {}) }))
      .completion.values;

  async function promptError(name: string, args: Record<string, string>): Promise<McpError> {
    const error = await client.getPrompt({ name, arguments: args }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }

  it("answers prompt arguments it cannot use with -32602 and what to change", async () => {
    const bad = await promptError("daily_shop_report", { date: "someday" });
    expect(bad.code).toBe(-32602);
    expect(bad.message).toMatch(/date: cannot read "someday" as a date/);
    expect(bad.message).toMatch(/YYYY-MM-DD/);

    const neither = await promptError("customer_overview", {});
    expect(neither.code).toBe(-32602);
    expect(neither.message).toMatch(/phone or customer_id/);

    const [pageId] = await complete("draft_customer_reply", "page_id", "");
    const unknown = await promptError("draft_customer_reply", { page_id: pageId!, conversation_id: "no_such_conversation" });
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toMatch(/no_such_conversation/);

    const schema = await promptError("draft_customer_reply", { page_id: "../x", conversation_id: "1" });
    expect(schema.code).toBe(-32602);

    // The server keeps serving.
    const ok = await client.getPrompt({ name: "daily_shop_report", arguments: { date: "yesterday" } });
    expect(ok.messages.length).toBeGreaterThan(0);
  });

  it("sends debug lines once the client sets the level to debug, above PANCAKE_LOG_LEVEL, and not to stderr", async () => {
    const debugLines = () => messages.filter((m) => m.level === "debug");
    const [pageId] = await complete("draft_customer_reply", "page_id", "");
    // Each call reads the page's conversations upstream, which the HTTP core logs at debug.
    const read = () => client.callTool({ name: "list_conversations", arguments: { page_ids: [pageId], limit: 1 } });
    await read();
    expect(debugLines()).toEqual([]);

    await client.setLoggingLevel("debug");
    await read();
    await expect.poll(() => debugLines().length).toBeGreaterThan(0);
    const line = String(debugLines()[0]!.data);
    expect(line).toMatch(/GET \/\S+ -> 200 in \d+ ms/);
    expect(line).not.toMatch(/access_token=(?!\[redacted\]|\*)[A-Za-z0-9]/);
    expect(stderr).not.toMatch(/\] debug: /);

    await client.setLoggingLevel("warning");
    const before = messages.length;
    await read();
    await client.ping();
    expect(messages.slice(before).filter((m) => m.level === "debug" || m.level === "info")).toEqual([]);
  });

  it("completes conversation_id from the chosen page, reading its conversations when none were listed", async () => {
    const pages = await complete("draft_customer_reply", "page_id", "");
    expect(pages.length).toBeGreaterThan(1);
    const [first, second] = pages as [string, string];
    const fromFirst = await complete("draft_customer_reply", "conversation_id", "", { page_id: first });
    const fromSecond = await complete("draft_customer_reply", "conversation_id", "", { page_id: second });
    expect(fromFirst.length).toBeGreaterThan(0);
    expect(fromSecond.length).toBeGreaterThan(0);

    // The 100 latest conversations of the page: two lists of 50.
    const idsOf = async (pageId: string) => {
      const ids = new Set<string>();
      let cursor: string | undefined;
      for (let i = 0; i < 2; i++) {
        const result = await client.callTool({ name: "list_conversations", arguments: { page_ids: [pageId], limit: 50, ...(cursor ? { cursor } : {}) } });
        const data = result.structuredContent as { conversations: { id: string }[]; next_cursor?: string };
        for (const c of data.conversations) ids.add(c.id);
        cursor = data.next_cursor;
      }
      return ids;
    };
    const [firstIds, secondIds] = [await idsOf(first), await idsOf(second)];
    for (const id of fromFirst) expect(firstIds.has(id), id).toBe(true);
    for (const id of fromSecond) expect(secondIds.has(id), id).toBe(true);

    const one = fromFirst[0]!;
    const narrowed = await complete("draft_customer_reply", "conversation_id", one.slice(0, -1), { page_id: first });
    expect(narrowed).toContain(one);
    expect(narrowed.every((id) => id.startsWith(one.slice(0, -1)))).toBe(true);
    expect(await complete("draft_customer_reply", "conversation_id", "", { page_id: "../../etc" })).toEqual([]);
  });

  it("completes shop_id, the report's date words and days, and its page list", async () => {
    const shops = await complete("daily_shop_report", "shop_id", "");
    expect(shops).toHaveLength(1);
    expect(await complete("customer_overview", "shop_id", "")).toEqual(shops);
    expect(await complete("customer_overview", "shop_id", `${shops[0]}x`)).toEqual([]);

    const dates = await complete("daily_shop_report", "date", "");
    expect(dates.slice(0, 4)).toEqual(["today", "yesterday", "2026-11-22", "2026-11-21"]);
    expect(await complete("daily_shop_report", "date", "ye")).toEqual(["yesterday"]);
    expect(await complete("daily_shop_report", "date", "2026-11-2")).toEqual(["2026-11-22", "2026-11-21", "2026-11-20"]);
    // Every value offered is one the prompt reads.
    for (const date of dates) expect(() => parseDateInput("date", date, "Asia/Ho_Chi_Minh")).not.toThrow();

    const pages = await complete("draft_customer_reply", "page_id", "");
    const list = await complete("daily_shop_report", "page_ids", `${pages[0]},`);
    expect(list).toEqual(pages.slice(1).map((p) => `${pages[0]},${p}`));
  });
});
