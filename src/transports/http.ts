import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Logger } from "../log.js";
import { deliverAnswers, routeAnswers } from "./answers.js";

export interface HttpOptions {
  host: string;
  port: number;
  /** Bearer token clients must present; required when the host is not loopback. */
  token?: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  maxBodyBytes?: number;
  logger: Logger;
  /** A fresh MCP server per request keeps the transport stateless (any replica can answer). */
  createServer: () => McpServer;
}

export interface HttpHandle {
  url: string;
  close(): Promise<void>;
}

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

/** Streamable HTTP at /mcp, stateless, with bearer auth, DNS-rebinding checks and a body limit. */
export async function serveHttp(options: HttpOptions): Promise<HttpHandle> {
  const { logger } = options;
  if (!isLoopback(options.host) && !options.token) {
    throw new Error(
      `refusing to listen on ${options.host} without PANCAKE_MCP_TOKEN: anyone who can reach the port could act on the shop. Set PANCAKE_MCP_TOKEN (16+ characters) or bind to 127.0.0.1.`,
    );
  }
  const maxBody = options.maxBodyBytes ?? 1_000_000;
  const tokenDigest = options.token ? sha256(options.token) : undefined;
  const sockets = new Set<Socket>();
  let inFlight = 0;

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
    return host.name === bound.toLowerCase() || (isLoopback(options.host) && LOOPBACK_NAMES.has(host.name));
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
    if (path === "/healthz" && req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      return;
    }
    if (!allowedHost(req.headers.host)) return jsonRpcError(res, 421, -32000, "Host header not allowed");
    if (!allowedOrigin(req.headers.origin)) return jsonRpcError(res, 403, -32000, "Origin not allowed");
    if (path !== "/mcp") return jsonRpcError(res, 404, -32000, "Not found: the MCP endpoint is /mcp");
    if (tokenDigest && !bearerMatches(req.headers.authorization, tokenDigest)) {
      res.setHeader("www-authenticate", 'Bearer realm="pancake-mcp"');
      return jsonRpcError(res, 401, -32001, "Unauthorized: send Authorization: Bearer <PANCAKE_MCP_TOKEN>");
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
    if (deliverAnswers(parsed)) return void res.writeHead(202).end();
    const server = options.createServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const release = routeAnswers(transport);
    res.on("close", () => {
      release();
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsed);
  }

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${shownHost}:${hostPort()}/mcp`;

  return {
    url,
    async close() {
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const deadline = Date.now() + 10_000;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Compares digests in constant time, so timing reveals nothing about the token. */
function bearerMatches(header: string | undefined, digest: Buffer): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return timingSafeEqual(sha256(match?.[1]?.trim() ?? ""), digest) && match !== null;
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

function readBody(req: IncomingMessage, limit: number): Promise<string | "too_large"> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      return resolve("too_large");
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Discard the rest; the 413 goes out with Connection: close.
        req.removeAllListeners("data");
        req.resume();
        resolve("too_large");
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
