// The shop index's first all-time read and the server's memory (issue 41: a 1000x shop read with
// the server's RSS at most 500 MB throughout). One stdio server as shipped (dist/cli.js, the index on
// disk in a fresh folder) against the sandbox at a scale (default 100) in a process of its own,
// asked the all-time orders by status until the answer is exact, then the all-time conversations
// awaiting a reply per page likewise; the server's VmRSS is sampled every 200 ms throughout. Prints
// the peak of each question and the requests it made. `node --import tsx bench/reader-memory.ts [scale] [cli] [orders|conversations]`
// after `npm run build` (cli: another build of the server, dist/cli.js by default; one question alone
// when named, since a process's RSS seldom shrinks after its peak).
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { rssMb } from "./measure.js";
import { forkSandbox } from "./sandbox-fork.js";
import type { Answer } from "./sandbox-process.js";
import { serverEnv, startServer } from "./stdio-server.js";

const SAMPLE_MS = 200;
/** A question is given up after this long. */
const LONGEST_MS = 30 * 60_000;

const scale = Number(process.argv[2] ?? 100);
const sandbox = await forkSandbox({ SANDBOX_SCALE: String(scale), SANDBOX_EXTRA_PAGES: "0" }, 600_000, 8_192);
const dir = await mkdtemp(join(tmpdir(), "pancake-reader-memory-"));
// READER_NODE_ARGS: the server's node flags (a smaller heap, say, to show what it keeps alive).
const nodeArgs = process.env.READER_NODE_ARGS?.split(" ").filter(Boolean);
const server = await startServer({ cli: process.argv[3] || new URL("../dist/cli.js", import.meta.url).pathname, nodeArgs }, serverEnv(sandbox, { PANCAKE_INDEX: "disk", PANCAKE_INDEX_DIR: dir, PANCAKE_POS_STATISTICS: "0" }));
let peak = 0;
/** The peak's part in anonymous memory (the heap and SQLite's cache) and in mapped files. */
let parts = "";
const sampler = setInterval(() => {
  try {
    const rss = rssMb(server.pid);
    if (rss <= peak) return;
    peak = rss;
    const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
    const mb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
    parts = ` (anonymous ${mb("RssAnon")} MB, files ${mb("RssFile")} MB)`;
  } catch {}
}, SAMPLE_MS);

const requests = async () => (await sandbox.ask<Extract<Answer, { op: "requests" }>>({ op: "requests" })).total;

/** Asks until the answer no longer says to ask again; the peak RSS meanwhile and the requests it took. */
async function untilExact(name: string, args: Record<string, unknown>) {
  [peak, parts] = [0, ""];
  const [t0, r0] = [performance.now(), await requests()];
  let calls = 0;
  for (;;) {
    calls++;
    const result = (await server.client.callTool({ name, arguments: args }, { timeout: 60_000 })) as CallToolResult;
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    if (result.isError) throw new Error(`${name}: ${text.slice(0, 300)}`);
    const again = /"ask_again_in_s":\s*(\d+)/.exec(text);
    if (!again) break;
    if (performance.now() - t0 > LONGEST_MS) throw new Error(`${name}: not exact after ${LONGEST_MS / 60_000} minutes`);
    await sleep(Math.min(10, Math.max(1, Number(again[1]))) * 1000);
  }
  const line = `${name} at ${scale}x: peak server RSS ${Math.round(peak)} MB${parts}, ${calls} calls, ${(await requests()) - r0} requests, ${Math.round((performance.now() - t0) / 1000)} s`;
  process.stdout.write(`${line}\n`);
}

try {
  process.stdout.write(`server RSS at start: ${Math.round(rssMb(server.pid))} MB\n`);
  const only = process.argv[4];
  if (only !== "conversations") await untilExact("search_orders", { group_by: ["status"] });
  if (only !== "orders") await untilExact("list_conversations", { awaiting_reply: true, group_by: ["page"] });
} finally {
  clearInterval(sampler);
  await server.stop();
  sandbox.stop();
  await rm(dir, { recursive: true, force: true });
}
