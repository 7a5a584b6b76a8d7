import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Logger } from "../log.js";

/**
 * Serves one client over stdin/stdout. stdout carries nothing but protocol messages; the process
 * ends cleanly when stdin closes or on SIGTERM/SIGINT.
 */
export async function serveStdio(server: McpServer, logger: Logger, onClose: () => Promise<void>): Promise<void> {
  const transport = new StdioServerTransport();
  let closing = false;
  const shutdown = async (reason: string) => {
    if (closing) return;
    closing = true;
    logger.debug(`stdio: shutting down (${reason})`);
    await server.close().catch(() => {});
    await onClose().catch(() => {});
    process.exit(0);
  };
  process.stdin.on("end", () => void shutdown("stdin closed"));
  process.stdin.on("close", () => void shutdown("stdin closed"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  await server.connect(transport);
  logger.info("ready on stdio");
}
