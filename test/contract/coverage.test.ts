import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClients } from "../../src/clients/index.js";
import { makeConfig } from "../../src/config.js";
import { Logger } from "../../src/log.js";
import { Sandbox } from "../../src/sandbox/index.js";
import { buildServer } from "../../src/server.js";
import { CURATED, NEVER } from "../../src/tools/api/curated.js";
import { allTools, selectTools } from "../../src/tools/index.js";
import { TOOLSETS } from "../../src/toolsets.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { expectOutputContract } from "../helpers/output-contract.js";
import { type ContractRecorder, INDEX, recordContract } from "./recorder.js";
import { pageTokenSends, richCalls } from "./rich-calls.js";
import { sampleCall } from "./samples.js";

const AVATAR = "messaging GET /v1/pages/{page_id}/avatar/{psid}";
const API_TOOLS = new Set(["find_api_operations", "call_api_read", "call_api_write"]);

/**
 * Every operation of both OpenAPI files, the older POS document and both seed specs is reached:
 * by a curated tool (recorded, tool by tool, each on a server of its own so no cache hides a
 * request) or else through the api tools, each call checked against the contract and answered.
 */
describe("every documented operation is reachable", () => {
  let sandbox: Sandbox;
  let recorder: ContractRecorder;
  const curated = new Map<string, Set<string>>();
  const viaApi = new Set<string>();

  /** Calls one tool on a server of its own (fresh clients, so fresh caches) against the shared sandbox. */
  async function callFresh(name: string, args: Record<string, unknown>, pageTokensOnly = false) {
    const urls = sandbox.started;
    const config = makeConfig({
      baseUrl: urls.messagingBaseUrl,
      posBaseUrl: urls.posBaseUrl,
      toolsets: [...TOOLSETS],
      posApiKeys: { "*": sandbox.credentials.posApiKey },
      ...(pageTokensOnly ? { pageAccessTokens: sandbox.credentials.pageTokens } : { accessToken: sandbox.credentials.userToken }),
    });
    const logger = new Logger("error", false);
    const clients = createClients(config, logger);
    const server = buildServer({ config, clients, logger, forwardLogs: false });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "coverage", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      if (!result.isError) expectOutputContract(name, text);
      return { isError: result.isError === true, text };
    } finally {
      await client.close();
      await server.close();
      await clients.close();
    }
  }

  beforeAll(async () => {
    sandbox = new Sandbox({ ratePerSecond: 100_000 });
    await sandbox.start();
    recorder = recordContract(sandbox);
    // Arguments are read from the sandbox just before each call: earlier writes change it.
    const calls: (readonly [string, (s: Sandbox) => Record<string, unknown>, boolean])[] = [
      ...allTools.filter((t) => !API_TOOLS.has(t.name)).map((t) => [t.name, (s: Sandbox) => argsFor(t.name, s), false] as const),
      ...richCalls.map(([name, args]) => [name, args, false] as const),
      ...pageTokenSends.map(([name, args]) => [name, args, true] as const),
    ];
    for (const [name, args, pageTokensOnly] of calls) {
      recorder.takeReached();
      const r = await callFresh(name, args(sandbox), pageTokensOnly);
      if (r.isError) throw new Error(`${name} failed: ${r.text}`);
      for (const id of recorder.takeReached()) {
        if (!curated.has(id)) curated.set(id, new Set());
        curated.get(id)!.add(name);
      }
    }
  }, 120_000);
  afterAll(async () => {
    recorder.stop();
    await sandbox.close();
  });

  it("the api tools' map of curated writes is what the curated tools send", () => {
    const writes = [...curated].filter(([id]) => !id.split(" ")[1]!.startsWith("GET")).sort(([a], [b]) => a.localeCompare(b));
    const toolset = (name: string) => allTools.find((t) => t.name === name)!.toolset;
    const sent = Object.fromEntries(writes.map(([id, tools]) => [id, [...tools].sort().map((name) => [name, toolset(name)])]));
    expect(CURATED, `src/tools/api/curated.ts CURATED should be:\n${JSON.stringify(sent, null, 2)}`).toEqual(sent);
    for (const id of Object.keys(NEVER)) expect(curated.has(id), id).toBe(true);
  });

  it.each(INDEX.operations.map((op) => op.id))("%s", async (id) => {
    if (curated.has(id)) return;
    const op = INDEX.operations.find((o) => o.id === id)!;
    const tool = op.method === "GET" ? "call_api_read" : "call_api_write";
    recorder.takeReached();
    const r = await callFresh(tool, sampleCall(op, sandbox));
    expect(r.isError, r.text).toBe(false);
    expect(recorder.take().join("\n")).toBe("");
    if (id === AVATAR) expect(JSON.parse(r.text).result.avatar_url).toMatch(/\/api\/v1\/pages\/\d+\/avatar\//);
    else expect([...recorder.takeReached()]).toContain(id);
    viaApi.add(id);
  });

  it("leaves no operation out", () => {
    const reached = new Set([...curated.keys(), ...viaApi]);
    expect(INDEX.operations.map((op) => op.id).filter((id) => !reached.has(id))).toEqual([]);
  });

  it("registers no api write under --read-only", () => {
    const names = selectTools(makeConfig({ toolsets: ["api"], readOnly: true })).map((t) => t.name);
    expect(names).toEqual(["find_api_operations", "call_api_read"]);
  });
});
