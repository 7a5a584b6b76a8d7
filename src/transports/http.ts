import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import { type AuthInfo, classifyInboundRequest, createMcpHandler, type McpServer } from "@modelcontextprotocol/server";
import type { Logger } from "../log.js";
import type { Era } from "../server.js";
import { deliverAnswers, routeAnswers } from "./answers.js";
import { isWildcard } from "./wildcard.js";

export interface HttpOptions {
  host: string;
  port: number;
  /** Whether `route` asks for a bearer token; it must when the host is not loopback. */
  authenticated: boolean;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  maxBodyBytes?: number;
  logger: Logger;
  /** Who a request to /mcp is for (its tenant and server), or why it is refused. */
  route(req: IncomingMessage, requestId: string): RequestTarget | Refusal;
  /** The body of /readyz: "ready" or "degraded" (still serving), and what it depends on. */
  readiness?: () => { status: "ready" | "degraded" } & Record<string, unknown>;
  /** /metrics in Prometheus format (PANCAKE_METRICS). */
  metrics?: () => Promise<{ contentType: string; body: string }>;
  /** Deliveries to /webhooks/..., by the path after it (src/webhooks.ts); unset, there are none. */
  webhook?: {
    maxBodyBytes: number;
    receive(rest: string, headers: IncomingMessage["headers"], body: string | "too_large"): Promise<{ status: number; body: Record<string, unknown> }>;
  };
}

export interface RequestTarget {
  tenant: string;
  /** A fresh MCP server per request, for the request's protocol generation, keeps the transport stateless (any replica can answer). */
  createServer(era: Era): McpServer;
}

export interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

export interface HttpHandle {
  url: string;
  close(): Promise<void>;
}

/** How long shutdown waits for requests in flight before it drops them (an upstream may hang). */
export const DRAIN_MS = 10_000;

/** A request id from the proxy in front is kept when it is a plain identifier; else one is made. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// The names a browser uses for this machine. DNS rebinding works by pointing a name the attacker
// controls (127.attacker.example, 127.0.0.1.nip.io) at 127.0.0.1, so a Host header is matched against
// these names exactly, never by prefix.
const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** A bind address on this machine (any 127.x.y.z, ::1, localhost): no token is needed there. */
export const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** `name:port` of a Host header, lower-cased; an IPv6 name keeps its brackets. */
function splitHost(header: string): { name: string; port: number | undefined } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(header.trim());
  return m ? { name: m[1]!.toLowerCase(), port: m[2] === undefined ? undefined : Number(m[2]) } : undefined;
}

/** The request's target rides to the SDK's server factory as its pass-through authInfo (no token: none is needed past routing). */
const carrying = (target: RequestTarget): AuthInfo => ({ token: "", clientId: target.tenant, scopes: [], extra: { target } });
const carried = (auth: AuthInfo | undefined) => auth?.extra?.target as RequestTarget;

/**
 * Streamable HTTP at /mcp, stateless, with bearer auth, DNS-rebinding checks and a body limit, for
 * both protocol generations: a request carrying the 2026-07-28 `_meta` goes to the SDK's
 * per-request handler; a 2025-era request (initialize, or no `_meta` claim) is served as before, by
 * a fresh server on a sessionless transport whose server-to-client requests can be answered
 * (transports/answers.ts).
 */
