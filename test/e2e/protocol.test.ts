import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio2025 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type LoggingMessageNotification, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";

// MCP logging, deprecated since 2026-07-28 (SEP-2577): still offered to the 2025-era clients that
// use it, through the v1 SDK's client against the built bin over stdio (a fresh process), and
// neither offered to nor needed by a 2026-07-28 client.
const spawnParams = (level = "info") => ({ command: process.execPath, args: [CLI, "--demo", "--toolsets", "all"], env: cleanEnv({ PANCAKE_LOG_LEVEL: level }), stderr: "pipe" as const });

describe("protocol: a 2025-era client sets its log level", () => {
  let client: Client2025;
  let stderr = "";
  const messages: LoggingMessageNotification["params"][] = [];

  beforeAll(async () => {
    requireBuild();
    const transport = new Stdio2025(spawnParams());
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client2025({ name: "e2e-protocol", version: "1.0.0" });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(n.params);
    });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it("sends debug lines once the client sets the level to debug, above PANCAKE_LOG_LEVEL, and not to stderr", async () => {
    expect(client.getServerCapabilities()?.logging).toBeDefined();
    const debugLines = () => messages.filter((m) => m.level === "debug");
    const [pageId] = (await client.complete({ ref: { type: "ref/prompt", name: "draft_customer_reply" }, argument: { name: "page_id", value: "" } })).completion.values;
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
});

describe("protocol: a 2026-07-28 client", () => {
  it("is offered no logging and sent no log lines, while stderr keeps them", async () => {
    requireBuild();
    // At debug, every upstream call is a log line: a 2025-era client that set no level gets each one.
    const transport = new StdioClientTransport(spawnParams("debug"));
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "e2e-protocol", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const messages: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => {
      messages.push(n.params);
    });
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()?.logging).toBeUndefined();
      const r = await client.callTool({ name: "list_shops", arguments: {} });
      expect(r.isError).toBeFalsy();
      await expect.poll(() => stderr).toMatch(/debug: GET \/\S+ -> 200/);
      expect(messages).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
