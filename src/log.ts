import { redact } from "./clients/redact.js";

export type LogLevel = "debug" | "info" | "warning" | "error";
const order: Record<LogLevel, number> = { debug: 0, info: 1, warning: 2, error: 3 };

export type LogSink = (level: LogLevel, message: string) => void;

/**
 * The one logger. stdout belongs to the MCP protocol, so the default sink is stderr; the server
 * adds a sink that forwards to MCP logging notifications. Every line is redacted here.
 */
export class Logger {
  private readonly sinks = new Set<LogSink>();
  constructor(
    public level: LogLevel = "info",
    stderr = true,
  ) {
    if (stderr) this.sinks.add((lvl, msg) => process.stderr.write(`[pancake-mcp] ${lvl}: ${msg}\n`));
  }
  addSink(sink: LogSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }
  /** Whether a line at this level would be written; lets hot paths skip building it. */
  logs(level: LogLevel): boolean {
    return order[level] >= order[this.level];
  }
  log(level: LogLevel, message: string): void {
    if (!this.logs(level)) return;
    const line = lineSafe(redact(message));
    for (const sink of this.sinks) sink(level, line);
  }
  debug(message: string): void {
    this.log("debug", message);
  }
  info(message: string): void {
    this.log("info", message);
  }
  warn(message: string): void {
    this.log("warning", message);
  }
  error(message: string): void {
    this.log("error", message);
  }
}

// Line breaks and control characters would let text from outside (an upstream error message, a
// customer's words) start a forged record; bidi and zero-width marks would let it read as
// something else. Each becomes a visible \uXXXX escape, so one call is one line.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\p{Cf}/gu;
const UNSAFE_PROBE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\p{Cf}/u;

/** One line, every control, line-break, bidi and zero-width character escaped. */
export function lineSafe(text: string): string {
  return UNSAFE_PROBE.test(text) ? text.replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`) : text;
}

export const silentLogger = new Logger("error", false);
