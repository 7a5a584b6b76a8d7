import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, type HttpServerProcess, requireBuild, spawnHttp } from "../helpers/spawn.js";

const run = promisify(execFile);
const CONFORMANCE = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/conformance/dist/index.js", import.meta.url));
const baseline = (revision: string) => fileURLToPath(new URL(`./conformance/${revision}.yml`, import.meta.url));

// The official suite's requirement set of each revision the server speaks, run at that revision's
// wire (2025-11-25 with initialize, 2026-07-28 stateless). The checks that cannot apply to a real
// server (they call the suite's own fixture tools, such as test_simple_text) are listed, one by one,
// in conformance/<revision>.yml; everything else must pass, and a listed check that starts passing
// fails the run too (README, Conformance).
describe("MCP conformance suite against the HTTP server", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await spawnHttp(["--demo", "--toolsets", "all"]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(["2025-11-25", "2026-07-28"])("passes every applicable check of the %s requirements", async (revision) => {
    const args = [CONFORMANCE, "server", "--url", server.url, "--requirements", revision, "--expected-failures", baseline(revision)];
    const { stdout } = await run(process.execPath, args, { timeout: 90_000, env: cleanEnv() }).catch((error: { stdout?: string }) => {
      throw new Error(`conformance ${revision} failed:\n${error.stdout?.slice(-3000) ?? String(error)}`);
    });
    expect(stdout).toMatch(/Baseline check passed: all failures are expected/);
  }, 120_000);
});

async function exercise(client: MCPClient) {
  const listed = await client.listTools();
  expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["list_pages", "list_shops", "lookup_address"]));
  const tools = await client.tools();
  const shops = (await tools.list_shops!.execute({}, { toolCallId: "1", messages: [] })) as {
    isError?: boolean;
    structuredContent?: { shops: unknown[] };
  };
  expect(shops.isError).toBeFalsy();
  expect(shops.structuredContent?.shops.length).toBe(1);
  const pages = (await tools.list_pages!.execute({}, { toolCallId: "2", messages: [] })) as { isError?: boolean };
  expect(pages.isError).toBeFalsy();
}

describe("@ai-sdk/mcp, an independent protocol implementation", () => {
  it("lists and calls tools over stdio", async () => {
    requireBuild();
    const client = await createMCPClient({
      transport: new Experimental_StdioMCPTransport({ command: process.execPath, args: [CLI, "--demo"], env: cleanEnv(), stderr: "ignore" }),
    });
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it("lists and calls tools over Streamable HTTP with a bearer token", async () => {
    const token = "ai-sdk-bearer-token-0123456789";
    const server = await spawnHttp(["--demo"], { PANCAKE_MCP_TOKEN: token });
    const client = await createMCPClient({
      transport: { type: "http", url: server.url, headers: { Authorization: `Bearer ${token}` } },
    });
    try {
      await exercise(client);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
