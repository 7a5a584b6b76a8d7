import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";
import { modernRpc } from "../helpers/raw-http.js";

// The stdio process itself, spoken to line by line. What clients do over stdio, in both protocol
// generations, is in eras.test.ts.
describe("stdio: process hygiene", () => {
  function startRaw() {
    requireBuild();
    const child = spawn(process.execPath, [CLI, "--demo"], { env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    const send = (message: object | string) => child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    return { child, send, exited, stdout: () => out, stderr: () => err };
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
    // The logs went to stderr.
    expect(raw.stderr()).toMatch(/ready on stdio/);
    raw.child.stdin.end();
    expect(await raw.exited).toBe(0);
  });

  it("answers a 2026-07-28 client from its first line, with no initialize, and exits cleanly when stdin closes", async () => {
    const raw = startRaw();
    raw.send(modernRpc(1, "server/discover"));
    raw.send(modernRpc(2, "tools/call", { name: "list_shops", arguments: {} }));
    raw.send(modernRpc(3, "tools/list"));
    raw.send(modernRpc(4, "prompts/list"));
    const replies = () => raw.stdout().trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
    await waitFor(() => replies().filter((r) => r.id !== undefined).length === 4);
    for (const reply of replies()) expect(reply.jsonrpc).toBe("2.0");
    const discover = replies().find((r) => r.id === 1);
    expect(discover.result.supportedVersions).toContain("2026-07-28");
    expect(discover.result.capabilities.tools).toBeDefined();
    const call = replies().find((r) => r.id === 2);
    expect(call.result.resultType).toBe("complete");
    expect(call.result.structuredContent.shops).toHaveLength(1);
    expect(call.result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("pancake-mcp");
    // Lists say how long a client may keep them: the tool list changes with any enable_toolset
    // call here (stdio has dynamic toolsets), so it is not kept; the prompts change only with a release.
    const tools = replies().find((r) => r.id === 3).result;
    expect(tools.tools.map((t: { name: string }) => t.name)).toContain("enable_toolset");
    expect(tools).toMatchObject({ ttlMs: 0, cacheScope: "private" });
    expect(replies().find((r) => r.id === 4).result).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
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