export async function serveHttp(options: HttpOptions): Promise<HttpHandle> {
  const { logger } = options;
  if (!isLoopback(options.host) && !options.authenticated) {
    throw new Error(
      `refusing to listen on ${options.host} without PANCAKE_MCP_TOKEN: anyone who can reach the port could act on the shop. Set PANCAKE_MCP_TOKEN (16+ characters) or bind to 127.0.0.1.`,
    );
  }
  const maxBody = options.maxBodyBytes ?? 1_000_000;
  const modern = createMcpHandler(({ authInfo }) => carried(authInfo).createServer("modern"), {
    legacy: "reject",
    maxRequestBodySize: maxBody,
    onerror: (error) => logger.debug(`http: ${error.message}`),
  });
  const serveModern = toNodeHandler(modern, { maxRequestBodySize: maxBody, onerror: (error) => logger.error(`http: ${error.message}`) });
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let listening = 0;
  let draining = false;

  const httpServer = createServer((req, res) => {
    inFlight++;
    res.on("close", () => inFlight--);
    handle(req, res).catch((error: unknown) => {
      logger.error(`http: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "Internal server error");
      else res.end();
    });
  });
  // Slow or idle clients cannot hold a connection open forever.
  httpServer.headersTimeout = 10_000;
  httpServer.requestTimeout = 60_000;
  httpServer.keepAliveTimeout = 5_000;
  httpServer.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const hostPort = () => (httpServer.address() as AddressInfo).port;
  // Loopback: exactly the loopback names (and the bind address itself) with the bound port; a
  // Host without a port means port 80, which only a server bound to 80 is. Elsewhere the bind
  // address. PANCAKE_MCP_ALLOWED_HOSTS adds names (with or without a port) for a proxy in front.
  const allowedHost = (header: string | undefined): boolean => {
    if (!header) return false;
    const extra = options.allowedHosts ?? [];
    if (extra.includes(header)) return true;
    const host = splitHost(header);
    if (!host || (host.port ?? 80) !== hostPort()) return false;
    if (extra.includes(host.name)) return true;
    const bound = options.host.includes(":") && !options.host.startsWith("[") ? `[${options.host}]` : options.host;
    // Bound to every address (0.0.0.0, ::), the machine's own loopback names reach it too; other
    // names (its LAN address, a public name) only when allowed, as DNS rebinding needs a name.
    return host.name === bound.toLowerCase() || ((isLoopback(options.host) || isWildcard(options.host)) && LOOPBACK_NAMES.has(host.name));
  };
  // A refused Host is said once per name: a client that cannot connect otherwise learns nothing.
  const refusedHosts = new Set<string>();
  const refuseHost = (header: string | undefined) => {
    const name = (header ?? "").slice(0, 100);
    if (refusedHosts.size < 20 && !refusedHosts.has(name)) {
      refusedHosts.add(name);
      logger.warn(`http: refused Host ${JSON.stringify(name)}: add it to PANCAKE_MCP_ALLOWED_HOSTS if clients use that name`);
    }
  };
  // A browser page on this machine (an inspector on another local port) may call a loopback server;
  // a page from any other site may not, whatever name it resolves to.
  const allowedOrigin = (origin: string | undefined): boolean => {
    if (origin === undefined) return true;
    if ((options.allowedOrigins ?? []).includes(origin)) return true;
    try {
      const { protocol, hostname } = new URL(origin);
      return isLoopback(options.host) && (protocol === "http:" || protocol === "https:") && LOOPBACK_NAMES.has(hostname.toLowerCase());
    } catch {
      return false;
    }
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0];
    // Probes and scrapes from the orchestrator come by the container's own address: before the Host check.
    if (req.method === "GET" && (path === "/healthz" || path === "/readyz" || (path === "/metrics" && options.metrics))) {
      return probe(path, res);
    }
    // The services deliver from their own servers: authenticated by the secret, not by Host or Origin.
    if (options.webhook && path?.startsWith("/webhooks/") && req.method === "POST") {
      const body = await readBody(req, options.webhook.maxBodyBytes);
      if (body === "too_large") res.setHeader("connection", "close");
      const answer = await options.webhook.receive(path.slice("/webhooks/".length), req.headers, body);
      return void res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    }
    if (!allowedHost(req.headers.host)) {
      refuseHost(req.headers.host);
      return jsonRpcError(res, 421, -32000, "Host header not allowed: add it to PANCAKE_MCP_ALLOWED_HOSTS");
    }
    if (!allowedOrigin(req.headers.origin)) return jsonRpcError(res, 403, -32000, "Origin not allowed");
    if (path !== "/mcp") return jsonRpcError(res, 404, -32000, "Not found: the MCP endpoint is /mcp");
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader("x-request-id", requestId);
    const target = options.route(req, requestId);
    if (!("createServer" in target)) {
      for (const [name, value] of Object.entries(target.headers ?? {})) res.setHeader(name, value);
      return jsonRpcError(res, target.status, target.code, target.message);
    }
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return jsonRpcError(res, 405, -32000, "Method not allowed: this server is stateless, use POST");
    }
    const body = await readBody(req, maxBody);
    if (body === "too_large") {
      res.setHeader("connection", "close");
      return jsonRpcError(res, 413, -32000, `Request body larger than ${maxBody} bytes`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return jsonRpcError(res, 400, -32700, "Parse error: the body is not JSON");
    }
    // The answer to a confirmation this process asked for goes to the call that waits on it.
    if (deliverAnswers(parsed, target.tenant)) return void res.writeHead(202).end();
    const generation = classifyInboundRequest({
      httpMethod: "POST",
      protocolVersionHeader: header(req, "mcp-protocol-version"),
      mcpMethodHeader: header(req, "mcp-method"),
      mcpNameHeader: header(req, "mcp-name"),
      body: parsed,
    });
    if (generation.kind !== "legacy") {
      // The SDK's own handler answers 2026-07-28 requests, and refuses malformed claims as the spec says.
      if ((parsed as { method?: unknown } | null)?.method === "subscriptions/listen") {
        // A change stream stays open until the client or shutdown ends it: not a request to drain.
        listening++;
        res.on("close", () => listening--);
      }
      (req as IncomingMessage & { auth?: AuthInfo }).auth = carrying(target);
      return serveModern(req, res, parsed);
    }
    const server = target.createServer("legacy");
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const release = routeAnswers(transport, target.tenant);
    res.on("close", () => {
      release();
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsed);
  }

  async function probe(path: string, res: ServerResponse): Promise<void> {
    if (path === "/metrics") {
      const { contentType, body } = await options.metrics!();
      return void res.writeHead(200, { "content-type": contentType }).end(body);
    }
    // Liveness: the process answers. Readiness: it should get traffic (not while draining); a
    // degraded replica (Redis away) still serves, on its own limits, so it stays in rotation.
    const body = path === "/healthz" ? { status: "ok" } : draining ? { status: "draining" } : (options.readiness?.() ?? { status: "ready" });
    res.writeHead(body.status === "draining" ? 503 : 200, { "content-type": "application/json" }).end(JSON.stringify(body));
  }

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  // A wildcard address is no place to connect to: this machine reaches it by loopback.
  const shownHost = isWildcard(options.host) ? "127.0.0.1" : options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${shownHost}:${hostPort()}/mcp`;

  return {
    url,
    async close() {
      draining = true;
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const deadline = Date.now() + DRAIN_MS;
      while (inFlight > listening && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      // Open subscriptions/listen streams end with their closing result, then the sockets go.
      await modern.close();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Bodies up to this size are read to their end before a 413, so a client that sends its whole body first reads the answer instead of a broken pipe; a larger one has its connection closed at once. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

function readBody(req: IncomingMessage, limit: number): Promise<string | "too_large"> {
  return new Promise((resolve, reject) => {
    const tooLarge = (seen: number) => {
      req.removeAllListeners("data");
      req.removeAllListeners("end");
      if (seen > DRAIN_LIMIT) return resolve("too_large");
      let drained = seen;
      req.on("data", (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > DRAIN_LIMIT) resolve("too_large");
      });
      req.on("end", () => resolve("too_large"));
      req.resume();
    };
    const declared = Number(req.headers["content-length"]);
    req.on("error", reject);
    if (Number.isFinite(declared) && declared > limit) return tooLarge(declared > DRAIN_LIMIT ? declared : 0);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge(size);
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}
