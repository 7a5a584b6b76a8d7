import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { Client, type JSONRPCMessage, ReadBuffer, serializeMessage, type Transport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { allTools } from "../../src/tools/index.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";

// Sentinels survive URL encoding unchanged, so an encoded leak is caught too.
const USER_TOKEN = "SENTINELuser7f3a9c0d2b";
const POS_API_KEY = "SENTINELpos41bd2e9a77";
const PAGE_TOKEN_PREFIX = "SENTINELpage5c8e1f";

/** The SDK's stdio framing over the spawned bin, keeping every raw byte the server writes. */
class RecordingStdio implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly buffer = new ReadBuffer();
  private readonly out: Buffer[] = [];
  private readonly err: Buffer[] = [];

  constructor(
    private readonly args: string[],
    private readonly env: Record<string, string>,
  ) {}

  get stdout(): string {
    return Buffer.concat(this.out).toString("utf8");
  }
  get stderr(): string {
    return Buffer.concat(this.err).toString("utf8");
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, this.args, { env: this.env, stdio: ["pipe", "pipe", "pipe"] });
    this.child = child;
    child.stdout.on("data", (chunk: Buffer) => {
      this.out.push(chunk);
      this.buffer.append(chunk);
      try {
        for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => this.err.push(chunk));
    child.on("error", (error) => this.onerror?.(error));
    child.on("close", () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child?.stdin.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGTERM"), 2_000);
    await exited;
    clearTimeout(timer);
  }
}

describe("secrets: the built server over stdio never shows a token or key", () => {
  let sandbox: Sandbox;
  let transport: RecordingStdio;
  let client: Client;
  const seen: { where: string; text: string }[] = [];
  const logs: string[] = [];
  const record = (where: string, value: unknown) => seen.push({ where, text: typeof value === "string" ? value : JSON.stringify(value) });

  beforeAll(async () => {
    requireBuild();
    sandbox = new Sandbox({
      ratePerSecond: 10_000,
      credentials: { userToken: USER_TOKEN, posApiKey: POS_API_KEY, pageTokenPrefix: PAGE_TOKEN_PREFIX },
    });
    const urls = await sandbox.start();
    transport = new RecordingStdio(
      [CLI, "--toolsets", "all", "--log-level", "debug"],
      cleanEnv({
        PANCAKE_BASE_URL: urls.messagingBaseUrl,
        PANCAKE_POS_BASE_URL: urls.posBaseUrl,
        PANCAKE_ACCESS_TOKEN: USER_TOKEN,
        PANCAKE_POS_API_KEY: POS_API_KEY,
      }),
    );
    client = new Client({ name: "secrets-test", version: "1.0.0" });
    client.setNotificationHandler("notifications/message", (n) => {
      logs.push(JSON.stringify(n.params));
    });
    await client.connect(transport);
    await client.setLoggingLevel("debug");
  }, 20_000);

  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  async function call(name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args });
    record(`tool ${name}`, result);
    return result;
  }

  it("runs every tool's fixture call", async () => {
    for (const tool of allTools) {
      const result = await call(tool.name, argsFor(tool.name, sandbox));
      expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
    }
  }, 30_000);

  it("runs failing calls: bad arguments and upstream errors that echo the credentials", async () => {
    const pageId = sandbox.messaging.pages[0]!.id;
    const pageToken = sandbox.credentials.pageTokens[pageId]!;
    for (const [name, args] of [
      ["list_conversations", { page_ids: "../../v1/pages" }],
      ["list_messages", { page_id: pageId }],
      ["get_order", { order_id: "1?api_key=x" }],
      ["create_transaction", { amount: "lots" }],
      ["lookup_address", { limit: "many" }],
    ] as const) {
      const result = await call(name, args);
      expect(result.isError, name).toBe(true);
    }
    const echoes = [
      { path: /\/conversations$/, status: 500, body: { success: false, message: `token ${pageToken} rejected` } },
      { path: /\/conversations$/, status: 200, body: { success: false, error_code: 102, message: `Invalid access_token=${pageToken}` } },
      { path: /^\/api\/v1\/pages$/, status: 401, body: { success: false, message: `expired: ${USER_TOKEN}` } },
      { path: /\/orders$/, status: 403, body: { success: false, error_code: 105, message: `api_key ${POS_API_KEY} is invalid` } },
      { path: /\/customers$/, status: 400, body: { success: false, error: "invalid_parameters", message: `?api_key=${POS_API_KEY}&x=1` } },
    ];
    const calls: Record<string, string> = {
      conversations: "list_conversations",
      pages: "list_pages",
      orders: "search_orders",
      customers: "search_customers",
    };
    for (const echo of echoes) {
      sandbox.server.injectFault({ kind: "status", method: "GET", ...echo, times: Number.POSITIVE_INFINITY });
      const name = Object.entries(calls).find(([key]) => echo.path.source.includes(key))![1];
      const result = await call(name, argsFor(name, sandbox));
      sandbox.server.clearFaults();
      expect(result.isError, name).toBe(true);
      // The echo reached the server and was scrubbed, not merely dropped.
      expect(JSON.stringify(result.content), name).toContain("[redacted]");
    }
    // The page list is refused a token: the client reads a fresh one and goes on.
    const after = await call("list_conversations", argsFor("list_conversations", sandbox));
    expect(after.isError).toBeFalsy();
  }, 30_000);

  it("reads every resource and template with real ids", async () => {
    const { resources } = await client.listResources();
    record("resources/list", resources);
    const { resourceTemplates } = await client.listResourceTemplates();
    record("resources/templates/list", resourceTemplates);
    const province = sandbox.pos.geo.provinces[0]!;
    const district = sandbox.pos.geo.districts.find((d) => d.province_id === province.id)!;
    const filled = resourceTemplates.map((t) =>
      t.uriTemplate
        .replace("{page_id}", sandbox.messaging.pages[0]!.id)
        .replace("{province_id}", String(province.id))
        .replace("{district_id}", String(district.id))
        .replace("{table}", "orders"),
    );
    const uris = [...new Set([...resources.map((r) => r.uri), ...filled])];
    expect(uris.some((u) => u.includes("{"))).toBe(false);
    for (const uri of uris) {
      const read = await client.readResource({ uri });
      record(`resource ${uri}`, read);
      expect(read.contents.length, uri).toBeGreaterThan(0);
    }
  }, 30_000);

  it("gets every prompt with valid arguments", async () => {
    const { prompts } = await client.listPrompts();
    record("prompts/list", prompts);
    const pageId = sandbox.messaging.pages[0]!.id;
    const customer = sandbox.pos.customers.find((c) => c.phone_numbers.length > 0)!;
    const args: Record<string, Record<string, string>> = {
      draft_customer_reply: { page_id: pageId, conversation_id: argsFor("list_messages", sandbox).conversation_id as string },
      daily_shop_report: { date: "today" },
      customer_overview: { phone: customer.phone_numbers[0]! },
    };
    expect(prompts.map((p) => p.name).sort()).toEqual(Object.keys(args).sort());
    for (const prompt of prompts) {
      const got = await client.getPrompt({ name: prompt.name, arguments: args[prompt.name] });
      record(`prompt ${prompt.name}`, got);
      expect(got.messages.length, prompt.name).toBeGreaterThan(0);
    }
  }, 30_000);

  it("leaks no sentinel into stdout, stderr, results, resources, prompts or log notifications", async () => {
    await client.close();
    // Page tokens regenerated during the run are secrets too.
    const secrets = [
      USER_TOKEN,
      POS_API_KEY,
      PAGE_TOKEN_PREFIX,
      ...Object.values(sandbox.credentials.pageTokens),
      ...sandbox.messaging.pages.map((p) => p.settings.page_access_token),
    ];
    expect(logs.length).toBeGreaterThan(50);
    expect(transport.stdout.length).toBeGreaterThan(10_000);
    expect(transport.stderr).toMatch(/debug: GET /);
    const places = [
      ...seen,
      ...logs.map((text) => ({ where: "log notification", text })),
      { where: "stdout", text: transport.stdout },
      { where: "stderr", text: transport.stderr },
    ];
    for (const { where, text } of places) {
      for (const secret of secrets) expect(text.includes(secret), `${where} shows ${secret}`).toBe(false);
    }
  });
});
