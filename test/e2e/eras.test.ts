import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDateInput } from "../../src/format/time.js";
import { Sandbox } from "../../src/sandbox/index.js";
import { allTools } from "../../src/tools/index.js";
import { HINT_DEFAULTS, listedTool } from "../../src/tools/listing.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { MATRIX, openSession, type Session } from "../helpers/eras.js";
import { sandboxEnv } from "../helpers/stdio-client.js";

// What every client does, done by a client of each protocol generation (the v1 SDK's for 2025, the
// v2 SDK's pinned to 2026-07-28) over stdio and over stateless HTTP, against the built bin and a
// fresh sandbox each: connect, list and call every tool, read the resources, get the prompts,
// complete their arguments. The test clock puts "today" at 2026-11-22 in the default zone
// (test/setup-clock.ts).

const ANNOTATIONS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

describe.each(MATRIX)("$label", ({ era, transport }) => {
  let sandbox: Sandbox;
  let s: Session;

  beforeAll(async () => {
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    await sandbox.start();
    s = await openSession(era, transport, { env: sandboxEnv(sandbox) });
  });

  afterAll(async () => {
    await s?.close();
    await sandbox?.close();
  });

  it("connects to pancake-mcp in its own protocol generation and lists tools with their titles (where they say more than the name) and complete annotations", async () => {
    expect(s.client.getServerVersion()?.name).toBe("pancake-mcp");
    if (era === "2026-07-28") expect(s.client.getProtocolEra()).toBe("modern");
    const { tools } = await s.client.listTools();
    // Each entry arrives as the server lists it (src/tools/listing.ts), whatever the protocol
    // generation: what test/tools/context-budget.test.ts measures is what the client gets.
    expect(JSON.parse(JSON.stringify(tools))).toEqual(allTools.map(listedTool));
    for (const tool of tools) {
      const defined = allTools.find((t) => t.name === tool.name)!;
      // A title that only says the name again is left out (a client shows the name instead).
      if (defined.title.toLowerCase() === tool.name.replace(/_/g, " ")) expect(tool.title, tool.name).toBeUndefined();
      else expect(tool.title, tool.name).toBe(defined.title);
      // Hints equal to the specification's defaults are left out; what a client reads must be what the tool declares.
      const declared = defined.annotations;
      const effective = { ...HINT_DEFAULTS, ...tool.annotations };
      const compared = declared.readOnlyHint ? (["readOnlyHint", "openWorldHint"] as const) : ANNOTATIONS;
      for (const key of compared) expect(effective[key], `${tool.name}.${key}`).toBe(declared[key]);
    }
  });

  it("calls list_pages, list_shops and lookup_address", async () => {
    const pages = await s.call("list_pages");
    expect(pages.isError, pages.text).toBe(false);
    expect(pages.data.pages.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(sandbox.messaging.pages.filter((p) => p.is_activated).map((p) => p.id)));
    expect(JSON.parse(pages.text)).toEqual(pages.data);
    expect(pages.text).not.toMatch(/access_token/);

    const shops = await s.call("list_shops");
    expect(shops.isError, shops.text).toBe(false);
    expect(shops.data.shops.map((shop: { id: string }) => shop.id)).toEqual([String(sandbox.credentials.shopId)]);

    const address = await s.call("lookup_address", { query: "Quan 1, Ho Chi Minh" });
    expect(address.isError, address.text).toBe(false);
    expect(address.data.matches[0]?.district?.id).toBeTruthy();
    expect(address.data.matches[0]?.full_name).toMatch(/Quận 1/);
  });

  it("calls every tool with valid arguments", async () => {
    for (const tool of allTools) {
      const r = await s.call(tool.name, argsFor(tool.name, sandbox));
      expect(r.isError, `${tool.name}: ${r.text}`).toBe(false);
      expect(JSON.parse(r.text), tool.name).toEqual(r.data);
    }
  }, 60_000);

  it("answers a bad argument with a clear error and keeps serving", async () => {
    const bad = await s.call("lookup_address", { limit: "many" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/limit/);
    expect((await s.call("list_shops")).isError).toBe(false);
  });

  it("lists and reads the resources, and gets every prompt", async () => {
    const { resources } = await s.client.listResources();
    const page = sandbox.messaging.pages.find((p) => p.is_activated)!;
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(["pancake://pages", "pos://shops", `pancake://pages/${page.id}/tags`, "ui://pancake/sales.html"]));
    const tags = JSON.parse(((await s.client.readResource({ uri: `pancake://pages/${page.id}/tags` })).contents[0] as { text: string }).text);
    expect(tags.tags.map((t: { name: string }) => t.name)).toEqual(sandbox.messaging.tags[page.id]!.map((t) => t.text));
    const view = (await s.client.readResource({ uri: "ui://pancake/sales.html" })).contents[0]!;
    expect(view.mimeType).toBe("text/html;profile=mcp-app");
    const { resourceTemplates } = await s.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("pos://status-codes/{table}");

    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["customer_overview", "daily_shop_report", "draft_customer_reply"]);
    const conversation = sandbox.messaging.conversations.find((c) => c.page_id === page.id && c.type === "INBOX")!;
    const customer = sandbox.pos.customers.find((c) => c.phone_numbers?.length)!;
    for (const [name, args] of [
      ["daily_shop_report", { date: "yesterday" }],
      ["draft_customer_reply", { page_id: page.id, conversation_id: conversation.id }],
      ["customer_overview", { phone: customer.phone_numbers![0]! }],
    ] as const) {
      const got = await s.client.getPrompt({ name, arguments: args });
      expect(got.messages.length, name).toBeGreaterThan(0);
      expect(got.messages[0]!.content.type, name).toBe("text");
    }
  });

  async function promptError(name: string, args: Record<string, string>) {
    return s.client.getPrompt({ name, arguments: args }).then(
      () => undefined,
      (e: { code?: number; message?: string }) => e,
    );
  }

  it("answers prompt arguments it cannot use with -32602 and what to change", async () => {
    const bad = await promptError("daily_shop_report", { date: "someday" });
    expect(bad?.code).toBe(-32602);
    expect(bad?.message).toMatch(/date: cannot read "someday" as a date/);
    expect(bad?.message).toMatch(/YYYY-MM-DD/);

    const neither = await promptError("customer_overview", {});
    expect(neither?.code).toBe(-32602);
    expect(neither?.message).toMatch(/phone or customer_id/);

    const pageId = sandbox.messaging.pages[0]!.id;
    const unknown = await promptError("draft_customer_reply", { page_id: pageId, conversation_id: "no_such_conversation" });
    expect(unknown?.code).toBe(-32602);
    expect(unknown?.message).toMatch(/no_such_conversation/);
    expect((await promptError("draft_customer_reply", { page_id: "../x", conversation_id: "1" }))?.code).toBe(-32602);
  });

  const complete = async (prompt: string, name: string, value: string, args?: Record<string, string>) =>
    (await s.client.complete({ ref: { type: "ref/prompt", name: prompt }, argument: { name, value }, ...(args ? { context: { arguments: args } } : {}) }))
      .completion.values;

  it("completes conversation_id from the chosen page, reading its conversations when none were listed", async () => {
    const pages = await complete("draft_customer_reply", "page_id", "");
    expect(pages.length).toBeGreaterThan(1);
    const [first, second] = pages as [string, string];
    const conversationsOf = (pageId: string) => new Set(sandbox.messaging.conversations.filter((c) => c.page_id === pageId).map((c) => c.id));
    const fromFirst = await complete("draft_customer_reply", "conversation_id", "", { page_id: first });
    const fromSecond = await complete("draft_customer_reply", "conversation_id", "", { page_id: second });
    expect(fromFirst.length).toBeGreaterThan(0);
    expect(fromSecond.length).toBeGreaterThan(0);
    for (const id of fromFirst) expect(conversationsOf(first).has(id), id).toBe(true);
    for (const id of fromSecond) expect(conversationsOf(second).has(id), id).toBe(true);

    const one = fromFirst[0]!;
    const narrowed = await complete("draft_customer_reply", "conversation_id", one.slice(0, -1), { page_id: first });
    expect(narrowed).toContain(one);
    expect(narrowed.every((id) => id.startsWith(one.slice(0, -1)))).toBe(true);
    expect(await complete("draft_customer_reply", "conversation_id", "", { page_id: "../../etc" })).toEqual([]);
  });

  it("completes shop_id, the report's date words and days, its page list and a resource template's page", async () => {
    const shops = await complete("daily_shop_report", "shop_id", "");
    expect(shops).toEqual([String(sandbox.credentials.shopId)]);
    expect(await complete("customer_overview", "shop_id", "")).toEqual(shops);
    expect(await complete("customer_overview", "shop_id", `${shops[0]}x`)).toEqual([]);

    const dates = await complete("daily_shop_report", "date", "");
    expect(dates.slice(0, 4)).toEqual(["today", "yesterday", "2026-11-22", "2026-11-21"]);
    expect(await complete("daily_shop_report", "date", "ye")).toEqual(["yesterday"]);
    expect(await complete("daily_shop_report", "date", "2026-11-2")).toEqual(["2026-11-22", "2026-11-21", "2026-11-20"]);
    // Every value offered is one the prompt reads.
    for (const date of dates) expect(() => parseDateInput("date", date, "Asia/Ho_Chi_Minh")).not.toThrow();

    const pages = await complete("draft_customer_reply", "page_id", "");
    expect(await complete("daily_shop_report", "page_ids", `${pages[0]},`)).toEqual(pages.slice(1).map((p) => `${pages[0]},${p}`));
    const templated = await s.client.complete({ ref: { type: "ref/resource", uri: "pancake://pages/{page_id}/tags" }, argument: { name: "page_id", value: "" } });
    expect(templated.completion.values).toEqual(pages);
  });
});
