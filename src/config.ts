import { parseArgs } from "node:util";
import { z } from "zod";
import { registerSecret } from "./text/redact.js";
import { DEFAULT_BUDGET } from "./outbound.js";
import { setCursorKey } from "./cursor-key.js";
import { TOOLSETS, type ToolsetChoice } from "./toolsets.js";
import { defaultIndexDir } from "./shop-index/cache-dir.js";
import { MAX_SCALE } from "./sandbox/copies.js";

const LOG_LEVELS = ["debug", "info", "warning", "error"] as const;

/**
 * PANCAKE_CONFIRM_WRITES, for the tools that declare `confirm` (they reach a customer or move
 * money, src/tools/confirm.ts): `auto` asks where the client can, `always` refuses to make them
 * unasked, `never` does not ask.
 */
export const CONFIRM_MODES = ["auto", "always", "never"] as const;
export type ConfirmMode = (typeof CONFIRM_MODES)[number];

/** PANCAKE_INDEX: where the shop index lives. */
export const INDEX_MODES = ["disk", "memory", "off"] as const;

/** `a=1,b=2` -> { a: "1", b: "2" }; whitespace around items is ignored. */
export function parsePairs(name: string, text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of (text ?? "").split(",")) {
    const trimmed = item.trim();
    if (!trimmed) continue;
    const eq = trimmed.indexOf("=");
    if (eq <= 0 || eq === trimmed.length - 1) {
      throw new z.ZodError([
        { code: "custom", path: [name], message: `expected id=value pairs separated by commas, got an item without "="`, input: undefined },
      ]);
    }
    out[trimmed.slice(0, eq).trim()] = trimmed.slice(eq + 1).trim();
  }
  return out;
}

export const toolsetList = z
  .string()
  .transform((text) => text.split(",").map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.enum([...TOOLSETS, "all", "default"])).min(1, "name at least one toolset"))
  // `default` stands for the default tools, so `default,finance` adds a toolset to them.
  .transform((names): ToolsetChoice[] => (names.includes("all") ? [...TOOLSETS] : [...new Set(names as ToolsetChoice[])]));

/** An exact list of tool names (checked against the registry when the server is built). */
export const toolList = z
  .string()
  .transform((text) => text.split(",").map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[a-z_]+$/, "tool names are snake_case")).min(1, "name at least one tool"));

const bool = z
  .union([z.boolean(), z.enum(["1", "0", "true", "false", "yes", "no", ""])])
  .transform((v) => v === true || v === "1" || v === "true" || v === "yes");

const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ""));

/** An integer flag or variable within [min, max], or undefined when not given; `name` names it in the error. */
function intFlag(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === "" || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigFileError(`${name}: expected an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return value;
}

/** The flags of `pancake-mcp sandbox` that size and slow the sandbox, and their --demo counterparts. */
const SANDBOX_FLAGS = { scale: "demo-scale", latency: "demo-latency" } as const;
/** Longest standing delay of the sandbox's answers: past a minute every client has given up. */
const MAX_LATENCY_MS = 60_000;

/**
 * The sandbox's size and delay: --scale and --latency of `pancake-mcp sandbox`; --demo-scale and
 * --demo-latency (or PANCAKE_DEMO_SCALE, PANCAKE_DEMO_LATENCY_MS) of --demo. A flag where it would
 * do nothing is refused; the variables are read with --demo only.
 */
function sandboxSize(values: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv, sandbox: boolean) {
  const text = (name: string) => {
    const value = values[name];
    return typeof value === "string" ? value : undefined;
  };
  for (const [own, demo] of Object.entries(SANDBOX_FLAGS)) {
    if (!sandbox && text(own) !== undefined) throw new ConfigFileError(`--${own}: a flag of \`pancake-mcp sandbox\`; with --demo use --${demo}`);
    if (values.demo !== true && text(demo) !== undefined) throw new ConfigFileError(`--${demo}: only with --demo`);
  }
  const demo = (flag: string, variable: string) => (values.demo === true ? flagOrEnv(text(flag), env[variable]) : undefined);
  return {
    scale: intFlag("--scale", text("scale"), 1, MAX_SCALE),
    latencyMs: intFlag("--latency", text("latency"), 0, MAX_LATENCY_MS),
    demoScale: intFlag("PANCAKE_DEMO_SCALE / --demo-scale", demo("demo-scale", "PANCAKE_DEMO_SCALE"), 1, MAX_SCALE),
    demoLatencyMs: intFlag("PANCAKE_DEMO_LATENCY_MS / --demo-latency", demo("demo-latency", "PANCAKE_DEMO_LATENCY_MS"), 0, MAX_LATENCY_MS),
  };
}

