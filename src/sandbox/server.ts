import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type ListQuirks, POS_RANGE_PARAMS, type Quirk, quirksFor } from "./quirks.js";

/** One parsed request as a sandbox route sees it. */
export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingMessage["headers"];
  /** Parsed JSON body, or undefined. */
  body: unknown;
  /** How its list misbehaves, when a quirk meets it (quirks.ts). */
  quirks?: ListQuirks;
}

/** What a route returns: a JSON body (status 200) or an explicit status and body (bytes go as they are). */
export type RouteResult = unknown | Reply;
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}
export const reply = (status: number, body: unknown, headers?: Record<string, string>) =>
  new Reply(status, body, headers);

export type RouteHandler = (req: SandboxRequest) => RouteResult | Promise<RouteResult>;

export interface RouteOptions {
  /** Requests with the same key share the upstream's per-key rate limit (5 per second). */
  rateKey?: (req: SandboxRequest) => string | undefined;
}

export interface Route {
  method: string;
  path: string;
  literals: number;
  pattern: RegExp;
  names: string[];
  handler: RouteHandler;
  options: RouteOptions;
}

/**
 * A fault the next matching requests meet. `times` counts how many requests it hits
 * (default 1; Infinity for every request until cleared).
 */
export interface Fault {
  method?: string;
  /** Matches when the request path contains this text (or matches this pattern). */
  path?: string | RegExp;
  kind:
    | "status" // reply `status` with `body` (JSON) or a generic error body
    | "rate_limit" // 429 with Retry-After `retryAfterSeconds`
    | "reset" // destroy the socket without an answer
    | "malformed" // 200 with a cut JSON body
    | "html" // `status` (default 502) with an HTML error page
    | "timeout" // never answer (the client's response timeout fires)
    | "latency"; // delay `delayMs`, then answer normally
  status?: number;
  body?: unknown;
  retryAfterSeconds?: number;
  delayMs?: number;
  times?: number;
  /** With kind "reset": apply the route first (the write happens), then drop the answer. */
  afterHandling?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string[]>;
  body: unknown;
  at: number;
  /** The X-Request-Id the server sent along (the MCP request it serves). */
  requestId?: string;
}

export class Router {
  private readonly routes: Route[] = [];

  /** Every route as registered (`:name` segments), for checking them against the vendor's index. */
  list(): { method: string; path: string }[] {
    return this.routes.map((route) => ({ method: route.method, path: route.path }));
  }

  /** Adds a route; `:name` segments become params. */
  on(method: string, path: string, handler: RouteHandler, options: RouteOptions = {}): this {
    const names: string[] = [];
    const source = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    const literals = path.split("/").filter((segment) => segment && !segment.startsWith(":")).length;
    this.routes.push({ method, path, literals, pattern: new RegExp(`^${source}$`), names, handler, options });
    return this;
  }

  /** The matching route with the most literal segments: /orders/tags before /orders/:order_id. */
  match(method: string, path: string): { route: Readonly<Route>; params: Record<string, string> } | undefined {
    let best: { route: Route; m: RegExpExecArray } | undefined;
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.pattern.exec(path);
      if (m && (!best || route.literals > best.route.literals)) best = { route, m };
    }
    if (!best) return undefined;
    const { route, m } = best;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1]!);
    });
    return { route, params };
  }
}

export interface SandboxServerOptions {
  /** Calls per second allowed per rate key before 429. */
  ratePerSecond?: number;
  /** Bytes of request body accepted. */
  maxBodyBytes?: number;
  /** Most recent requests kept in `requests`. */
  keepRequests?: number;
  /** Milliseconds every answer waits, counted from the request's arrival (a slow upstream). */
  latencyMs?: number;
}

