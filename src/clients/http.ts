import type { Dispatcher } from "undici";
import { silentLogger, type Logger } from "../log.js";
import {
  type Api,
  BadResponseError,
  cancelledByClient,
  InputError,
  NetworkError,
  OutcomeUnknownError,
  PancakeError,
  ResponseTooLargeError,
  UpstreamError,
} from "./errors.js";
import { clock, RateLimiter, type Slot } from "./limiter.js";
import { LIMIT_WINDOW_MS } from "../state/memory.js";
import { onAbort, pause } from "./on-abort.js";
import { timeTrip } from "./round-trip.js";
import type { Limiter } from "../state/scope.js";
import { sanitizeText } from "../text/sanitize.js";
import { registerSecret, SECRET_PARAMS } from "../text/redact.js";

const SECRET_PARAM_SET: ReadonlySet<string> = new Set(SECRET_PARAMS);

export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | readonly QueryScalar[] | Record<string, unknown> | null | undefined;

export interface RequestOptions {
  /** Operation name used in every error and log line, e.g. "list conversations". */
  op: string;
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** Path below the base URL; build it with pathOf() so ids cannot change it. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Credentials that travel in the query string (access_token, page_access_token, api_key). */
  auth?: Record<string, string>;
  /** JSON, or bytes sent as they are (give their content-type in `headers`). */
  body?: unknown;
  /** Requests sharing a key share the rate limit (the page id for the page-token API). */
  rateKey?: string;
  /** Writes are never retried. Defaults to true for every method but GET. */
  write?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (the messaging API repeats page_id in a header on some routes). */
  headers?: Record<string, string>;
  /**
   * What a successful answer must carry (see listIn). One without it is an upstream fault, not an
   * empty success: a read is retried, then fails clearly; a write's outcome is unknown.
   */
  expect?: (json: unknown) => boolean;
}

/** An answer that carries a list under one of these names. */
export const listIn =
  (...names: string[]) =>
  (json: unknown): boolean =>
    isRecord(json) && names.some((name) => Array.isArray(json[name]));

export interface RetryPolicy {
  /** Total tries of a read, first one included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Reads give up once this much time has passed since the first try. */
  budgetMs: number;
}

export interface HttpCoreOptions {
  baseUrl: string;
  /** Which API this core talks to, so error hints name that API's own setting. */
  api?: Api;
  connectTimeoutMs?: number;
  /** Time for one try from sending to the last byte of the body. */
  responseTimeoutMs?: number;
  /** Largest response body read; a larger one is abandoned and never retried. */
  maxResponseBytes?: number;
  retry?: Partial<RetryPolicy>;
  /** Calls per second per rateKey; 0 disables the limiter. */
  ratePerSecond?: number;
  /** The limiter to use instead (a tenant's, in memory or shared through Redis). */
  limiter?: Limiter;
  /** A pool to use (or one made on first use) instead of this core's own. */
  dispatcher?: Dispatcher | (() => Promise<Dispatcher>);
  logger?: Logger;
}

/** Follows the rate-limit queue: waiting requests and their wait (src/metrics.ts sets it when /metrics is on). */
export const limiterEvents: { queued?: (api: string, delta: number) => void; waited?: (api: string, ms: number) => void } = {};

/** Counts upstream answers by API and status (src/metrics.ts sets it when /metrics is on). */
export const upstreamEvents: { observe?: (api: string, status: string, ms: number) => void } = {};

// undici is a megabyte of code that no start-up step needs: it loads with the first request.
let undici: Promise<typeof import("undici")> | undefined;
// A bundled CommonJS module arrives as its `default` export.
export const loadUndici = () =>
  (undici ??= import("undici").then((m) => (m.Agent ? m : (m as unknown as { default: typeof m }).default)));

/** A keep-alive pool for the upstreams: 64 connections per origin, timeouts as configured. */
function newAgent(timeouts: { connectTimeoutMs: number; responseTimeoutMs: number }): Promise<Dispatcher> {
  return loadUndici().then(
    ({ Agent }) =>
      new Agent({
        connect: { timeout: timeouts.connectTimeoutMs },
        headersTimeout: timeouts.responseTimeoutMs,
        bodyTimeout: timeouts.responseTimeoutMs,
        keepAliveTimeout: 30_000,
        connections: 64,
      }),
  );
}

