// The least an MCP client can be over stdio: JSON-RPC lines out, lines in, matched by id. Timing
// tools/call through it measures the server, not a client library's own parsing and validation.
import { spawn } from "node:child_process";

interface Reply {
  result?: { isError?: boolean; content?: unknown };
  error?: unknown;
}

export async function lineClient(bin: string, env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map<number, (reply: Reply) => void>();
  let buffered = "";
  let nextId = 0;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, end)) as Reply & { id?: number };
      buffered = buffered.slice(end + 1);
      if (message.id !== undefined) waiting.get(message.id)?.(message);
      waiting.delete(message.id!);
    }
  });
  const request = (method: string, params: unknown) =>
    new Promise<Reply>((resolve) => {
      const id = ++nextId;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-line", version: "1.0.0" } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    async callTool(name: string, args: Record<string, unknown> = {}) {
      const reply = await request("tools/call", { name, arguments: args });
      if (reply.error || reply.result?.isError) throw new Error(`${name} failed: ${JSON.stringify(reply.error ?? reply.result?.content)}`);
      return reply.result;
    },
    close: () => new Promise<void>((resolve) => child.once("exit", () => resolve()).stdin.end()),
  };
}
