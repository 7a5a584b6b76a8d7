import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio2025 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCli } from "../../src/config.js";
import { selectTools, unknownTools } from "../../src/tools/index.js";
import { DEFAULT_TOOLS, TOOLSETS } from "../../src/toolsets.js";
import { type Harness, startHarness } from "../helpers/harness.js";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";

const serve = (argv: string[], env: Record<string, string> = {}) => {
  const command = parseCli(argv, env);
  if (command.kind !== "serve") throw new Error(command.kind);
  return command.config;
};

describe("choosing toolsets and tools", () => {
  it("reads `default` as the default tools, so a toolset can be added to them", () => {
    const names = (argv: string[], env: Record<string, string> = {}) => selectTools(serve(argv, env)).map((t) => t.name);
    expect(names([])).toEqual(expect.arrayContaining([...DEFAULT_TOOLS]));
    expect(names([])).toHaveLength(DEFAULT_TOOLS.length);
    expect(names([], { PANCAKE_TOOLSETS: "default" })).toEqual(names([]));
    const withFinance = names(["--toolsets", "default,finance"]);
    expect(withFinance).toEqual(expect.arrayContaining([...DEFAULT_TOOLS, "list_transactions", "record_ad_cost"]));
    expect(names(["--toolsets", "finance"])).not.toContain("list_pages");
    expect(serve(["--toolsets", "all"]).toolsets).toEqual([...TOOLSETS]);
  });

  it("takes an exact tool list and names a tool that does not exist with the likely one", () => {
    expect(serve(["--tools", "search_orders,get_order"]).tools).toEqual(["search_orders", "get_order"]);
    expect(unknownTools(serve(["--tools", "search_orders,get_order"]).tools)).toBeUndefined();
    expect(unknownTools(serve([], { PANCAKE_TOOLS: "search_order,list_pages" }).tools)).toBe(
      "no tool search_order (did you mean search_orders?); see docs/tools.md or --toolsets",
    );
  });

  it("offers enable_toolset on stdio, never on stateless HTTP, and not when switched off", () => {
    expect(serve([]).dynamicToolsets).toBe(true);
    expect(serve(["--http"]).dynamicToolsets).toBe(false);
    expect(serve([], { PANCAKE_DYNAMIC_TOOLSETS: "0" }).dynamicToolsets).toBe(false);
  });
});