/** The HTTP shell of the simulated upstream: routing, recording, rate limits, fault injection. */
export class SandboxServer {
  readonly router = new Router();
  readonly requests: RecordedRequest[] = [];
  /** Requests per "METHOD path-pattern-free path", including ones that met a fault. */
  readonly counts = new Map<string, number>();
  private faults: Fault[] = [];
  /** The lists' standing misbehaviours (quirks.ts), until behave(). */
  private quirks: Quirk[] = [];
  /** Requests received since the start (or resetRecords), faulted ones too. */
  received = 0;
  /** Requests the rate limit answered with 429, per rate key, since the start (or resetRecords). */
  readonly limited = new Map<string, number>();
  private readonly listeners = new Set<(request: RecordedRequest) => void>();
  private readonly windows = new Map<string, number[]>();
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private readonly options: Required<Omit<SandboxServerOptions, "latencyMs">>;
  /**
   * Milliseconds every answer waits, counted from the request's arrival: the rate limit is still
   * decided on arrival, and the time the route takes is part of the wait, not added to it. May be
   * changed while serving.
   */
  latencyMs: number;

  constructor(options: SandboxServerOptions = {}) {
    const { latencyMs = 0, ...rest } = options;
    this.options = { ratePerSecond: 5, maxBodyBytes: 1_000_000, keepRequests: 5000, ...rest };
    this.latencyMs = latencyMs;
  }

  /** Calls `listener` with every request that arrives (faulted ones too); returns the unsubscribe. */
  onRequest(listener: (request: RecordedRequest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  injectFault(fault: Fault): void {
    this.faults.push({ times: 1, ...fault });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** From now on, the lists `quirk` meets misbehave so (quirks.ts), until behave(). */
  misbehave(quirk: Quirk): void {
    this.quirks.push(quirk);
  }

  /** The lists behave again. */
  behave(): void {
    this.quirks = [];
  }

  /** How many requests reached `method path` (exact path, query excluded). */
  count(method: string, path: string): number {
    return this.counts.get(`${method} ${path}`) ?? 0;
  }

  resetRecords(): void {
    this.received = 0;
    this.limited.clear();
    this.requests.length = 0;
    this.counts.clear();
    this.windows.clear();
  }

  async listen(port = 0, host = "127.0.0.1"): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) write(res, 500, { success: false, message: String(error) });
      });
    });
    server.keepAliveTimeout = 60_000;
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    return `http://${host}:${address.port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const due = Date.now() + this.latencyMs;
    const send = async (status: number, body: unknown, headers?: Record<string, string>) => {
      await until(due);
      write(res, status, body, headers);
    };
    const url = new URL(req.url ?? "/", "http://sandbox");
    const method = req.method ?? "GET";
    const raw = await readBody(req, this.options.maxBodyBytes);
    if (raw === undefined) return send(413, { success: false, message: "Request body too large" });
    let body: unknown;
    const type = req.headers["content-type"] ?? "";
    if (raw.length > 0 && type.startsWith("multipart/form-data")) {
      body = parseMultipart(raw, type);
      if (!body) return send(400, { success: false, error: "invalid_parameters", message: "Body is not multipart/form-data" });
    } else if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        return send(400, { success: false, error: "invalid_parameters", message: "Body is not JSON" });
      }
    }
    const requestId = req.headers["x-request-id"];
    this.record(method, url, body, typeof requestId === "string" ? requestId : undefined);

    const fault = this.takeFault(method, url.pathname);
    if (fault && !(fault.kind === "reset" && fault.afterHandling)) {
      const done = await this.applyFault(fault, res, due);
      if (done) return;
    }

    const found = this.router.match(method, url.pathname);
    if (!found) return send(404, { success: false, error: "not_found", message: `No route ${method} ${url.pathname}` });
    const quirks = quirksFor(this.quirks, method, url.pathname);
    if (quirks?.ignoreRange) for (const name of POS_RANGE_PARAMS) url.searchParams.delete(name);
    const request: SandboxRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      params: found.params,
      headers: req.headers,
      body,
      quirks,
    };
    const key = found.route.options.rateKey?.(request);
    if (key !== undefined && !this.allow(key)) {
      this.limited.set(key, (this.limited.get(key) ?? 0) + 1);
      return send(429, { success: false, error_code: 106, message: "You have reached the limit of requests" }, { "retry-after": "1" });
    }
    let result: RouteResult;
    try {
      result = await found.route.handler(request);
    } catch (error) {
      if (error instanceof Reply) result = error;
      else throw error;
    }
    if (fault?.kind === "reset") {
      res.socket?.destroy();
      return;
    }
    if (result instanceof Reply) return send(result.status, result.body, result.headers);
    return send(200, result);
  }

  private record(method: string, url: URL, body: unknown, requestId?: string): void {
    this.received++;
    const key = `${method} ${url.pathname}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const query: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) {
      query[k] ??= [];
      query[k].push(v);
    }
    const request = { method, path: url.pathname, query, body, at: Date.now(), requestId };
    this.requests.push(request);
    if (this.requests.length > this.options.keepRequests) this.requests.shift();
    for (const listener of this.listeners) listener(request);
  }

  private takeFault(method: string, path: string): Fault | undefined {
    const index = this.faults.findIndex(
      (f) =>
        (!f.method || f.method === method) &&
        (!f.path || (typeof f.path === "string" ? path.includes(f.path) : f.path.test(path))),
    );
    if (index < 0) return undefined;
    const fault = this.faults[index]!;
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0) this.faults.splice(index, 1);
    return fault;
  }

  /** Returns true when the fault answered (or dropped) the request; answers wait until `due`. */
  private async applyFault(fault: Fault, res: ServerResponse, due: number): Promise<boolean> {
    if (fault.kind === "latency") {
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 100));
      return false;
    }
    if (fault.kind !== "timeout") await until(due);
    switch (fault.kind) {
      case "status":
        write(res, fault.status ?? 500, fault.body ?? { success: false, message: "Internal server error" });
        return true;
      case "rate_limit":
        write(res, 429, { success: false, error_code: 106, message: "You have reached the limit of requests" }, {
          "retry-after": String(fault.retryAfterSeconds ?? 1),
        });
        return true;
      case "malformed":
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"success": true, "data": [{"id": ');
        return true;
      case "html":
        res.writeHead(fault.status ?? 502, { "content-type": "text/html" });
        res.end("<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>");
        return true;
      case "reset":
        res.socket?.destroy();
        return true;
      case "timeout":
        // Hold the request open; the socket is destroyed when the client gives up or on close().
        return true;
    }
  }

  private allow(key: string): boolean {
    const now = Date.now();
    const times = (this.windows.get(key) ?? []).filter((t) => t > now - 1000);
    if (times.length >= this.options.ratePerSecond) {
      this.windows.set(key, times);
      return false;
    }
    times.push(now);
    this.windows.set(key, times);
    return true;
  }
}

