import { request as httpRequest } from "node:http";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request where every header, Host included, is the caller's to set (an attacker's view). */
export function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; path?: string } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname.replace(/^\[|\]$/g, ""),
        port: target.port,
        path: options.path ?? target.pathname,
        method: options.method ?? "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...options.headers },
      },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A JSON-RPC body for a raw POST. */
export const rpc = (id: number, method: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

export const INITIALIZE = rpc(1, "initialize", {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "raw", version: "1" },
});

/** The JSON-RPC message of a stateless answer (plain JSON or one SSE event). */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary result shapes
export function rpcMessage(body: string): any {
  const data = /^data: (.+)$/m.exec(body)?.[1] ?? body;
  return JSON.parse(data);
}

/** The `_meta` a 2026-07-28 request carries instead of an initialize: the revision, the client and its capabilities. */
export const modernMeta = (capabilities: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

/** A 2026-07-28 JSON-RPC body: the request with its `_meta`. */
export const modernRpc = (id: number, method: string, params: Record<string, unknown> = {}, capabilities?: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: modernMeta(capabilities) } });

/** The headers a 2026-07-28 request repeats over HTTP (SEP-2243): the revision, the method and the name it acts on. */
export const modernHeaders = (method: string, name?: string): Record<string, string> => ({
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name }),
});
