import { redact } from "./text/redact.js";

export type LogLevel = "debug" | "info" | "warning" | "error";
const order: Record<LogLevel, number> = { debug: 0, info: 1, warning: 2, error: 3 };

/** Whose work a record is about (tenant, request id): plain identifiers, never outside text. */
export type LogFields = Readonly<Record<string, string>>;
export type LogSink = (level: LogLevel, message: string, fields?: LogFields) => void;
/** `text` (default): `[pancake-mcp] level: message`; `json`: one JSON object a line (PANCAKE_LOG_FORMAT). */
export type LogFormat = "text" | "json";

/** Whether `level` is `min` or more severe. */
export const atLeast = (level: LogLevel, min: LogLevel): boolean => order[level] >= order[min];

interface Shared {
  level: LogLevel;
  sinks: Map<LogSink, (level: LogLevel) => boolean>;
}

/**
 * The one logger. stdout belongs to the MCP protocol, so the default sink is stderr; the server
 * adds a sink that forwards to MCP logging notifications. Every line is redacted here. Each sink
 * has its own threshold (by default the logger's level), so a client asking for debug lines over
 * MCP gets them without the stderr log growing. A child logger (one per HTTP request) writes to the
 * same sinks with fields naming the tenant and the request.
 */
export class Logger {
  private readonly shared: Shared;
  private readonly fields: LogFields | undefined;

  constructor(level: LogLevel = "info", stderr: boolean | LogFormat = true, parent?: { shared: Shared; fields: LogFields }) {
    this.shared = parent?.shared ?? { level, sinks: new Map() };
    this.fields = parent?.fields;
    if (!parent && stderr) this.addSink(stderr === "json" ? jsonLine : textLine);
  }

  get level(): LogLevel {
    return this.shared.level;
  }
  set level(level: LogLevel) {
    this.shared.level = level;
  }

  /** A logger writing to the same sinks, each record carrying `fields` too. */
  child(fields: LogFields): Logger {
    return new Logger(this.level, false, { shared: this.shared, fields: { ...this.fields, ...fields } });
  }

  /** Adds a sink; `wants` says which levels it takes (default: the logger's level and above). */
  addSink(sink: LogSink, wants: (level: LogLevel) => boolean = (level) => atLeast(level, this.level)): () => void {
    this.shared.sinks.set(sink, wants);
    return () => this.shared.sinks.delete(sink);
  }
  /** Whether a line at this level would be written anywhere; lets hot paths skip building it. */
  logs(level: LogLevel): boolean {
    for (const wants of this.shared.sinks.values()) if (wants(level)) return true;
    return false;
  }
  log(level: LogLevel, message: string): void {
    if (!this.logs(level)) return;
    const line = lineSafe(redact(message));
    for (const [sink, wants] of this.shared.sinks) if (wants(level)) sink(level, line, this.fields);
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

function textLine(level: LogLevel, message: string, fields?: LogFields): void {
  const tail = fields ? Object.entries(fields).map(([k, v]) => ` ${k}=${v}`).join("") : "";
  process.stderr.write(`[pancake-mcp] ${level}: ${message}${tail}\n`);
}

function jsonLine(level: LogLevel, message: string, fields?: LogFields): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`);
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