export const configSchema = z.object({
  accessToken: z.string().min(1).optional(),
  pageAccessTokens: z.record(z.string(), z.string()).default({}),
  /** page_id -> the id of its call-centre (SIP) package, which no API lists (list_call_logs). */
  callCenterIds: z.record(z.string(), z.string()).default({}),
  /** shop_id -> key; the key under "*" serves every shop. */
  posApiKeys: z.record(z.string(), z.string()).default({}),
  timezone: z.string().refine((tz) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "unknown IANA time zone (example: Asia/Ho_Chi_Minh)"),
  baseUrl: url,
  posBaseUrl: url,
  toolsets: z.array(z.enum([...TOOLSETS, "default"])),
  /** An exact tool list (PANCAKE_TOOLS / --tools): wins over toolsets. */
  tools: z.array(z.string()).optional(),
  /** The enable_toolset tool, so a client can add toolsets mid-session (stdio; not stateless HTTP). */
  dynamicToolsets: z.boolean().default(false),
  readOnly: z.boolean(),
  /** Ask the user before writes that reach a customer or move money (tools/confirm.ts). */
  confirmWrites: z.enum(CONFIRM_MODES).default("auto"),
  mcpToken: z.string().min(16, "PANCAKE_MCP_TOKEN must be at least 16 characters").optional(),
  /** Signs next_cursor values; replicas behind one load balancer share it (src/cursor-key.ts). */
  cursorKey: z.string().min(32, "PANCAKE_MCP_CURSOR_KEY must be at least 32 characters").optional(),
  http: z.boolean(),
  /** PANCAKE_MCP_TENANTS: a JSON file of tenants, each with its token, credentials and tools (src/tenants/file.ts). */
  tenantsFile: z.string().min(1).optional(),
  /** PANCAKE_WEBHOOK_SECRET: the services' webhooks are received at /webhooks/... with it (src/webhooks.ts). */
  webhookSecret: z.string().min(16, "PANCAKE_WEBHOOK_SECRET must be at least 16 characters").optional(),
  /** PANCAKE_MCP_CREDENTIAL_HEADERS: a client may pass its own Pancake credentials in X-Pancake-* headers. */
  credentialHeaders: z.boolean().default(false),
  /** PANCAKE_REDIS_URL: rate limits and caches shared by every replica (src/state/redis.ts). */
  redisUrl: z.url({ protocol: /^rediss?$/ }).optional(),
  /** PANCAKE_METRICS: /metrics in Prometheus format (--http). */
  metrics: z.boolean().default(false),
  /** PANCAKE_LOG_FORMAT: text lines (default) or one JSON object per line. */
  logFormat: z.enum(["text", "json"]).default("text"),
  host: z.string().min(1),
  port: z.number().int().min(0).max(65535),
  demo: z.boolean(),
  /** --demo-scale / PANCAKE_DEMO_SCALE: the demo shop this many times over (SandboxOptions.scale). */
  demoScale: z.number().int().min(1).max(MAX_SCALE).optional(),
  /** --demo-latency / PANCAKE_DEMO_LATENCY_MS: every answer of the demo's upstreams waits this long. */
  demoLatencyMs: z.number().int().min(0).max(MAX_LATENCY_MS).optional(),
  logLevel: z.enum(LOG_LEVELS),
  connectTimeoutMs: z.number().int().min(100).max(120_000),
  responseTimeoutMs: z.number().int().min(100).max(600_000),
  /**
   * Characters of JSON one tool result may take (PANCAKE_MAX_RESULT_CHARS): clients differ in what
   * they accept from one call. Past it a result is cut with a marker, a page to whole rows.
   */
  maxResultChars: z.number().int().min(2_000).max(10_000_000).default(DEFAULT_BUDGET),
  /** Largest upstream answer read (PANCAKE_MAX_RESPONSE_BYTES); see src/clients/http.ts. */
  maxResponseBytes: z.number().int().min(10_000).max(1_000_000_000).optional(),
  allowedHosts: z.array(z.string()).default([]),
  allowedOrigins: z.array(z.string()).default([]),
  /** Read retry policy of the HTTP core; only tests shorten it (no flag or variable sets it). */
  retry: z
    .object({ attempts: z.number().int().min(1), baseDelayMs: z.number().min(0), maxDelayMs: z.number().min(0), budgetMs: z.number().min(0) })
    .partial()
    .optional(),
  /** Calls per second per page of the page-token API (PANCAKE_PAGE_RATE_PER_SECOND; the live limit, 5, by default). */
  pageRatePerSecond: z.number().int().min(1).max(1_000_000).optional(),
  /** Calls per second per shop of the POS (PANCAKE_POS_RATE_PER_SECOND); unlimited by default, as the POS documents no limit. */
  posRatePerSecond: z.number().int().min(1).max(1_000_000).optional(),
  /**
   * PANCAKE_POS_STATISTICS: search_orders group_by counted by the POS's own statistics where they
   * mean what the order list does (src/tools/orders/order-pushdown.ts); off, by the list or index alone.
   */
  posStatistics: z.boolean().default(true),
  /**
   * PANCAKE_CALL_BUDGET_SECONDS: how long one call may take before it answers with what it has
   * (desktop clients give up at 60 s); a read for the shop index goes on past it.
   */
  callBudgetSeconds: z.number().min(5).max(3_600).default(40),
  /** The shop index (src/shop-index): orders and conversations already read, kept in step. */
  index: z
    .object({
      /** PANCAKE_INDEX: disk (the user's cache folder; Redis when PANCAKE_REDIS_URL is set), memory (this process only) or off. */
      mode: z.enum(INDEX_MODES).default("memory"),
      /** PANCAKE_INDEX_DIR. */
      dir: z.string().min(1).optional(),
      /** PANCAKE_INDEX_REFRESH_SECONDS: an answer this soon after the last refresh reads the index as it is. */
      refreshSeconds: z.number().min(0).max(86_400).default(5),
      /** PANCAKE_INDEX_MAX_ROWS: most orders of one shop, or conversations of one page, one index holds (on disk, not in memory). */
      maxRows: z.number().int().min(1_000).max(100_000_000).default(5_000_000),
      /** PANCAKE_INDEX_PRELOAD: at start, read every page's conversations and every shop's orders of all time. */
      preload: z.boolean().default(false),
    })
    .default({ mode: "memory", refreshSeconds: 5, maxRows: 5_000_000, preload: false }),
});

