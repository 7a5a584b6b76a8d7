// Runaway reads (issue 43): every tool, with the contract test's arguments (test/fixtures/tool-calls.ts
// and test/contract/rich-calls.ts), through one stdio server as shipped, against an upstream that
// answers every documented operation with the vendor's own example only (SandboxOptions.upstream
// "examples": later pages empty, the example's fixed totals and dates). What it measures: the
// upstream requests the calls caused, in all and per tool (a call counts what arrived from its start
// to the next call's, its background reads included; after the last, until the upstream is quiet for
// 5 s), against issue 43's bound of 1,000. The server is stopped at 200,000 requests or 5 minutes. `node --import tsx bench/examples-upstream.ts`
// runs it alone (after `npm run build`) and prints the same.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Sandbox } from "../src/sandbox/index.js";
import { allTools } from "../src/tools/index.js";
import { richCalls } from "../test/contract/rich-calls.js";
import { argsFor, type ToolArgs } from "../test/fixtures/tool-calls.js";
import type { Row } from "./measure.js";
import { serverEnv, startServer } from "./stdio-server.js";

const MOST_REQUESTS = 200_000;
const LONGEST_MS = 5 * 60_000;
/** Issue 43's bound for the whole run. */
const TARGET = 1_000;
const PATIENCE_MS = 60_000;
/** After the last call, reads are counted until none has come for this long. */
const QUIET_MS = 5_000;

export interface ExamplesUpstreamOptions {
  cli: string;
  nodeArgs?: string[];
}

export async function examplesUpstream(emit: (row: Row) => void, options: ExamplesUpstreamOptions): Promise<void> {
  const sandbox = new Sandbox({ upstream: "examples", ratePerSecond: 1_000_000 });
  const urls = await sandbox.start();
  const root = await mkdtemp(join(tmpdir(), "pancake-bench-examples-"));
  // The pages by their tokens too: the documents' page list names no page.
  const pageTokens = Object.entries(sandbox.credentials.pageTokens).map(([id, token]) => `${id}=${token}`).join(",");
  const server = await startServer(options, serverEnv({ urls, credentials: sandbox.credentials }, { PANCAKE_PAGE_ACCESS_TOKENS: pageTokens, PANCAKE_INDEX_DIR: join(root, "index") }));
  const calls: [string, ToolArgs][] = [...allTools.map((t) => [t.name, (s: Sandbox) => argsFor(t.name, s)] as [string, ToolArgs]), ...richCalls];
  const perTool = new Map<string, number>();
  const t0 = performance.now();
  let stopped: string | undefined;
  // The hard stop: checked every 100 ms while calls go on.
  const guard = setInterval(() => {
    if (stopped) return;
    if (sandbox.server.received >= MOST_REQUESTS) stopped = `stopped at ${sandbox.server.received} requests`;
    else if (performance.now() - t0 >= LONGEST_MS) stopped = `stopped after ${LONGEST_MS / 60_000} minutes`;
    if (stopped) process.kill(server.pid, "SIGKILL");
  }, 100);
  let done = 0;
  const errored: string[] = [];
  try {
    for (const [name, args] of calls) {
      if (stopped) break;
      const before = sandbox.server.received;
      try {
        const result = await server.client.callTool({ name, arguments: args(sandbox) }, { timeout: PATIENCE_MS });
        if (result.isError) errored.push(name);
      } catch {
        errored.push(name);
      }
      done++;
      perTool.set(name, (perTool.get(name) ?? 0) + sandbox.server.received - before);
    }
    // Reads going on after the last call count too, until the upstream hears nothing for a while.
    const before = sandbox.server.received;
    for (let seen = -1; !stopped && seen !== sandbox.server.received; ) {
      seen = sandbox.server.received;
      await sleep(QUIET_MS);
    }
    perTool.set("(after the last call)", sandbox.server.received - before);
  } finally {
    clearInterval(guard);
    if (!stopped) await server.stop().catch(() => undefined);
    await sandbox.close();
    await rm(root, { recursive: true, force: true });
  }
  const total = sandbox.server.received;
  const ranked = [...perTool].filter(([, n]) => n > 0).sort(([, a], [, b]) => b - a);
  process.stderr.write(`  upstream requests per tool (${done} of ${calls.length} calls, ${total} requests):\n${ranked.map(([name, n]) => `    ${String(n).padStart(7)}  ${name}`).join("\n")}\n`);
  // The examples are no shop's data: many calls end in an error that says why, which is right; the list shows which.
  process.stderr.write(`  calls answered with an error (${errored.length}): ${errored.join(", ")}\n`);
  emit({
    figure: `every tool (${calls.length} calls with the contract test's arguments) against an upstream answering the vendor's documented examples only: upstream requests`,
    value: total,
    unit: "requests",
    target: `<= ${TARGET} (issue 43); ${done} calls made${stopped ? `, ${stopped}` : ""}, ${errored.length} tool errors, ${Math.round((performance.now() - t0) / 1000)} s; most: ${ranked
      .slice(0, 5)
      .map(([name, n]) => `${name} ${n}`)
      .join(", ")}`,
    pass: total <= TARGET && !stopped,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await examplesUpstream((row) => process.stdout.write(`${row.figure}: ${row.value} ${row.unit} (${row.target}) ${row.pass ? "pass" : "FAIL"}\n`), {
    cli: new URL("../dist/cli.js", import.meta.url).pathname,
  });
}