/** One pool for many cores (every tenant's), made on first use; `close` ends it at once. */
export function sharedPool(timeouts: { connectTimeoutMs: number; responseTimeoutMs: number }): {
  get: () => Promise<Dispatcher>;
  close: () => Promise<void>;
} {
  let pool: Promise<Dispatcher> | undefined;
  return {
    get: () => (pool ??= newAgent(timeouts)),
    close: async () => {
      if (pool) await (await pool).destroy();
    },
  };
}

/** A failure that may pass if the read is tried again later: a refusal for the rate, a server fault, no answer (a cancel is none). */
export function isTransient(error: unknown): boolean {
  const transient =
    error instanceof NetworkError ||
    error instanceof BadResponseError ||
    (error instanceof UpstreamError && (error.code === 106 || (error.status !== undefined && (error.status === 429 || error.status >= 500))));
  return transient && !(error instanceof NetworkError && /cancelled/.test(error.message));
}

const isRateLimited = (error: unknown) => error instanceof UpstreamError && (error.status === 429 || error.code === 106);

export const defaultRetry: RetryPolicy = { attempts: 3, baseDelayMs: 250, maxDelayMs: 4000, budgetMs: 15_000 };

/** Encodes every interpolated value as one path segment, so no id can add `/`, `?`, `#` or `..`. */
export function pathOf(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0]!;
  values.forEach((value, i) => {
    const text = String(value);
    if (text === "" || text === "." || text === ".." || /[\u0000-\u001f]/.test(text)) {
      throw new InputError(undefined, `invalid id ${JSON.stringify(text.slice(0, 40))} in a request path`);
    }
    out += encodeURIComponent(text) + strings[i + 1]!;
  });
  return out;
}

/** The one request core for both upstreams: auth, redaction, timeouts, retries, limits, errors. */
export class HttpCore {
  readonly baseUrl: string;
  private readonly api: Api | undefined;
  private dispatcher: Promise<Dispatcher> | undefined;
  private readonly sharedPool: (() => Promise<Dispatcher>) | undefined;
  private readonly ownsDispatcher: boolean;
  private readonly agentOptions: { connectTimeoutMs: number; responseTimeoutMs: number };
  private readonly maxResponseBytes: number;
  private readonly retry: RetryPolicy;
  private readonly limiter: Limiter | undefined;
  private readonly logger: Logger;

