// The server as shipped (the built CLI) over stdio, for the tiers that ask it a shop's questions,
// and the readings they share: a process's CPU, and waiting until the processes measured are quiet.
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { SandboxCredentials, SandboxUrls } from "../src/sandbox/index.js";
import { collectGarbage, inspectorUrl } from "./inspector.js";

/** The server's environment against a sandbox: its URLs and credentials, every toolset, errors alone logged; `extra` on top. */
export function serverEnv(sandbox: { urls: SandboxUrls; credentials: SandboxCredentials }, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    PANCAKE_BASE_URL: sandbox.urls.messagingBaseUrl,
    PANCAKE_POS_BASE_URL: sandbox.urls.posBaseUrl,
    PANCAKE_ACCESS_TOKEN: sandbox.credentials.userToken,
    PANCAKE_POS_API_KEY: sandbox.credentials.posApiKey,
    PANCAKE_LOG_LEVEL: "error",
    PANCAKE_TOOLSETS: "all",
    ...extra,
  };
}

export interface Server {
  client: Client;
  pid: number;
  stop(): Promise<void>;
}

/** Server processes alive now: a question waits until none of them, nor the sandbox, is busy. */
export const live = new Set<number>();

/** CPU seconds a process has used (utime + stime of /proc/<pid>/stat, in 100 Hz ticks); 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Until the given processes use no CPU for a moment: one server's index write (2 s after its
 * answer, seconds long at 100x) must not land in another's measured question on 2 cores.
 */
export async function quiet(pids: number[]): Promise<void> {
  const total = () => pids.reduce((t, pid) => t + cpuSeconds(pid), 0);
  for (let waited = 0; waited < 60_000; waited += 500) {
    const before = total();
    await sleep(500);
    if (total() - before <= 0.02) return;
  }
}

/** The built CLI over stdio; `inspect`: with the inspector on, for full collections before memory is read. */
export async function startServer(options: { cli: string; nodeArgs?: string[] }, env: Record<string, string>, inspect = false): Promise<Server & { collectGarbage(): Promise<void> }> {
  const args = [...(options.nodeArgs ?? []), ...(inspect ? ["--inspect=127.0.0.1:0"] : []), options.cli];
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: inspect ? "pipe" : "ignore" });
  const inspector = inspect ? inspectorUrl(transport.stderr as Readable) : undefined;
  inspector?.catch(() => {});
  const client = new Client({ name: "bench-data-scale", version: "1.0.0" });
  const closed = new Promise<void>((resolve) => {
    client.onclose = () => resolve();
  });
  await client.connect(transport);
  const pid = transport.pid!;
  live.add(pid);
  return {
    client,
    pid,
    async collectGarbage() {
      if (!inspector) throw new Error("started without the inspector");
      await collectGarbage(await inspector);
    },
    // SIGTERM, then wait for the process to end on its own: it writes its index first (the
    // SDK's close would kill it 4 s on, in the middle of writing a big one).
    async stop() {
      process.kill(pid, "SIGTERM");
      await Promise.race([closed, sleep(120_000, undefined, { ref: false })]);
      await client.close();
      live.delete(pid);
    },
  };
}
