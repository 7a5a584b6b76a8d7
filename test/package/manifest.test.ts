import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { getMcpConfigForManifest, MANIFEST_SCHEMAS } from "@anthropic-ai/mcpb";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIRM_MODES, parseCli, toolsetList } from "../../src/config.js";
import { Sandbox } from "../../src/sandbox/index.js";
import { TOOLSETS } from "../../src/toolsets.js";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8"));
const pkg = read("package.json");
const manifest = read("manifest.json");

describe("the MCP Bundle manifest (manifest.json)", () => {
  it("passes the MCPB tooling's own schema and states the package's version and Node minimum", () => {
    const schema = MANIFEST_SCHEMAS[manifest.manifest_version as keyof typeof MANIFEST_SCHEMAS];
    const result = schema.safeParse(manifest);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.name).toBe(pkg.name);
    expect(manifest.compatibility.runtimes.node).toBe(pkg.engines.node);
    expect(manifest.server.entry_point).toBe("server/cli.js");
  });

  it("asks for the three credentials as secrets and hands them over in the variables the server reads", () => {
    const env = manifest.server.mcp_config.env as Record<string, string>;
    for (const [variable, key] of [
      ["PANCAKE_ACCESS_TOKEN", "access_token"],
      ["PANCAKE_POS_API_KEY", "pos_api_key"],
      ["PANCAKE_PAGE_ACCESS_TOKENS", "page_access_tokens"],
    ]) {
      expect(env[variable!]).toBe(`\${user_config.${key}}`);
      expect(manifest.user_config[key!].sensitive).toBe(true);
    }
    // An option the user leaves empty must arrive as "", not as the unreplaced ${...} text.
    for (const option of Object.values(manifest.user_config) as { default?: unknown }[]) expect(option.default).toBeDefined();
  });

  it("offers the server's own defaults and names, and hands every option to the server", () => {
    const env = manifest.server.mcp_config.env as Record<string, string>;
    const options = manifest.user_config as Record<string, { default: unknown; description: string }>;
    // Every option reaches the server, and nothing else is passed.
    expect(Object.values(env).sort()).toEqual(Object.keys(options).map((key) => `\${user_config.${key}}`).sort());
    expect(options.toolsets!.default).toBe("default");
    expect(toolsetList.parse(options.toolsets!.default)).toEqual(["default"]);
    const named = /any of (.+)\.$/.exec(options.toolsets!.description)?.[1]?.split(", ");
    expect(named).toEqual([...TOOLSETS]);
    expect(CONFIRM_MODES).toContain(options.confirm_writes!.default);
    for (const mode of CONFIRM_MODES) expect(options.confirm_writes!.description).toContain(mode);
    expect(env.PANCAKE_CALL_CENTER_IDS).toBe(`\${user_config.call_center_ids}`);
    expect(env.PANCAKE_CONFIRM_WRITES).toBe(`\${user_config.confirm_writes}`);
    // The defaults, as the server reads them, start it: an empty call-centre list is none.
    const defaults = Object.fromEntries(
      Object.entries(env).map(([variable, ref]) => [variable, String(options[ref.slice("${user_config.".length, -1)]!.default)]),
    );
    const command = parseCli([], { ...defaults, PANCAKE_ACCESS_TOKEN: "t".repeat(20) });
    expect(command).toMatchObject({ kind: "serve", config: { toolsets: ["default"], confirmWrites: "auto", callCenterIds: {} } });
  });

  describe("started the way Claude Desktop starts it, with only the user token given", () => {
    let sandbox: Sandbox;
    let dir: string;
    let client: Client;

    beforeAll(async () => {
      requireBuild();
      sandbox = new Sandbox();
      const urls = await sandbox.start();
      // The bundle's layout (scripts/bundle.mjs): server/ holds dist/, under a package.json of type module.
      dir = await mkdtemp(join(tmpdir(), "pancake-mcpb-test-"));
      await symlink(join(CLI, ".."), join(dir, "server"));
      await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
      const config = await getMcpConfigForManifest({
        manifest,
        extensionPath: dir,
        systemDirs: {},
        userConfig: { access_token: sandbox.credentials.userToken },
        pathSeparator: sep,
      });
      expect(config).toBeDefined();
      expect(JSON.stringify(config)).not.toContain("${");
      const transport = new StdioClientTransport({
        command: config!.command === "node" ? process.execPath : config!.command,
        args: config!.args ?? [],
        env: cleanEnv({ ...config!.env, PANCAKE_BASE_URL: urls.messagingBaseUrl, PANCAKE_POS_BASE_URL: urls.posBaseUrl }),
        stderr: "ignore",
      });
      client = new Client({ name: "mcpb-test", version: "1.0.0" });
      await client.connect(transport);
    });

    afterAll(async () => {
      await client?.close();
      await sandbox?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("serves the inbox, and says the POS key is missing rather than using placeholder text", async () => {
      const pages = (await client.callTool({ name: "list_pages", arguments: {} })) as CallToolResult;
      expect(pages.isError).toBeFalsy();
      expect((pages.structuredContent as { pages: unknown[] }).pages.length).toBeGreaterThan(0);
      const shops = (await client.callTool({ name: "list_shops", arguments: {} })) as CallToolResult;
      expect(shops.isError).toBe(true);
      expect(JSON.stringify(shops.content)).toContain("PANCAKE_POS_API_KEY");
      const { tools } = await client.listTools();
      expect(tools.some((t) => t.name === "create_order")).toBe(true);
    });
  });
});
