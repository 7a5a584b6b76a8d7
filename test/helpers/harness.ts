import { afterAll, beforeAll } from "vitest";
import { type CallToolResult, Client, type ElicitResult, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createClients } from "../../src/clients/index.js";
import { type Config, makeConfig } from "../../src/config.js";
import { Logger } from "../../src/log.js";
import { Sandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { buildServer, type Era } from "../../src/server.js";
import { closeShopIndexes } from "../../src/shop-index/service.js";
import { TOOLSETS } from "../../src/toolsets.js";
import { type ContractRecorder, recordContract } from "../contract/recorder.js";
import { expectOutputContract } from "./output-contract.js";

export interface CallOutcome {
  isError: boolean;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary result shapes
  data: any;
}

export interface Harness {
  sandbox: Sandbox;
  client: Client;
  config: Config;
  logs: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallOutcome>;
  /** Checks every request upstream against the vendor's OpenAPI (test/contract/). */
  contractRecorder: ContractRecorder;
  /** Another client's session on the same server process (its clients, state and shop index); closed with the harness. */
  session(): Promise<Client>;
  /** Closes everything; fails when a request broke the vendor's contract. */
  close(): Promise<void>;
}

/**
 * The server in-process against a fresh sandbox, driven by the SDK's own MCP client over an
 * in-memory transport: the same protocol path as a 2025-era client on stdio, fast enough for every
 * tool test. `era: "modern"` speaks MCP 2026-07-28 instead, through the SDK's per-request HTTP
 * handler called in-process (a server built per request, as over HTTP).
 */
export async function startHarness(
  options: {
    config?: Partial<Config>;
    sandbox?: SandboxOptions;
    /** Another harness's sandbox, started and closed by it: two servers, one upstream. */
    shared?: Sandbox;
    credentials?: boolean;
    /** Configure the sandbox pages' call-centre ids, as the demo does (PANCAKE_CALL_CENTER_IDS). */
    callCenters?: boolean;
    /** The user's answer to a confirmation: with it, the client declares elicitation and answers so. */
    elicit?: (message: string) => ElicitResult;
    /** The protocol generation the client speaks (default the 2025 one, over a session). */
    era?: Era;
  } = {},
): Promise<Harness> {
  const sandbox = options.shared ?? new Sandbox(options.sandbox);
  const urls = options.shared ? sandbox.started : await sandbox.start();
  const contract = recordContract(sandbox);
  const creds = options.credentials ?? true;
  const config = makeConfig({
    baseUrl: urls.messagingBaseUrl,
    posBaseUrl: urls.posBaseUrl,
    toolsets: [...TOOLSETS],
    ...(creds
      ? { accessToken: sandbox.credentials.userToken, posApiKeys: { "*": sandbox.credentials.posApiKey } }
      : {}),
    ...(options.callCenters ? { callCenterIds: { ...sandbox.messaging.sipPackages } } : {}),
    // Every answer brings the index up to date: tests change the sandbox between calls.
    index: { mode: "memory", refreshSeconds: 0, maxRows: 300_000, preload: false },
    ...options.config,
  });
  const logs: string[] = [];
  const logger = new Logger("debug", false);
  logger.addSink((level, line) => logs.push(`${level}: ${line}`));
  const clients = createClients(config, logger);
  const { elicit } = options;
  const client = new Client(
    { name: "pancake-test", version: "1.0.0" },
    {
      ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
      ...(options.era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
    },
  );
  if (elicit) client.setRequestHandler("elicitation/create", (request) => elicit(request.params.message));
  let closeServer: () => Promise<void>;
  if (options.era === "modern") {
    const handler = createMcpHandler(() => buildServer({ config, clients, logger, era: "modern" }));
    await client.connect(new StreamableHTTPClientTransport(new URL("http://harness.invalid/mcp"), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
    closeServer = handler.close;
  } else {
    const server = buildServer({ config, clients, logger, forwardLogs: true });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    closeServer = () => server.close();
  }
  const sessions: (() => Promise<void>)[] = [];
  return {
    sandbox,
    client,
    config,
    logs,
    async session() {
      const server = buildServer({ config, clients, logger });
      const other = new Client({ name: "pancake-test-2", version: "1.0.0" });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await server.connect(serverTransport);
      await other.connect(clientTransport);
      sessions.push(async () => {
        await other.close();
        await server.close();
      });
      return other;
    },
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      if (!result.isError) expectOutputContract(name, text);
      return { isError: result.isError === true, text, data: result.structuredContent };
    },
    contractRecorder: contract,
    async close() {
      for (const end of sessions) await end();
      await client.close();
      await closeServer();
      await closeShopIndexes();
      await clients.close();
      if (!options.shared) await sandbox.close();
      const violations = contract.violations();
      if (violations.length) throw new Error(`requests the vendor's OpenAPI does not allow:\n${violations.join("\n")}`);
    },
  };
}

/**
 * One harness for a test file: started before its tests, closed after. Returns a stand-in that
 * forwards to the harness once it is running.
 */
export function useHarness(options: Parameters<typeof startHarness>[0] = {}): Harness {
  let current: Harness | undefined;
  beforeAll(async () => {
    current = await startHarness(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as Harness, {
    get(_target, key) {
      if (!current) throw new Error("the harness starts in beforeAll; use it inside a test");
      const value = current[key as keyof Harness];
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}

/**
 * A harness whose client accepts every confirmation, and the dialogs it was shown, in order: for
 * tests of what a confirmed write asks and sends.
 */
export function useAcceptingHarness(): { h: Harness; asked: string[] } {
  const asked: string[] = [];
  const h = useHarness({
    sandbox: { ratePerSecond: 10_000 },
    elicit: (message) => {
      asked.push(message);
      return { action: "accept" };
    },
  });
  return { h, asked };
}
