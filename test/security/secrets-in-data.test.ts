import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { type StdioServer, sandboxEnv, spawnStdio } from "../helpers/stdio-client.js";

// Distinct first letters, so the first five characters of each are its own.
const USER_TOKEN = "uTok7f3a9c0d2b11aa";
const POS_API_KEY = "pKey41bd2e9a77zzbb";
const PAGE_TOKEN_PREFIX = "gPag5c8e1f";

// The upstream is the attacker here: it writes the credentials it was sent into its own data.
describe("secrets an upstream echoes into data never leave the server", () => {
  let sandbox: Sandbox;
  let server: StdioServer;
  let secrets: string[];

  beforeAll(async () => {
    sandbox = new Sandbox({
      ratePerSecond: 10_000,
      credentials: { userToken: USER_TOKEN, posApiKey: POS_API_KEY, pageTokenPrefix: PAGE_TOKEN_PREFIX },
    });
    await sandbox.start();
    const page = sandbox.messaging.pages[0]!;
    const pageToken = page.settings.page_access_token;
    secrets = [USER_TOKEN, POS_API_KEY, pageToken];
    page.name = `Shop ${USER_TOKEN} official`;
    for (const c of sandbox.messaging.conversations) c.snippet = `see ${pageToken}`;
    const { conversation_id } = argsFor("list_messages", sandbox) as { conversation_id: string };
    for (const m of sandbox.messaging.messages[conversation_id]!) {
      m.message = `my token is ${pageToken}, and access_token=${pageToken}`;
      m.original_message = m.message;
    }
    const order = sandbox.pos.orders.find((o) => String(o.id) === String((argsFor("get_order", sandbox) as { order_id: string }).order_id))!;
    // The staff note is cut at 500 characters: the key straddles the cut.
    order.note = `${"n".repeat(495)}${POS_API_KEY} rest`;
    order.bill_full_name = `Ms ${POS_API_KEY}`;
    for (const c of sandbox.pos.customers) c.name = `Customer ${POS_API_KEY}`;
    server = await spawnStdio(sandboxEnv(sandbox, { PANCAKE_ACCESS_TOKEN: USER_TOKEN, PANCAKE_POS_API_KEY: POS_API_KEY }));
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  /** Neither a secret nor its first five characters (what a cut would leave). */
  function clean(where: string, text: string) {
    for (const secret of secrets) expect(text.includes(secret.slice(0, 5)), `${where} shows ${secret.slice(0, 5)}…`).toBe(false);
  }

  it("tool results: page names, messages, order notes cut at their limit, customer names", async () => {
    const pageId = sandbox.messaging.pages[0]!.id;
    const calls: [string, Record<string, unknown>][] = [
      ["list_pages", {}],
      ["list_messages", argsFor("list_messages", sandbox)],
      ["get_order", argsFor("get_order", sandbox)],
      ["get_order", { ...argsFor("get_order", sandbox), detail: "full" }],
      ["search_customers", { limit: 100 }],
      ["list_conversations", { page_ids: [pageId], limit: 5 }],
    ];
    for (const [name, args] of calls) {
      const r = await server.call(name, args);
      expect(r.isError, `${name}: ${r.text}`).toBe(false);
      expect(r.text, name).toContain("[redacted]");
      clean(name, r.text);
      clean(`${name} structuredContent`, JSON.stringify(r.data));
    }
  });

  it("resources and prompts", async () => {
    // Template lists name each page by its name, which the upstream filled with the user token.
    const listed = JSON.stringify(await server.client.listResources());
    expect(listed).toContain("[redacted]");
    clean("resources/list", listed);
    const pages = await server.client.readResource({ uri: "pancake://pages" });
    const text = JSON.stringify(pages);
    expect(text).toContain("[redacted]");
    clean("pancake://pages", text);
    const prompt = await server.client.getPrompt({
      name: "draft_customer_reply",
      arguments: { page_id: sandbox.messaging.pages[0]!.id, conversation_id: (argsFor("list_messages", sandbox) as { conversation_id: string }).conversation_id },
    });
    const promptText = JSON.stringify(prompt);
    expect(promptText).toContain("[redacted]");
    clean("draft_customer_reply", promptText);
  });
});

// The raw page list carries every page's token under `page_access_token`. Read through the api
// tools before any other call, no token was registered yet: only its key can give it away.
describe("a raw upstream record with credential fields, read through the api tools", () => {
  let sandbox: Sandbox;
  let server: StdioServer;

  beforeAll(async () => {
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    await sandbox.start();
    server = await spawnStdio(sandboxEnv(sandbox, { PANCAKE_TOOLSETS: "api" }));
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it("answers the page list without a single page token", async () => {
    const r = await server.call("call_api_read", { operation: "messaging GET /v1/pages" });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain('"page_access_token":"[redacted]"');
    for (const token of Object.values(sandbox.credentials.pageTokens)) expect(r.text.includes(token.slice(0, 8)), token.slice(0, 8)).toBe(false);
    const again = await server.call("call_api_read", { operation: "messaging GET /v1/pages" });
    for (const token of Object.values(sandbox.credentials.pageTokens)) expect(again.text.includes(token.slice(0, 8))).toBe(false);
  });
});
