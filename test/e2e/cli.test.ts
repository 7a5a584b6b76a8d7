import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string; engines: { node: string } };
// The minimum the bin's entry checks (src/bin.ts), read from its source so the test states it once.
const MINIMUM = /const MINIMUM_NODE = "([\d.]+)"/.exec(readFileSync(new URL("../../src/bin.ts", import.meta.url), "utf8"))![1]!;

/** Node flags that make the spawned process report another version, as an older Node would. */
const pretendNode = (version: string) => [
  "--import",
  `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}})`,
];

describe("the pancake-mcp command", () => {
  it("prints help listing every setting, and its version, on stdout", async () => {
    requireBuild();
    for (const flag of ["--help", "-h"]) {
      const help = await run(process.execPath, [CLI, flag], { env: cleanEnv() });
      for (const name of ["PANCAKE_ACCESS_TOKEN", "PANCAKE_POS_API_KEY", "--read-only", "--toolsets", "--demo", "sandbox"]) {
        expect(help.stdout).toContain(name);
      }
      expect(help.stderr).toBe("");
    }
    for (const flag of ["--version", "-v"]) {
      const version = await run(process.execPath, [CLI, flag], { env: cleanEnv() });
      expect(version.stdout).toBe(`${pkg.version}\n`);
      expect(version.stderr).toBe("");
    }
  });

  it("prints the sandbox's own help on stdout with `sandbox --help`", async () => {
    requireBuild();
    const help = await run(process.execPath, [CLI, "sandbox", "--help"], { env: cleanEnv() });
    expect(help.stdout).toMatch(/^pancake-mcp sandbox:/);
    expect(help.stdout).toContain("--port N");
    expect(help.stdout).not.toContain("PANCAKE_READ_ONLY");
    expect(help.stderr).toBe("");
  });

  it.each(["18.20.8", "20.20.2", "22.12.0"])("refuses to start on Node %s with one line naming the version it needs", async (old) => {
    requireBuild();
    const failure = await run(process.execPath, [...pretendNode(old), CLI, "--version"], { env: cleanEnv() }).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe("");
    expect(failure.stderr).toBe(`pancake-mcp needs Node.js ${MINIMUM} or newer; this is Node.js ${old}.\n`);
  });

  it("starts on the minimum Node version itself", async () => {
    requireBuild();
    const ok = await run(process.execPath, [...pretendNode(MINIMUM), CLI, "--version"], { env: cleanEnv() });
    expect(ok.stdout).toBe(`${pkg.version}\n`);
  });

  it("states the same minimum Node version in engines, the entry's check and the README", () => {
    expect(pkg.engines.node).toBe(`>=${MINIMUM}`);
    expect(readFileSync(new URL("../../README.md", import.meta.url), "utf8")).toContain(`Node.js ${MINIMUM} or newer`);
  });

  it("refuses a bad setting with a message that names it, and exits 2", async () => {
    requireBuild();
    const failure = await run(process.execPath, [CLI], { env: cleanEnv({ PANCAKE_TOOLSETS: "ordrs" }) }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/PANCAKE_TOOLSETS.*"orders"/s);
  });

  it("refuses a tool list naming a tool that does not exist, with the likely one, and exits 2", async () => {
    requireBuild();
    const failure = await run(process.execPath, [CLI, "--tools", "search_order,list_pages"], { env: cleanEnv() }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stdout).toBe("");
    expect(failure.stderr).toBe(
      "pancake-mcp: invalid configuration:\n  PANCAKE_TOOLS / --tools: no tool search_order (did you mean search_orders?); see docs/tools.md or --toolsets\n",
    );
  });

  it("runs the simulated upstream on its own with `sandbox --port`", async () => {
    requireBuild();
    const child = spawn(process.execPath, [CLI, "sandbox", "--port", "0"], { env: cleanEnv(), stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    const origin = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (c: Buffer) => {
        err += c.toString();
        const m = /listening on (http:\S+)/.exec(err);
        if (m && /PANCAKE_CALL_CENTER_IDS=/.test(err)) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const key = /PANCAKE_POS_API_KEY=(\S+)/.exec(err)![1]!;
    const res = await request(`${origin}/pos/api/v1/shops?api_key=${key}`);
    const body = (await res.body.json()) as { shops: unknown[] };
    expect(body.shops.length).toBe(1);
    // The call-centre ids no API lists, for list_call_logs.
    expect(/PANCAKE_CALL_CENTER_IDS=(\S+)/.exec(err)![1]!.split(",")).toHaveLength(2);
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  });
});
