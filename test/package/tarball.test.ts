import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, requireBuild } from "../helpers/spawn.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

// The README's tarball install path, end to end: `npm pack`, a global install into an empty prefix
// with no network (the package has no dependencies to fetch), and the installed bin driven by the
// SDK's client over stdio against --demo. The installed package has no node_modules: the bin is
// one bundle.
describe("the packed tarball, installed and run", () => {
  let work: string;
  let tarball: string;
  let bin: string;
  let installed: string;
  // The installed bin starts through its `#!/usr/bin/env node` line: put this Node first on PATH.
  const env = () => cleanEnv({ PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) });

  beforeAll(async () => {
    requireBuild();
    work = await mkdtemp(join(tmpdir(), "pancake-tarball-"));
    // dist/ is already built (npm test builds first); rebuilding here would pull it from under other tests.
    const packed = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: ROOT, env: env() });
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(work, info!.filename);
    const prefix = join(work, "prefix");
    await run("npm", ["install", "--global", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", tarball], { env: env(), timeout: 60_000 });
    bin = join(prefix, "bin", "pancake-mcp");
    installed = join(prefix, "lib", "node_modules", "pancake-mcp");
  }, 90_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("holds the bundle, LICENSE and the third-party notices, and declares no runtime dependency", async () => {
    const listing = await run("tar", ["tzf", tarball]);
    const files = listing.stdout.split("\n");
    for (const file of ["package/LICENSE", "package/README.md", "package/dist/cli.js", "package/dist/THIRD_PARTY_NOTICES.md", "package/package.json"]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => f.startsWith("package/") && !/^package\/(dist\/|LICENSE$|README\.md$|CHANGELOG\.md$|SECURITY\.md$|package\.json$)/.test(f) && f !== "package/")).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(existsSync(join(installed, "node_modules"))).toBe(false);
    const notices = readFileSync(join(installed, "dist", "THIRD_PARTY_NOTICES.md"), "utf8");
    for (const name of ["@modelcontextprotocol/server", "undici", "zod"]) expect(notices).toContain(`## ${name} `);
    expect(notices).toMatch(/MIT License|Permission is hereby granted/);
  });

  it("prints its version from the installed bin", async () => {
    const { stdout } = await run(bin, ["--version"], { env: env() });
    expect(stdout).toBe(`${pkg.version}\n`);
  });

  it("serves MCP over stdio from the installed bin, with no node_modules anywhere near it", async () => {
    const transport = new StdioClientTransport({ command: bin, args: ["--demo"], env: env(), stderr: "ignore" });
    const client = new Client({ name: "tarball-e2e", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "pancake-mcp", version: pkg.version });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("list_shops");
      const shops = (await client.callTool({ name: "list_shops", arguments: {} })) as CallToolResult;
      expect(shops.isError).toBeFalsy();
      expect((shops.structuredContent as { shops: unknown[] }).shops).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
