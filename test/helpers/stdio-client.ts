import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { CLI, cleanEnv, requireBuild } from "./spawn.js";

export interface StdioServer {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** A tool call as the model sees it: error flag, the text, the structured result. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary result shapes
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; text: string; data: any }>;
  close(): Promise<void>;
}

/** The built bin over stdio, driven by the SDK's own client: what a desktop client runs. */
export async function spawnStdio(env: Record<string, string>, args: string[] = []): Promise<StdioServer> {
  requireBuild();
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, ...args], env: cleanEnv(env), stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const client = new Client({ name: "security-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => err,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      return { isError: result.isError === true, text, data: result.structuredContent };
    },
    close: () => client.close(),
  };
}

/** The environment that points the bin at a sandbox with its credentials. */
export function sandboxEnv(sandbox: Sandbox, extra: Record<string, string> = {}): Record<string, string> {
  const urls = sandbox.started;
  return {
    PANCAKE_BASE_URL: urls.messagingBaseUrl,
    PANCAKE_POS_BASE_URL: urls.posBaseUrl,
    PANCAKE_ACCESS_TOKEN: sandbox.credentials.userToken,
    PANCAKE_POS_API_KEY: sandbox.credentials.posApiKey,
    PANCAKE_TOOLSETS: "all",
    ...extra,
  };
}

/**
 * A sandbox (fast rate limit) and the built bin over stdio against it, for one test file: started
 * before its tests (after `prepare` has edited the sandbox's data), closed after.
 */
export function useSandboxStdio(options: { prepare?: (sandbox: Sandbox) => void; env?: Record<string, string> } = {}) {
  const running: { sandbox?: Sandbox; server?: StdioServer } = {};
  beforeAll(async () => {
    running.sandbox = new Sandbox({ ratePerSecond: 10_000 });
    await running.sandbox.start();
    options.prepare?.(running.sandbox);
    running.server = await spawnStdio(sandboxEnv(running.sandbox, options.env));
  });
  afterAll(async () => {
    await running.server?.close();
    await running.sandbox?.close();
  });
  return {
    get sandbox(): Sandbox {
      if (!running.sandbox) throw new Error("started in beforeAll; use it inside a test");
      return running.sandbox;
    },
    get server(): StdioServer {
      if (!running.server) throw new Error("started in beforeAll; use it inside a test");
      return running.server;
    },
  };
}
