import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export function requireBuild(): void {
  if (!existsSync(CLI)) throw new Error("dist/cli.js is missing: run `npm run build` (npm test does it first)");
}

/**
 * Environment for a spawned server: none of the developer's own credentials leak in, and its shop
 * index goes to the test run's own folder (test/setup-index.ts), never the user's cache folder.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("PANCAKE_")) env[key] = value;
  }
  if (process.env.PANCAKE_INDEX_DIR) env.PANCAKE_INDEX_DIR = process.env.PANCAKE_INDEX_DIR;
  return { ...env, ...extra };
}

export interface HttpServerProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<number | null>;
}

/** Spawns the built bin with --http on a free port and waits for its "ready on" line. */
export async function spawnHttp(args: string[], env: Record<string, string> = {}): Promise<HttpServerProcess> {
  requireBuild();
  const child = spawn(process.execPath, [CLI, "--http", "--port", "0", ...args], {
    env: cleanEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${err}`)), 15_000);
    const onData = () => {
      const m = /ready on (http:\/\/\S+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        child.stderr!.off("data", onData);
        resolve(m[1]!);
      }
    };
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${err}`));
    });
  });
  return {
    url,
    child,
    stderr: () => err,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
}