export type Config = z.infer<typeof configSchema>;

const HELP = `pancake-mcp: MCP server for a shop's page inbox (messaging API) and point of sale (POS API)

Usage:
  pancake-mcp [flags]                 serve over stdio (for Claude Desktop, Claude Code, Cursor, ...)
  pancake-mcp --http [flags]          serve Streamable HTTP at http://HOST:PORT/mcp
  pancake-mcp --demo [--http]         serve against the embedded sandbox shop (no credentials needed)
  pancake-mcp sandbox [--port N]      run only the simulated upstream APIs (see sandbox --help)
  pancake-mcp index info|clear        where the shop index is kept and how big it is, or remove it

Flags:
  --http                 Streamable HTTP instead of stdio
  --host HOST            HTTP bind address (default 127.0.0.1)
  --port N               HTTP port (default 3000)
  --demo                 start the embedded sandbox on loopback and use it
  --demo-scale N         the demo shop N times over, 1 to ${MAX_SCALE} (env PANCAKE_DEMO_SCALE, default 1)
  --demo-latency MS      the demo's upstreams answer after MS milliseconds, 0 to ${MAX_LATENCY_MS} (env PANCAKE_DEMO_LATENCY_MS)
  --read-only            register no tool that writes upstream (env PANCAKE_READ_ONLY)
  --confirm-writes MODE  auto | always | never: ask the user before a write reaches a customer or
                         moves money (env PANCAKE_CONFIRM_WRITES, default auto: where the client can)
  --toolsets LIST        comma list of toolsets, "default" or "all" (env PANCAKE_TOOLSETS)
  --tools LIST           exactly these tools, e.g. search_orders,get_order (env PANCAKE_TOOLS)
  --timezone ZONE        the shop's IANA zone: dates are read and written in it (env PANCAKE_TIMEZONE)
  --log-level LEVEL      debug | info | warning | error (env PANCAKE_LOG_LEVEL, default info)
  -h, --help             show this help
  -v, --version          print the version

Environment:
  PANCAKE_ACCESS_TOKEN        user token: page list, page-token lookup, sending, multi-page staff stats
  PANCAKE_PAGE_ACCESS_TOKENS  optional page_id=token,... (else read from the page list and cached)
  PANCAKE_POS_API_KEY         POS api key, or shop_id=key,... for several shops
  PANCAKE_CALL_CENTER_IDS     page_id=id,...: each page's call-centre (SIP) package id, for list_call_logs
  PANCAKE_TIMEZONE            default Asia/Ho_Chi_Minh
  PANCAKE_BASE_URL            default https://pages.fm/api
  PANCAKE_POS_BASE_URL        default https://pos.pages.fm/api/v1
  PANCAKE_TOOLSETS            default: the default tools (docs/tools.md); add toolsets with default,NAME; all: ${TOOLSETS.join(",")}
  PANCAKE_TOOLS               exactly these tools (comma list); overrides PANCAKE_TOOLSETS
  PANCAKE_DYNAMIC_TOOLSETS    0 to leave out enable_toolset on stdio (it lets the assistant add a toolset)
  PANCAKE_READ_ONLY           1 to register no write tool
  PANCAKE_CONFIRM_WRITES      auto (default), always or never: see --confirm-writes
  PANCAKE_MCP_TOKEN           bearer token for --http (required when the host is not loopback)
  PANCAKE_MCP_ALLOWED_HOSTS   extra Host header values accepted by --http (comma list)
  PANCAKE_MCP_ALLOWED_ORIGINS extra Origin values accepted by --http (comma list)
  PANCAKE_MCP_CURSOR_KEY      key that signs next_cursor (32+ characters; replicas share it)
  PANCAKE_CONNECT_TIMEOUT_MS  upstream connect timeout (default 10000)
  PANCAKE_TIMEOUT_MS          upstream response timeout, whole body included (default 30000)
  PANCAKE_MAX_RESPONSE_BYTES  largest upstream answer read (default 8000000)
  PANCAKE_MAX_RESULT_CHARS    characters one tool result may take (default 100000, about 25k tokens)
  PANCAKE_PAGE_RATE_PER_SECOND calls per second per page (default 5, the live limit)
  PANCAKE_POS_RATE_PER_SECOND calls per second per POS shop (default: no limit)
  PANCAKE_LOG_FORMAT          text (default) or json: one JSON object per line, with request ids
  PANCAKE_POS_STATISTICS      0 to count search_orders groupings from the order list alone, never the
                              POS's statistics (used where they count the same orders, at any shop size)
  PANCAKE_INDEX               disk (default), memory or off: the shop index of orders and conversations
                              already read, which answers counts over a big shop in seconds
  PANCAKE_INDEX_DIR           where it is kept (default ${defaultIndexDir().replace(/^.*(?=pancake-mcp)/, "<cache folder>/")})
  PANCAKE_INDEX_REFRESH_SECONDS an answer this soon after the last refresh reads it as it is (default 5)
  PANCAKE_INDEX_MAX_ROWS      most orders of a shop or conversations of a page it holds (default 300000)
  PANCAKE_INDEX_PRELOAD       1: at start, read all of every page's conversations and shop's orders into
                              it (an index already kept is brought up to date at start in any case)
  PANCAKE_CALL_BUDGET_SECONDS seconds a call may take before it answers with what it has (default 40;
                              desktop clients give up at 60); reads for the shop index go on past it
Running for many shops (--http):
  PANCAKE_MCP_TENANTS         JSON file of tenants: token SHA-256, credentials, toolsets (reloaded on SIGHUP)
  PANCAKE_MCP_CREDENTIAL_HEADERS 1: clients may pass credentials in X-Pancake-* headers
  PANCAKE_REDIS_URL           redis://host:6379: rate limits and caches shared by every replica
  PANCAKE_METRICS             1: /metrics in Prometheus format
  PANCAKE_WEBHOOK_SECRET      16+ characters: receive the services' webhooks at /webhooks/pos (header
                              X-Webhook-Secret) and /webhooks/messaging/<secret>, keeping the shop index live
`;

