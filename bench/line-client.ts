// The least an MCP client can be over stdio: JSON-RPC lines out, lines in, matched by id. Timing
// tools/call through it measures the server, not a client library's own parsing and validation.
// It speaks either protocol generation: 2025 (initialize first) or 2026-07-28 (no initialize; the
// revision, client and capabilities in every request's `_meta`; server/discover first).
import { spawn } from "node:child_process";

export type Era = "2025" | "2026-07-28";

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench-line", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

interface Reply {
  id?: number;
  result?: { isError?: boolean; content?: unknown };
  error?: unknown;
}

const TIMEOUT_MS = 10_000;

export async function lineClient(bin: string, env: Record<string, string>, args: string[] = [], era: Era = "2025") {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map<number, { resolve(reply: Reply): void; reject(error: Error): void }>();
  let exited: Error | undefined;
  const fail = (error: Error) => {
    exited ??= error;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  child.once("error", fail);
  child.once("exit", (code, signal) => fail(new Error(`${bin} exited (${signal ?? code})`)));
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      let message: Reply;
      try {
        message = JSON.parse(line) as Reply;
      } catch {
        fail(new Error(`${bin} wrote a line that is not JSON: ${line.slice(0, 120)}`));
        return;
      }
      if (message.id === undefined) continue;
      waiting.get(message.id)?.resolve(message);
      waiting.delete(message.id);
    }
  });
  let nextId = 0;
  const request = (method: string, params: unknown) =>
    new Promise<Reply>((resolve, reject) => {
      if (exited) return reject(exited);
      const id = ++nextId;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`${bin}: no answer to ${method} in ${TIMEOUT_MS} ms`));
      }, TIMEOUT_MS);
      const settle = <T>(f: (v: T) => void) => (v: T) => {
        clearTimeout(timer);
        f(v);
      };
      waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
      const sent = era === "2025" ? params : { ...(params as object), _meta: MODERN_META };
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params: sent })}\n`);
    });
  if (era === "2025") {
    await request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-line", version: "1.0.0" } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  } else {
    await request("server/discover", {});
  }
  return {
    pid: child.pid!,
    async callTool(name: string, args: Record<string, unknown> = {}) {
      const reply = await request("tools/call", { name, arguments: args });
      if (reply.error || reply.result?.isError) throw new Error(`${name} failed: ${JSON.stringify(reply.error ?? reply.result?.content)}`);
      return reply.result;
    },
    close(): Promise<void> {
      if (exited) return Promise.resolve();
      return new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.stdin.end();
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      });
    },
  };
}
