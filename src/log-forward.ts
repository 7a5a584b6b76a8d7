import { atLeast, type Logger } from "./log.js";

// MCP's levels (the syslog severities), least severe first.
export const MCP_LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

export interface LogForwarding {
  /** logging/setLevel: that level and above from now on. */
  setLevel(level: McpLogLevel): void;
  remove(): void;
}

/**
 * Forwards log lines to the client as notifications/message (`send`; server.ts does it for
 * 2025-era clients, MCP logging being deprecated since 2026-07-28). Until the client sets a level it
 * gets what stderr gets (PANCAKE_LOG_LEVEL); after logging/setLevel, that level and above, debug
 * included, whatever PANCAKE_LOG_LEVEL says (stderr keeps its own level).
 */
export function forwardLogs(logger: Logger, send: (level: McpLogLevel, message: string) => void): LogForwarding {
  let chosen: McpLogLevel | undefined;
  // The logger must produce the lines below PANCAKE_LOG_LEVEL in the first place, so the level
  // is applied here, not by filtering what reaches the client.
  const remove = logger.addSink(
    (level, message) => send(level, message),
    (level) => (chosen === undefined ? atLeast(level, logger.level) : MCP_LOG_LEVELS.indexOf(level) >= MCP_LOG_LEVELS.indexOf(chosen)),
  );
  return {
    setLevel(level) {
      chosen = level;
    },
    remove,
  };
}
