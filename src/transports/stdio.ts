import type { McpServer } from "@modelcontextprotocol/server";
import { serveStdio as serveStdioEntry } from "@modelcontextprotocol/server/stdio";
import type { Logger } from "../log.js";
import type { Era } from "../server.js";

/**
 * Serves one client over stdin/stdout, in the protocol generation its first message speaks (the
 * SDK's entry decides: an initialize is a 2025-era client, a request carrying the 2026-07-28 `_meta`
 * is a current one), from one server built for it. stdout carries nothing but protocol messages;
 * the process ends cleanly when stdin closes or on SIGTERM/SIGINT.
 */
export async function serveStdio(build: (era: Era) => McpServer, logger: Logger, onClose: () => Promise<void>): Promise<void> {
  let closing = false;
  const handle = serveStdioEntry(({ era }) => build(era), { onerror: (error) => logger.debug(`stdio: ${error.message}`) });
  const shutdown = async (reason: string) => {
    if (closing) return;
    closing = true;
    logger.debug(`stdio: shutting down (${reason})`);
    await handle.close().catch(() => {});
    await onClose().catch(() => {});
    process.exit(0);
  };
  process.stdin.on("end", () => void shutdown("stdin closed"));
  process.stdin.on("close", () => void shutdown("stdin closed"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  logger.info("ready on stdio");
}