  constructor(options: HttpCoreOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.api = options.api;
    this.retry = { ...defaultRetry, ...options.retry };
    this.logger = options.logger ?? silentLogger;
    this.limiter = options.limiter ?? (options.ratePerSecond ? new RateLimiter(options.ratePerSecond, LIMIT_WINDOW_MS) : undefined);
    this.ownsDispatcher = !options.dispatcher;
    const given = options.dispatcher;
    this.sharedPool = typeof given === "function" ? given : given ? () => Promise.resolve(given) : undefined;
    this.agentOptions = {
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      responseTimeoutMs: options.responseTimeoutMs ?? 30_000,
    };
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** The keep-alive pool of this upstream, created with the first request. */
  private pool(): Promise<Dispatcher> {
    this.dispatcher ??= this.sharedPool ? this.sharedPool() : newAgent(this.agentOptions);
    return this.dispatcher;
  }

  /**
   * Ends the pool at once, failing what is still in flight: close() would wait for every pending
   * answer, and an upstream that trickles its body would then hold shutdown for as long as it likes.
   */
  async close(): Promise<void> {
    if (this.ownsDispatcher && this.dispatcher) await (await this.dispatcher).destroy();
  }

  /** Builds the full URL. The only place credentials are put into a URL. */
  url(options: Pick<RequestOptions, "path" | "query" | "auth">): URL {
    const url = new URL(this.baseUrl + options.path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      // A credential goes in only through `auth`: no query built from arguments or cursors can add one.
      if (!SECRET_PARAM_SET.has(key.toLowerCase())) appendQuery(url, key, value);
    }
    for (const [key, value] of Object.entries(options.auth ?? {})) {
      // Any credential that reaches a URL is also scrubbed from upstream text that echoes it.
      registerSecret(value);
      url.searchParams.set(key, value);
    }
    return url;
  }

  /** The signal of the call this core serves (a per-call view answers it; see call-signal.ts). */
  readonly signal: AbortSignal | undefined = undefined;
  /** The id of the MCP request this core serves, sent upstream as X-Request-Id (a per-call view answers it). */
  readonly requestId: string | undefined = undefined;

  async request<T = unknown>(call: RequestOptions): Promise<T> {
    const signal = call.signal ?? this.signal;
    const options = signal === call.signal ? call : { ...call, signal };
    const method = options.method ?? "GET";
    const write = options.write ?? method !== "GET";
    const url = this.url(options);
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let slot: Slot | undefined;
      try {
        if (this.limiter && options.rateKey) slot = await this.acquire(this.limiter, options.rateKey, options.signal);
        return await this.once<T>(options, method, write, url, slot);
      } catch (error) {
        // The page's next requests count from their answers for a while (limiter.ts): the estimate
        // of when they arrive was wrong for this one, or the page is busy from elsewhere.
        if (isRateLimited(error)) slot?.refused();
        // A try that failed without an answer may still have reached the upstream: it counts from now.
        slot?.arrived();
        const delay = write ? undefined : this.retryDelay(error, attempt, started);
        if (delay === undefined) throw error;
        this.logger.debug(`${options.op}: retry ${attempt} in ${delay} ms after ${(error as Error).message}`);
        await pause(delay, options.signal, cancelledByClient);
      }
    }
  }

  private async acquire(limiter: Limiter, key: string, signal: AbortSignal | undefined): Promise<Slot> {
    const { queued, waited } = limiterEvents;
    if (!queued || !waited) return limiter.acquire(key, signal);
    const api = this.api ?? "other";
    const started = performance.now();
    queued(api, 1);
    try {
      return await limiter.acquire(key, signal);
    } finally {
      queued(api, -1);
      waited(api, performance.now() - started);
    }
  }

