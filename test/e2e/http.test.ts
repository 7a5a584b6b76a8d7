import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE, raw } from "../helpers/raw-http.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

const TOKEN = "e2e-bearer-token-0123456789";
const INIT = JSON.parse(INITIALIZE);

describe("Streamable HTTP: the built bin with --demo --http", () => {
  let server: HttpServerProcess;
  let client: Client;

  beforeAll(async () => {
    server = await spawnHttp(["--demo"], { PANCAKE_MCP_TOKEN: TOKEN });
    client = new Client({ name: "e2e-http", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
    );
  });

  afterAll(async () => {
    await client?.close();
    if (server) expect(await server.stop()).toBe(0);
  });

  it("prints ready-to-paste client config", () => {
    for (const client of ["Claude Desktop", "Claude Code", "Cursor", "VS Code", "MCP Inspector"]) expect(server.stderr()).toContain(client);
  });

  it("lists and calls the first tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(2);
    for (const name of ["list_pages", "list_shops"]) {
      const result = (await client.callTool({ name, arguments: {} })) as CallToolResult;
      expect(result.isError, name).toBeFalsy();
      expect(result.structuredContent, name).toBeTruthy();
    }
    const address = (await client.callTool({ name: "lookup_address", arguments: { query: "Ha Noi" } })) as CallToolResult;
    expect(address.isError).toBeFalsy();
  });

  it("refuses requests without or with a wrong bearer token", async () => {
    const body = JSON.stringify(INIT);
    expect((await raw(server.url, { body })).status).toBe(401);
    expect((await raw(server.url, { body, headers: { authorization: "Bearer wrong-token-0123456789xx" } })).status).toBe(401);
    expect((await raw(server.url, { body, headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it("refuses a foreign Host or Origin (DNS rebinding)", async () => {
    const body = JSON.stringify(INIT);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const host = await raw(server.url, { body, headers: { ...auth, host: "evil.example" } });
    expect(host.status).toBeGreaterThanOrEqual(400);
    expect(host.status).toBeLessThan(500);
    const origin = await raw(server.url, { body, headers: { ...auth, origin: "https://evil.example" } });
    expect(origin.status).toBe(403);
  });

  it("limits the body size and serves /healthz", async () => {
    const big = JSON.stringify({ ...INIT, params: { ...INIT.params, pad: "x".repeat(2_000_000) } });
    const res = await raw(server.url, { body: big, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(413);
    const health = await raw(server.url, { method: "GET", path: "/healthz" });
    expect(health.status).toBe(200);
  });
});

describe("Streamable HTTP: binding", () => {
  it("refuses to listen off loopback without PANCAKE_MCP_TOKEN", async () => {
    await expect(spawnHttp(["--demo", "--host", "0.0.0.0"])).rejects.toThrow(/PANCAKE_MCP_TOKEN/);
  });
});
