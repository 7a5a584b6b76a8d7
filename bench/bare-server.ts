// The floor: a bare MCP server on the v2 SDK (@modelcontextprotocol/server) with one tool that makes
// the same upstream call as list_pages, served through the SDK's own entries, which speak both
// protocol generations (2025 with initialize, 2026-07-28 stateless). Bundled like our bin, so
// start-up and per-call costs compare like for like. `--http` serves it over Streamable HTTP
// (createMcpHandler on node:http); `--no-sdk` answers stdio lines by hand.
import { createServer } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { request } from "undici";
import { z } from "zod";

const upstream = `${process.env.PANCAKE_BASE_URL}/v1/pages?access_token=${process.env.PANCAKE_ACCESS_TOKEN}`;

interface Page {
  id: string | number;
  name?: string;
  platform?: string;
  is_activated?: boolean;
}

/** The upstream call and the same rows list_pages answers with, so both carry the same payload. */
async function listPages() {
  const res = await request(upstream);
  const body = (await res.body.json()) as { categorized?: { activated?: Page[] } };
  const pages = (body.categorized?.activated ?? []).map((p) => ({ id: String(p.id), name: p.name, platform: p.platform, is_activated: p.is_activated }));
  return { content: [{ type: "text" as const, text: JSON.stringify({ pages }) }], structuredContent: { pages } };
}

function build(): McpServer {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool("list_pages", { description: "List pages", inputSchema: z.object({}) }, listPages);
  return server;
}

if (process.argv.includes("--http")) {
  const handler = toNodeHandler(createMcpHandler(build));
  const http = createServer((req, res) => void handler(req, res));
  http.listen(0, "127.0.0.1", () => {
    const address = http.address() as { port: number };
    process.stderr.write(`ready on http://127.0.0.1:${address.port}/mcp\n`);
  });
} else if (process.argv.includes("--no-sdk")) {
  // The machine's own floor: JSON-RPC lines answered with no MCP library at all (no validation,
  // no protocol state), the same upstream call in between.
  let buffered = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", async (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, end)) as { id?: number; method: string };
      buffered = buffered.slice(end + 1);
      if (message.id === undefined) continue;
      let result: object = { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "floor", version: "1.0.0" } };
      if (message.method === "tools/call") result = await listPages();
      process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n`);
    }
  });
} else {
  serveStdio(build);
}
