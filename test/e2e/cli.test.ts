import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";

const run = promisify(execFile);

describe("the pancake-mcp command", () => {
  it("prints help listing every setting, and its version", async () => {
    requireBuild();
    const help = await run(process.execPath, [CLI, "--help"], { env: cleanEnv() });
    for (const name of ["PANCAKE_ACCESS_TOKEN", "PANCAKE_POS_API_KEY", "--read-only", "--toolsets", "--demo", "sandbox"]) {
      expect(help.stderr).toContain(name);
    }
    expect(help.stdout).toBe("");
    const version = await run(process.execPath, [CLI, "--version"], { env: cleanEnv() });
    expect(version.stderr.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("refuses a bad setting with a message that names it, and exits 2", async () => {
    requireBuild();
    const failure = await run(process.execPath, [CLI], { env: cleanEnv({ PANCAKE_TOOLSETS: "ordrs" }) }).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/PANCAKE_TOOLSETS.*"orders"/s);
  });

  it("runs the simulated upstream on its own with `sandbox --port`", async () => {
    requireBuild();
    const child = spawn(process.execPath, [CLI, "sandbox", "--port", "0"], { env: cleanEnv(), stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    const origin = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (c: Buffer) => {
        err += c.toString();
        const m = /listening on (http:\S+)/.exec(err);
        if (m && /PANCAKE_POS_API_KEY=/.test(err)) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const key = /PANCAKE_POS_API_KEY=(\S+)/.exec(err)![1]!;
    const res = await request(`${origin}/pos/api/v1/shops?api_key=${key}`);
    const body = (await res.body.json()) as { shops: unknown[] };
    expect(body.shops.length).toBe(1);
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  });
});
