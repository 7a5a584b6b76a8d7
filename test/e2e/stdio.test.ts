import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allTools } from "../../src/tools/index.js";
import { HINT_DEFAULTS } from "../../src/tools/listing.js";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";

const ANNOTATIONS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

describe("stdio: the built bin against --demo", () => {
  let client: Client;
  let stderr = "";

  beforeAll(async () => {
    requireBuild();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--demo", "--toolsets", "all"],
      env: cleanEnv(),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it("initializes and lists tools with their titles (where they say more than the name) and complete annotations", async () => {
    expect(client.getServerVersion()?.name).toBe("pancake-mcp");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["list_pages", "list_shops", "lookup_address"]));
    for (const tool of tools) {
      const defined = allTools.find((t) => t.name === tool.name)!;
      // A title that only says the name again is left out (a client shows the name instead).
      if (defined.title.toLowerCase() === tool.name.replace(/_/g, " ")) expect(tool.title, tool.name).toBeUndefined();
      else expect(tool.title, tool.name).toBe(defined.title);
      // Hints equal to the specification's defaults are left out; what a client reads must be what the tool declares.
      const declared = defined.annotations;
      const effective = { ...HINT_DEFAULTS, ...tool.annotations };
      const compared = declared.readOnlyHint ? (["readOnlyHint", "openWorldHint"] as const) : ANNOTATIONS;
      for (const key of compared) expect(effective[key], `${tool.name}.${key}`).toBe(declared[key]);
    }
  });

  async function call(name: string, args: Record<string, unknown>) {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    return { result, text };
  }

  it("calls list_pages, list_shops and lookup_address", async () => {
    const pages = await call("list_pages", {});
    expect(pages.result.isError).toBeFalsy();
    const pageData = pages.result.structuredContent as { pages: { id: string; name: string }[] };
    expect(pageData.pages.length).toBeGreaterThan(0);
    expect(JSON.parse(pages.text)).toEqual(pageData);
    expect(pages.text).not.toMatch(/access_token/);

    const shops = await call("list_shops", {});
    expect(shops.result.isError).toBeFalsy();
    expect((shops.result.structuredContent as { shops: unknown[] }).shops).toHaveLength(1);

    const address = await call("lookup_address", { query: "Quan 1, Ho Chi Minh" });
    expect(address.result.isError).toBeFalsy();
    const first = (address.result.structuredContent as { matches: { full_name: string; district?: { id: string } }[] }).matches[0];
    expect(first?.district?.id).toBeTruthy();
    expect(first?.full_name).toMatch(/Quận 1/);
  });

  it("answers a bad argument with a clear error and keeps serving", async () => {
    const bad = await call("lookup_address", { limit: "many" });
    expect(bad.result.isError).toBe(true);
    expect(bad.text).toMatch(/limit/);
    const again = await call("list_shops", {});
    expect(again.result.isError).toBeFalsy();
  });

  it("writes logs to stderr only", () => {
    expect(stderr).toMatch(/ready on stdio/);
  });
});

describe("stdio: process hygiene", () => {
  function startRaw() {
    requireBuild();
    const child = spawn(process.execPath, [CLI, "--demo"], { env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    return { child, send, exited, stdout: () => out };
  }

  async function waitFor(check: () => boolean, ms = 10_000) {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error("timed out");
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it("puts nothing but JSON-RPC on stdout and exits cleanly when stdin closes", async () => {
    const raw = startRaw();
    raw.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    raw.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_shops", arguments: {} } });
    await waitFor(() => raw.stdout().includes('"id":2'));
    const lines = raw.stdout().trim().split("\n");
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe("2.0");
    raw.child.stdin.end();
    expect(await raw.exited).toBe(0);
  });

  it("exits cleanly on SIGTERM", async () => {
    const raw = startRaw();
    raw.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    await waitFor(() => raw.stdout().includes('"id":1'));
    raw.child.kill("SIGTERM");
    expect(await raw.exited).toBe(0);
  });
});