describe("a session that starts with the default toolsets", () => {
  let h: Harness;
  let changed = 0;
  beforeAll(async () => {
    h = await startHarness({ config: { toolsets: ["default"], dynamicToolsets: true } });
    h.client.setNotificationHandler("notifications/tools/list_changed", () => {
      changed++;
    });
  });
  afterAll(() => h.close());

  const listed = async () => (await h.client.listTools()).tools.map((t) => t.name);

  it("lists enable_toolset beside the default tools", async () => {
    const names = await listed();
    expect(names[0]).toBe("enable_toolset");
    expect(names).not.toContain("list_payment_histories");
  });

  it("answers a call to a tool outside its toolsets with the toolset that has it and how to add it", async () => {
    const r = await h.call("list_payment_histories", {});
    expect(r.isError).toBe(true);
    expect(r.text).toContain("list_payment_histories: it is in the finance toolset, which this session has not enabled");
    expect(r.text).toContain('call enable_toolset {"toolset": "finance"} first');
  });

  it("lists the toolsets, then adds one: the client hears that the list changed and can call its tools", async () => {
    const overview = await h.call("enable_toolset", {});
    const of = (name: string) => overview.data.toolsets.find((t: { name: string }) => t.name === name);
    // The default tools hold list_debts and list_transactions of finance: the toolset is partly on, and says with which.
    expect(of("finance")).toMatchObject({ enabled: "partly", active: ["list_transactions", "list_debts"], tools: expect.arrayContaining(["list_payment_histories", "list_debts"]) });
    expect(of("inbox").enabled).toBe(true);
    expect(of("inbox").active).toBeUndefined();
    expect(of("promotions")).toMatchObject({ enabled: false });
    for (const name of ["pages", "orders", "customers", "shop", "analytics"]) expect(of(name).enabled, name).toBe("partly");

    const r = await h.call("enable_toolset", { toolset: "finance" });
    expect(r.data.enabled).toBe("finance");
    expect(r.data.added.map((t: { name: string }) => t.name).sort()).toEqual(["create_transaction", "list_payment_histories", "record_ad_cost"]);
    expect((await h.call("enable_toolset", {})).data.toolsets.find((t: { name: string }) => t.name === "finance").enabled).toBe(true);
    await expect.poll(() => changed).toBe(1);
    expect(await listed()).toContain("list_payment_histories");
    const tx = await h.call("list_payment_histories", {});
    expect(tx.isError, tx.text).toBe(false);

    // Each added tool comes with what calling it takes, as tools/list now lists it: every
    // parameter, the required ones starred, so the next call needs no new tools/list.
    const listing = (await h.client.listTools()).tools;
    for (const added of r.data.added as { name: string; description: string; params: string }[]) {
      const entry = listing.find((t) => t.name === added.name)!;
      expect(added.description).toBe(entry.description);
      const required = new Set(entry.inputSchema.required ?? []);
      const top = topLevel(added.params).map((p) => p.split(":")[0]);
      expect(top).toEqual(Object.keys(entry.inputSchema.properties ?? {}).map((name) => `${name}${required.has(name) ? "*" : ""}`));
    }
    const ad = r.data.added.find((t: { name: string }) => t.name === "record_ad_cost");
    expect(ad.params).toContain("items*: [{cost*: integer, tax: number, warehouse_id, product, marketer, source: {key*, account}");

    const again = await h.call("enable_toolset", { toolset: "finance" });
    expect(again.data.added).toEqual([]);
    expect(changed).toBe(1);
  });

  it("refuses a toolset that does not exist, naming those that do", async () => {
    const r = await h.call("enable_toolset", { toolset: "payments" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("finance");
  });
});

/** "a, b: [{c, d}], e" -> ["a", "b: [{c, d}]", "e"]. */
function topLevel(text: string): string[] {
  const parts = [""];
  let depth = 0;
  for (const ch of text) {
    depth += "[{".includes(ch) ? 1 : "]}".includes(ch) ? -1 : 0;
    if (ch === "," && depth === 0) parts.push("");
    else parts[parts.length - 1] += ch;
  }
  return parts.map((p) => p.trim());
}

describe("an exact tool list", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { tools: ["search_orders", "get_order", "create_order"], readOnly: true, dynamicToolsets: true } });
  });
  afterAll(() => h.close());

  it("lists only those tools (read-only still wins) and no toolset switch", async () => {
    expect((await h.client.listTools()).tools.map((t) => t.name)).toEqual(["search_orders", "get_order"]);
  });

  it("refuses another tool, saying how to start with it", async () => {
    const r = await h.call("list_pages", {});
    expect(r.isError).toBe(true);
    expect(r.text).toContain("exact tool list (--tools) does not include it");
    expect(r.text).toContain("--tools or PANCAKE_TOOLS");
  });

  it("does not even register a write when read-only", async () => {
    // An unknown tool is a protocol error (-32602), as the specification says.
    await expect(h.call("create_order", {})).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/not found/) });
  });
});

/** A client of each protocol generation, told when the tool list changes: unasked (2025) or on the stream it opened (2026-07-28). */
const stdioClients = {
  "a 2025-era client (SDK v1)": async (onChanged: () => void) => {
    const client = new Client2025({ name: "e2e", version: "1.0.0" });
    client.setNotificationHandler(ToolListChangedNotificationSchema, onChanged);
    await client.connect(new Stdio2025({ command: process.execPath, args: [CLI, "--demo"], env: cleanEnv(), stderr: "pipe" }));
    return client;
  },
  "a 2026-07-28 client (SDK v2)": async (onChanged: () => void) => {
    const client = new Client({ name: "e2e", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    client.setNotificationHandler("notifications/tools/list_changed", onChanged);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "--demo"], env: cleanEnv(), stderr: "pipe" }));
    await client.listen({ toolsListChanged: true });
    return client;
  },
};

describe("the built bin over stdio", () => {
  it.each(Object.entries(stdioClients))("adds a toolset mid-session through %s", async (_name, connect) => {
    requireBuild();
    let changed = false;
    const client = await connect(() => {
      changed = true;
    });
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      const before = (await client.listTools()).tools.map((t) => t.name);
      expect(before).toContain("enable_toolset");
      expect(before).not.toContain("list_purchases");
      await client.callTool({ name: "enable_toolset", arguments: { toolset: "inventory" } });
      await expect.poll(() => changed).toBe(true);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("list_purchases");
      const r = await client.callTool({ name: "list_purchases", arguments: {} });
      expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