  private async once<T>(options: RequestOptions, method: string, write: boolean, url: URL, slot?: Slot): Promise<T> {
    // undici's body timeout is the longest pause between two chunks: an upstream sending a byte a
    // second never trips it. This deadline covers the whole try, from sending to the last byte.
    // One timer and one listener per try (AbortSignal.timeout/any cost several times more per call).
    const abort = new AbortController();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      abort.abort();
    }, this.agentOptions.responseTimeoutMs);
    const cancel = () => abort.abort();
    const { signal } = options;
    if (signal?.aborted) {
      clearTimeout(timer);
      throw cancelledByClient();
    }
    // A write once sent is never cut off: a cancel then could leave it half-sent or applied unseen,
    // so it runs to its answer (logged when nobody waits for it any more).
    const forget = signal && !write ? onAbort(signal, cancel) : undefined;
    try {
      const answer = await this.receive<T>(options, method, write, url, abort.signal, () => expired, slot);
      if (write && signal?.aborted) this.logger.warn(`${options.op}: done upstream after the call was cancelled (it had been sent)`);
      return answer;
    } finally {
      clearTimeout(timer);
      forget?.();
    }
  }

  private async receive<T>(
    options: RequestOptions,
    method: string,
    write: boolean,
    url: URL,
    signal: AbortSignal,
    expired: () => boolean,
    slot?: Slot,
  ): Promise<T> {
    const { op } = options;
    const t0 = Date.now();
    const failed = (error: unknown, sent: boolean) =>
      expired()
        ? this.transportError(op, Object.assign(new Error("deadline"), { code: sent ? "UND_ERR_BODY_TIMEOUT" : "UND_ERR_HEADERS_TIMEOUT" }), write, sent)
        : this.transportError(op, error, write, sent);
    let response: Dispatcher.ResponseData;
    let arrival: (answered: number) => number;
    try {
      const pool = await this.pool();
      arrival = timeTrip(url.origin);
      response = await this.send(pool, options, method, url, signal);
    } catch (error) {
      upstreamEvents.observe?.(this.api ?? "other", "error", Date.now() - t0);
      throw failed(error, false);
    }
    // The answer has begun, so the request reached the upstream by now at the latest. A write
    // counts from then (it is never tried again, so it must never meet a 429); a read from when
    // it most likely arrived (one that meets a 429 all the same is tried again).
    const answered = clock();
    const likely = arrival(answered);
    slot?.arrived(answered, write ? undefined : likely);
    const status = response.statusCode;
    upstreamEvents.observe?.(this.api ?? "other", String(status), Date.now() - t0);
    let text: string;
    try {
      text = await readCapped(response, this.maxResponseBytes);
    } catch (error) {
      if (!(error instanceof ResponseTooLargeError)) throw failed(error, true);
      // A write answered with success and a body too large to read most likely took effect.
      throw write && status < 300 ? new OutcomeUnknownError(op, `HTTP ${status} with an answer over ${this.maxResponseBytes} bytes`) : error.at(op);
    }
    if (this.logger.logs("debug")) this.logger.debug(`${method} ${url.pathname}${url.search} -> ${status} in ${Date.now() - t0} ms`);
    // Redirects are not followed (a credential in the query would travel to wherever they point),
    // and an answer without a body confirms nothing: neither is a success.
    if (status >= 300 && status < 400) throw unconfirmed(op, write, status, `a redirect${redirectTarget(response.headers.location)}`);
    if (status < 300 && text.trim() === "") throw unconfirmed(op, write, status, "an empty answer");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      if (status >= 400) throw upstreamFromStatus(op, this.api, status, response.headers, undefined, snippet(text), write);
      // A write answered with success but an unreadable body most likely took effect.
      if (write) throw new OutcomeUnknownError(op, `HTTP ${status} with a body that is not valid JSON`);
      throw new BadResponseError(op, status, `a body that is not valid JSON: ${JSON.stringify(snippet(text))}`);
    }
    if (status >= 400) throw upstreamFromStatus(op, this.api, status, response.headers, json, undefined, write);
    if (isRecord(json) && json.success === false) throw upstreamFromBody(op, this.api, status, json);
    // Every answer of both APIs is a JSON object; `null`, `[]` or `"ok"` confirms no write.
    if (write && !isRecord(json)) throw unconfirmed(op, write, status, "an answer that is not a JSON object");
    if (options.expect && !options.expect(json)) throw unconfirmed(op, write, status, "an answer without the data it should carry");
    return json as T;
  }

  private send(dispatcher: Dispatcher, options: RequestOptions, method: string, url: URL, signal: AbortSignal) {
    return dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: method as Dispatcher.HttpMethod,
      headers: {
        accept: "application/json",
        ...(options.body === undefined || options.body instanceof Uint8Array ? {} : { "content-type": "application/json" }),
        ...(this.requestId === undefined ? {} : { "x-request-id": this.requestId }),
        ...options.headers,
      },
      // Bytes (a multipart upload, its content-type in `headers`) go as they are.
      body: options.body === undefined || options.body instanceof Uint8Array ? options.body : JSON.stringify(options.body),
      signal,
    });
  }

  private transportError(op: string, error: unknown, write: boolean, sent: boolean): PancakeError {
    if (error instanceof PancakeError) return error;
    const err = error as { code?: string; name?: string; message?: string };
    const code = err.code ?? err.name ?? "error";
    if (err.name === "AbortError") return new NetworkError(op, "network", "cancelled by the client");
    const notSent = !sent && ["UND_ERR_CONNECT_TIMEOUT", "ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"].includes(code);
    if (write && !notSent) return new OutcomeUnknownError(op, code);
    const timeout = ["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"].includes(code);
    return new NetworkError(
      op,
      timeout ? "timeout" : "network",
      code,
      write ? "Nothing was sent; it is safe to try again." : "The service did not answer; try again in a moment.",
    );
  }

  /** Milliseconds to wait before the next try of a read, or undefined to give up. */
  private retryDelay(error: unknown, attempt: number, started: number): number | undefined {
    if (attempt >= this.retry.attempts || !isTransient(error)) return undefined;
    const backoff = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    const jittered = backoff / 2 + Math.random() * (backoff / 2);
    const delay = Math.round(Math.max(jittered, (error as UpstreamError).retryAfterMs ?? 0));
    return Date.now() - started + delay > this.retry.budgetMs ? undefined : delay;
  }
}