/** Resolves at `due` (Unix ms), at once when it is past. */
function until(due: number): Promise<void> {
  const wait = due - Date.now();
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
}

function write(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body instanceof Uint8Array) {
    res.writeHead(status, { "content-type": "application/octet-stream", "content-length": String(body.length), ...headers });
    res.end(body);
    return;
  }
  const text = JSON.stringify(body ?? {});
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(text);
}

/** One part of a multipart/form-data body. */
export interface FormPart {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer;
}

/** A multipart/form-data body as `{multipart: parts}`, or undefined when it does not parse. */
function parseMultipart(raw: Buffer, contentType: string): { multipart: FormPart[] } | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const mark = boundary?.[1] ?? boundary?.[2];
  if (!mark) return undefined;
  const delimiter = Buffer.from(`--${mark}`);
  const parts: FormPart[] = [];
  let at = raw.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (raw.subarray(start, start + 2).toString() === "--") return { multipart: parts };
    const next = raw.indexOf(delimiter, start);
    if (next < 0) return undefined;
    const part = raw.subarray(start + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) return undefined;
    const head = part.subarray(0, split).toString("utf8");
    const name = /name="([^"]*)"/.exec(head)?.[1];
    if (name === undefined) return undefined;
    parts.push({
      name,
      filename: /filename="([^"]*)"/.exec(head)?.[1],
      type: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim(),
      data: part.subarray(split + 4),
    });
    at = next;
  }
  return undefined;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
