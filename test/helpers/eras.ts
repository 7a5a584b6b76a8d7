import { type CallToolResult, Client, type ElicitResult, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio2025 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http2025 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CLI, cleanEnv, requireBuild, spawnHttp } from "./spawn.js";

/**
 * The clients the server must keep serving, by protocol generation: the 2025-era one is the v1 SDK's
 * client (what the Inspector and most hosts ran until 2026), the 2026-07-28 one is the v2 SDK's
 * pinned to that revision (no initialize: `_meta` on every request, input-required answers).
 */
export const ERAS = ["2025", "2026-07-28"] as const;
export type ClientEra = (typeof ERAS)[number];
export const TRANSPORTS = ["stdio", "HTTP"] as const;
export type TransportName = (typeof TRANSPORTS)[number];
/** Every client generation over every transport, for `describe.each`. */
export const MATRIX = ERAS.flatMap((era) => TRANSPORTS.map((transport) => ({ era, transport, label: `${era} client over ${transport}` })));

export interface Session {
  era: ClientEra;
  transport: TransportName;
  /**
   * The client. Both SDKs share the calls the tests make (list, call, read, get, complete) with one
   * argument each; typed as the v2 client for both. A call with options goes through `callTool`.
   */
  client: Client;
  /** tools/call with request options (a signal): the SDKs take them in different places. */
  callTool(params: { name: string; arguments?: Record<string, unknown> }, options: { signal?: AbortSignal }): Promise<CallToolResult>;
  /** What the user was asked (elicitation), in order. */
  asked: { message: string; schema: Record<string, unknown> }[];
  /** The user's answer to the next question. */
  answer: (message: string) => ElicitResult;
  /** stderr of the server process. */
  stderr(): string;
  /** A tool call as the model sees it: error flag, the text, the structured result. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary result shapes
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; text: string; data: any }>;
  close(): Promise<void>;
}

export interface SessionOptions {
  /** The bin's command-line arguments (after the bin; `--http --port 0` is added for HTTP). */
  args?: string[];
  env?: Record<string, string>;
  /** The client declares elicitation and answers with `session.answer`. */
  elicits?: boolean;
  /** HTTP request headers (a bearer token). */
  headers?: Record<string, string>;
}

/** Connects a client of `era` to the built bin over `transport` (a fresh process). */
export async function openSession(era: ClientEra, transport: TransportName, options: SessionOptions = {}): Promise<Session> {
  requireBuild();
  const env = cleanEnv(options.env);
  const args = options.args ?? [];
  const session = { asked: [], answer: () => ({ action: "accept" }) } as Pick<Session, "asked" | "answer">;
  const ask = (params: { message: string; requestedSchema: Record<string, unknown> }): ElicitResult => {
    session.asked.push({ message: params.message, schema: params.requestedSchema });
    return session.answer(params.message);
  };
  const capabilities = options.elicits ? { elicitation: { form: {} } } : {};
  let stderr = () => "";
  let stop = async () => {};
  let client: Client;
  if (era === "2025") {
    const v1 = new Client2025({ name: "e2e-2025", version: "1.0.0" }, { capabilities });
    if (options.elicits) v1.setRequestHandler(ElicitRequestSchema, (request) => ask(request.params as Parameters<typeof ask>[0]));
    client = v1 as unknown as Client;
  } else {
    client = new Client({ name: "e2e-2026", version: "1.0.0" }, { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    if (options.elicits) client.setRequestHandler("elicitation/create", (request) => ask(request.params as Parameters<typeof ask>[0]));
  }
  if (transport === "stdio") {
    const params = { command: process.execPath, args: [CLI, ...args], env, stderr: "pipe" as const };
    const wire = era === "2025" ? new Stdio2025(params) : new StdioClientTransport(params);
    let err = "";
    wire.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    stderr = () => err;
    await (client as unknown as { connect(t: unknown): Promise<void> }).connect(wire);
  } else {
    const server = await spawnHttp(args, options.env);
    stderr = server.stderr;
    stop = async () => void (await server.stop());
    const requestInit = { headers: options.headers ?? {} };
    const wire = era === "2025" ? new Http2025(new URL(server.url), { requestInit }) : new StreamableHTTPClientTransport(new URL(server.url), { requestInit });
    await (client as unknown as { connect(t: unknown): Promise<void> }).connect(wire);
  }
  return Object.assign(session, {
    era,
    transport,
    client,
    stderr,
    callTool(params: { name: string; arguments?: Record<string, unknown> }, requestOptions: { signal?: AbortSignal }) {
      // The v1 client takes a result schema before the options.
      const callV1 = client.callTool as unknown as (p: typeof params, schema: undefined, o: typeof requestOptions) => Promise<CallToolResult>;
      return era === "2025" ? callV1.call(client, params, undefined, requestOptions) : client.callTool(params, requestOptions);
    },
    async call(name: string, callArgs: Record<string, unknown> = {}) {
      const result = (await client.callTool({ name, arguments: callArgs })) as CallToolResult;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      return { isError: result.isError === true, text, data: result.structuredContent };
    },
    async close() {
      await client.close();
      await stop();
    },
  });
}