const SANDBOX_HELP = `pancake-mcp sandbox: only the simulated messaging and POS APIs, for trying clients against

Usage:
  pancake-mcp sandbox [--port N] [--host HOST] [--scale N] [--latency MS]

Flags:
  --port N               port (default 4010; 0 picks a free one)
  --host HOST            bind address (default 127.0.0.1)
  --scale N              the demo shop N times over, 1 to ${MAX_SCALE}: orders, buyers and conversations copied (default 1)
  --latency MS           every answer waits MS milliseconds from the request's arrival, 0 to ${MAX_LATENCY_MS} (default 0)
  -h, --help             show this help

It prints the base URLs and credentials to set (PANCAKE_BASE_URL, PANCAKE_POS_BASE_URL, ...).
`;

export type CliCommand =
  | { kind: "help"; text: string }
  | { kind: "version" }
  | { kind: "sandbox"; port: number; host: string; scale?: number; latencyMs?: number }
  | { kind: "index"; action: "info" | "clear"; dir: string }
  | { kind: "serve"; config: Config };

/** A config problem the CLI prints and exits on; the message names the variable or flag. */
export class ConfigFileError extends Error {}

function list(text: string | undefined): string[] {
  return (text ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

function flagOrEnv(flag: string | undefined, env: string | undefined): string | undefined {
  return flag ?? (env === "" ? undefined : env);
}

/** Reads flags and environment into a validated Config. Registers every secret for redaction. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      http: { type: "boolean" },
      host: { type: "string" },
      port: { type: "string" },
      demo: { type: "boolean" },
      "demo-scale": { type: "string" },
      "demo-latency": { type: "string" },
      scale: { type: "string" },
      latency: { type: "string" },
      "read-only": { type: "boolean" },
      "confirm-writes": { type: "string" },
      toolsets: { type: "string" },
      tools: { type: "string" },
      timezone: { type: "string" },
      "log-level": { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  if (values.help) return { kind: "help", text: positionals[0] === "sandbox" ? SANDBOX_HELP : HELP };
  if (values.version) return { kind: "version" };
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new ConfigFileError(`--port: expected an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
  }
  const sandboxFlags = sandboxSize(values, env, positionals[0] === "sandbox");
  if (positionals[0] === "sandbox") {
    return { kind: "sandbox", port: port ?? 4010, host: values.host ?? "127.0.0.1", scale: sandboxFlags.scale, latencyMs: sandboxFlags.latencyMs };
  }
  if (positionals[0] === "index") {
    const action = positionals[1];
    if (action !== "info" && action !== "clear") throw new ConfigFileError(`pancake-mcp index: say what to do, info or clear (got ${JSON.stringify(action ?? "")})`);
    return { kind: "index", action, dir: env.PANCAKE_INDEX_DIR || defaultIndexDir(env) };
  }
  if (positionals.length > 0) throw new ConfigFileError(`unknown command ${JSON.stringify(positionals[0])}; see --help`);

  const problems: string[] = [];
  const field = <T>(label: string, parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (error) {
      const message = error instanceof z.ZodError ? error.issues.map((i) => i.message).join("; ") : String(error);
      problems.push(`${label}: ${message}`);
      return undefined;
    }
  };

  const posKeyText = env.PANCAKE_POS_API_KEY?.trim();
  const posApiKeys = field("PANCAKE_POS_API_KEY", () =>
    posKeyText && !posKeyText.includes("=") ? { "*": posKeyText } : parsePairs("PANCAKE_POS_API_KEY", posKeyText),
  );
  const raw = {
    accessToken: env.PANCAKE_ACCESS_TOKEN?.trim() || undefined,
    pageAccessTokens: field("PANCAKE_PAGE_ACCESS_TOKENS", () =>
      parsePairs("PANCAKE_PAGE_ACCESS_TOKENS", env.PANCAKE_PAGE_ACCESS_TOKENS),
    ),
    posApiKeys,
    callCenterIds: field("PANCAKE_CALL_CENTER_IDS", () => parsePairs("PANCAKE_CALL_CENTER_IDS", env.PANCAKE_CALL_CENTER_IDS)),
    timezone: flagOrEnv(values.timezone, env.PANCAKE_TIMEZONE) ?? "Asia/Ho_Chi_Minh",
    baseUrl: env.PANCAKE_BASE_URL || "https://pages.fm/api",
    posBaseUrl: env.PANCAKE_POS_BASE_URL || "https://pos.pages.fm/api/v1",
    toolsets: field("PANCAKE_TOOLSETS / --toolsets", () => {
      const text = flagOrEnv(values.toolsets, env.PANCAKE_TOOLSETS);
      return text === undefined ? ["default"] : toolsetList.parse(text);
    }),
    tools: field("PANCAKE_TOOLS / --tools", () => {
      const text = flagOrEnv(values.tools, env.PANCAKE_TOOLS);
      return text === undefined ? undefined : toolList.parse(text);
    }),
    // A session-long toolset switch needs a session: stdio has one, stateless HTTP does not.
    dynamicToolsets: values.http !== true && (field("PANCAKE_DYNAMIC_TOOLSETS", () => bool.parse(env.PANCAKE_DYNAMIC_TOOLSETS || "1")) ?? true),
    readOnly: values["read-only"] === true || (field("PANCAKE_READ_ONLY", () => bool.parse(env.PANCAKE_READ_ONLY ?? "")) ?? false),
    confirmWrites: flagOrEnv(values["confirm-writes"], env.PANCAKE_CONFIRM_WRITES) ?? "auto",
    mcpToken: env.PANCAKE_MCP_TOKEN || undefined,
    cursorKey: env.PANCAKE_MCP_CURSOR_KEY || undefined,
    http: values.http === true,
    tenantsFile: env.PANCAKE_MCP_TENANTS || undefined,
    webhookSecret: env.PANCAKE_WEBHOOK_SECRET || undefined,
    credentialHeaders: field("PANCAKE_MCP_CREDENTIAL_HEADERS", () => bool.parse(env.PANCAKE_MCP_CREDENTIAL_HEADERS ?? "")) ?? false,
    redisUrl: env.PANCAKE_REDIS_URL || undefined,
    metrics: field("PANCAKE_METRICS", () => bool.parse(env.PANCAKE_METRICS ?? "")) ?? false,
    logFormat: env.PANCAKE_LOG_FORMAT || "text",
    host: values.host ?? "127.0.0.1",
    port: port ?? 3000,
    demo: values.demo === true,
    demoScale: sandboxFlags.demoScale,
    demoLatencyMs: sandboxFlags.demoLatencyMs,
    logLevel: flagOrEnv(values["log-level"], env.PANCAKE_LOG_LEVEL) ?? "info",
    connectTimeoutMs: Number(env.PANCAKE_CONNECT_TIMEOUT_MS || 10_000),
    responseTimeoutMs: Number(env.PANCAKE_TIMEOUT_MS || 30_000),
    maxResponseBytes: env.PANCAKE_MAX_RESPONSE_BYTES ? Number(env.PANCAKE_MAX_RESPONSE_BYTES) : undefined,
    maxResultChars: env.PANCAKE_MAX_RESULT_CHARS ? Number(env.PANCAKE_MAX_RESULT_CHARS) : undefined,
    pageRatePerSecond: env.PANCAKE_PAGE_RATE_PER_SECOND ? Number(env.PANCAKE_PAGE_RATE_PER_SECOND) : undefined,
    posRatePerSecond: env.PANCAKE_POS_RATE_PER_SECOND ? Number(env.PANCAKE_POS_RATE_PER_SECOND) : undefined,
    posStatistics: field("PANCAKE_POS_STATISTICS", () => bool.parse(env.PANCAKE_POS_STATISTICS || "1")) ?? true,
    callBudgetSeconds: env.PANCAKE_CALL_BUDGET_SECONDS ? Number(env.PANCAKE_CALL_BUDGET_SECONDS) : undefined,
    allowedHosts: list(env.PANCAKE_MCP_ALLOWED_HOSTS),
    allowedOrigins: list(env.PANCAKE_MCP_ALLOWED_ORIGINS),
    index: {
      // The demo's shop is made anew at every start: nothing of it is worth keeping.
      mode: env.PANCAKE_INDEX || (values.demo ? "memory" : "disk"),
      dir: env.PANCAKE_INDEX_DIR || defaultIndexDir(env),
      refreshSeconds: env.PANCAKE_INDEX_REFRESH_SECONDS ? Number(env.PANCAKE_INDEX_REFRESH_SECONDS) : undefined,
      maxRows: env.PANCAKE_INDEX_MAX_ROWS ? Number(env.PANCAKE_INDEX_MAX_ROWS) : undefined,
      preload: field("PANCAKE_INDEX_PRELOAD", () => bool.parse(env.PANCAKE_INDEX_PRELOAD ?? "")) ?? false,
    },
  };
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success && problems.length === 0) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.slice(0, 2).join(".");
      problems.push(`${ENV_NAMES[key] ?? ENV_NAMES[String(issue.path[0])] ?? key}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) {
    throw new ConfigFileError(`invalid configuration:\n  ${[...new Set(problems)].join("\n  ")}`);
  }
  const config = parsed.data;
  const clash = tenantClash(config);
  if (clash) throw new ConfigFileError(`invalid configuration:\n  PANCAKE_MCP_TENANTS: ${clash}`);
  registerConfigSecrets(config);
  return { kind: "serve", config };
}

/** Tenants bring their own tokens and credentials: the single-tenant ones beside them would be ignored. */
function tenantClash(config: Config): string | undefined {
  if (!config.tenantsFile) return undefined;
  if (!config.http) return "tenants are served over HTTP only: add --http";
  if (config.demo) return "--demo serves the sandbox shop alone: leave PANCAKE_MCP_TENANTS out";
  const single = [
    config.mcpToken && "PANCAKE_MCP_TOKEN",
    config.webhookSecret && "PANCAKE_WEBHOOK_SECRET",
    config.accessToken && "PANCAKE_ACCESS_TOKEN",
    Object.keys(config.pageAccessTokens).length > 0 && "PANCAKE_PAGE_ACCESS_TOKENS",
    Object.keys(config.posApiKeys).length > 0 && "PANCAKE_POS_API_KEY",
  ].filter(Boolean);
  return single.length > 0 ? `each tenant has its own token and credentials in the file; remove ${single.join(", ")} from the environment` : undefined;
}

const ENV_NAMES: Record<string, string> = {
  timezone: "PANCAKE_TIMEZONE / --timezone",
  baseUrl: "PANCAKE_BASE_URL",
  posBaseUrl: "PANCAKE_POS_BASE_URL",
  mcpToken: "PANCAKE_MCP_TOKEN",
  confirmWrites: "PANCAKE_CONFIRM_WRITES / --confirm-writes",
  cursorKey: "PANCAKE_MCP_CURSOR_KEY",
  webhookSecret: "PANCAKE_WEBHOOK_SECRET",
  logLevel: "PANCAKE_LOG_LEVEL / --log-level",
  connectTimeoutMs: "PANCAKE_CONNECT_TIMEOUT_MS",
  responseTimeoutMs: "PANCAKE_TIMEOUT_MS",
  maxResponseBytes: "PANCAKE_MAX_RESPONSE_BYTES",
  maxResultChars: "PANCAKE_MAX_RESULT_CHARS",
  redisUrl: "PANCAKE_REDIS_URL (redis://[:password@]host:port[/db])",
  logFormat: "PANCAKE_LOG_FORMAT",
  tenantsFile: "PANCAKE_MCP_TENANTS",
  pageRatePerSecond: "PANCAKE_PAGE_RATE_PER_SECOND",
  posRatePerSecond: "PANCAKE_POS_RATE_PER_SECOND",
  "index.mode": "PANCAKE_INDEX (disk, memory or off)",
  "index.dir": "PANCAKE_INDEX_DIR",
  "index.refreshSeconds": "PANCAKE_INDEX_REFRESH_SECONDS",
  "index.maxRows": "PANCAKE_INDEX_MAX_ROWS",
  callBudgetSeconds: "PANCAKE_CALL_BUDGET_SECONDS (5 to 3600)",
};

export function registerConfigSecrets(config: Config): void {
  for (const secret of configSecrets(config)) registerSecret(secret, true);
  registerSecret(config.mcpToken, true);
  registerSecret(config.cursorKey, true);
  registerSecret(config.webhookSecret, true);
  if (config.redisUrl) {
    registerSecret(config.redisUrl, true);
    registerSecret(decodeURIComponent(new URL(config.redisUrl).password), true);
  }
  setCursorKey(config.cursorKey, [config.mcpToken, ...configSecrets(config)]);
}

/** The upstream credentials of a config. */
export function configSecrets(config: Pick<Config, "accessToken" | "pageAccessTokens" | "posApiKeys">): (string | undefined)[] {
  return [config.accessToken, ...Object.values(config.pageAccessTokens), ...Object.values(config.posApiKeys)];
}

/** Defaults for programmatic use (tests, benchmarks, the demo). */
export function makeConfig(overrides: Partial<Config> = {}): Config {
  const config = configSchema.parse({
    timezone: "Asia/Ho_Chi_Minh",
    baseUrl: "https://pages.fm/api",
    posBaseUrl: "https://pos.pages.fm/api/v1",
    toolsets: ["default"],
    readOnly: false,
    http: false,
    host: "127.0.0.1",
    port: 3000,
    demo: false,
    logLevel: "info",
    connectTimeoutMs: 10_000,
    responseTimeoutMs: 30_000,
    ...overrides,
  });
  registerConfigSecrets(config);
  return config;
}
