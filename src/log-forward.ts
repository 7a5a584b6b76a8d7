import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type LoggingLevel, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { atLeast, type Logger } from "./log.js";

// MCP's levels (the syslog severities), least severe first.
const SEVERITY: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/**
 * Forwards log lines to the client as notifications/message. Until the client sets a level it gets
 * what stderr gets (PANCAKE_LOG_LEVEL); after logging/setLevel, that level and above, debug
 * included, whatever PANCAKE_LOG_LEVEL says (stderr keeps its own level). Returns the remover.
 */
export function forwardLogs(server: McpServer, logger: Logger): () => void {
  let chosen: LoggingLevel | undefined;
  // Replaces the SDK's handler, which only filters what reaches it: the logger must produce the
  // lines below PANCAKE_LOG_LEVEL in the first place.
  server.server.setRequestHandler(SetLevelRequestSchema, ({ params }) => {
    chosen = params.level;
    return {};
  });
  return logger.addSink(
    (level, message) => {
      if (server.isConnected()) server.server.sendLoggingMessage({ level, logger: "pancake-mcp", data: message }).catch(() => {});
    },
    (level) => (chosen === undefined ? atLeast(level, logger.level) : SEVERITY.indexOf(level) >= SEVERITY.indexOf(chosen)),
  );
}