/** 8 MB: a page of 100 full orders is about 0.5 MB; nothing the tools read comes near it. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8_000_000;

/** The body as text, abandoned (and the connection dropped) once it passes `max` bytes. */
async function readCapped(response: Dispatcher.ResponseData, max: number): Promise<string> {
  const declared = Number(response.headers["content-length"]);
  const tooLarge = () => {
    response.body.destroy();
    return new ResponseTooLargeError(max);
  };
  if (declared > max) throw tooLarge();
  // A declared length within the cap is held to by undici (a longer body is an error): read it at once.
  if (declared >= 0) return response.body.text();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > max) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

/**
 * A 2xx/3xx answer that does not carry what a success must: a write's outcome is unknown (it may
 * have been applied), a read's answer is an upstream fault (a read retries a 2xx one).
 */
function unconfirmed(op: string, write: boolean, status: number, what: string): PancakeError {
  if (write) return new OutcomeUnknownError(op, `HTTP ${status} with ${what}`);
  if (status < 300) return new BadResponseError(op, status, what);
  return new UpstreamError({
    op,
    status,
    upstreamMessage: what,
    hint: "The API answered with a redirect, which this server does not follow: check PANCAKE_BASE_URL / PANCAKE_POS_BASE_URL.",
  });
}

/** Where a redirect points, without its query (which could carry a credential). */
function redirectTarget(location: string | string[] | undefined): string {
  const value = Array.isArray(location) ? location[0] : location;
  if (!value) return "";
  try {
    const target = new URL(value, "http://relative.invalid");
    return ` to ${target.host === "relative.invalid" ? "" : target.host}${target.pathname}`.slice(0, 160);
  } catch {
    return "";
  }
}

function appendQuery(url: URL, key: string, value: QueryValue): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) url.searchParams.append(key, String(item));
  } else if (typeof value === "object") {
    url.searchParams.set(key, JSON.stringify(value));
  } else {
    url.searchParams.set(key, String(value));
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Upstream text for an error message: outside text like any other, on one line, short. */
function outsideText(value: unknown, max: number): string | undefined {
  return sanitizeText(value, { max })?.replace(/\s+/g, " ");
}

function snippet(text: string): string {
  return outsideText(text.replace(/<[^>]*>/g, " "), 120) ?? "";
}

function scalar(value: unknown): string | number | undefined {
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

function bodyDetails(body: Record<string, unknown>) {
  const message = scalar(body.message) ?? scalar(body.error) ?? scalar(body.error_message);
  const short = (value: unknown) => (typeof value === "string" ? outsideText(value, 40) : (value as number | undefined));
  return {
    code: short(scalar(body.error_code) ?? scalar(body.e_code) ?? scalar(body.code)),
    subcode: short(scalar(body.e_subcode)),
    upstreamMessage: outsideText(message, 300),
    permission: outsideText(scalar(body.permission), 80),
  };
}

function upstreamFromBody(op: string, api: Api | undefined, status: number, body: Record<string, unknown>): UpstreamError {
  return new UpstreamError({ op, api, status: status === 200 ? undefined : status, ...bodyDetails(body) });
}

function upstreamFromStatus(
  op: string,
  api: Api | undefined,
  status: number,
  headers: Dispatcher.ResponseData["headers"],
  body: unknown,
  text?: string,
  write = false,
): UpstreamError {
  const details = isRecord(body) ? bodyDetails(body) : { upstreamMessage: text || undefined };
  // A server failure can come after the change was stored: repeating the write could double it.
  const hint = write && status >= 500 ? WRITE_FAILED_HINT : undefined;
  return new UpstreamError({ op, api, status, ...details, retryAfterMs: parseRetryAfter(headers["retry-after"]), hint });
}

const WRITE_FAILED_HINT =
  "The service failed while handling the change, which may or may not have been applied: check (read it back) before retrying.";

export function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
