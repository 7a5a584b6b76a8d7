// `npm run bench`: speed, size and context cost of the server against the floor (a bare v2 SDK
// server built the same way) on loopback against the sandbox, for clients of both protocol
// generations (2025 with initialize, 2026-07-28 stateless) where they differ. Prints one table and writes
// bench/results.json. With no arguments it runs within 10 minutes on 2 cores: every figure, the
// data-scale tier at 10x with its "later" repeat 6 s on (past the index's 5 s refresh interval).
// The long tiers are named:
//   --scales=100,200   the data-scale tier at these scales, the repeat a minute on (each a quarter
//                      of an hour or more); a scale of 1000 or more runs the big-shop probe there
//                      (bench/big-shop.ts: a 2-minute build, then as long as the server takes)
//   --examples-upstream  every tool against an upstream answering the vendor's examples only
//                      (bench/examples-upstream.ts: stopped at 200,000 requests or 5 minutes)
//   --long             --scales=100,200,1000 --examples-upstream
// `--smoke` runs every default figure with small counts (a quick sanity pass); `--only=<figure>`
// one figure; `--questions=<ids>` some data-scale questions only.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import type { Readable } from "node:stream";
import { type CallToolResult, Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { build } from "esbuild";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { Pool, request } from "undici";
import { createClients } from "../src/clients/index.js";
import { makeConfig } from "../src/config.js";
import { Logger } from "../src/log.js";
import { Sandbox } from "../src/sandbox/index.js";
import { buildServer } from "../src/server.js";
import { bigShop } from "./big-shop.js";
import { dataScale } from "./data-scale.js";
import { examplesUpstream } from "./examples-upstream.js";
import { collectGarbage, inspectorUrl } from "./inspector.js";
import { type Era, lineClient } from "./line-client.js";
import { median, type Row, round, rssMb } from "./measure.js";
import { forkSandbox } from "./sandbox-fork.js";
import { serverEnv } from "./stdio-server.js";

const SMOKE = process.argv.includes("--smoke");
const LONG = process.argv.includes("--long");
const cpuProfDir = process.argv.find((a) => a.startsWith("--cpu-prof-dir="))?.slice(15);
/** --scales=100,200,1000: the long data-scale tiers (1000 and up: the big-shop probe); default 10x with a short repeat. */
const askedScales = process.argv.find((a) => a.startsWith("--scales="))?.slice(9).split(",").map(Number);
const scales = askedScales ?? (LONG ? [100, 200, 1000] : [10]);
const BIG_SHOP = 1000;
const bigShopScale = scales.find((scale) => scale >= BIG_SHOP);
const EXAMPLES_UPSTREAM = LONG || process.argv.includes("--examples-upstream");
/** --questions=awaiting,posts: the data-scale questions with these ids only (default: every one). */
const questions = process.argv.find((a) => a.startsWith("--questions="))?.slice(12).split(",");
const n = (full: number, smoke: number) => (SMOKE ? smoke : full);
const CLI = new URL("../dist/cli.js", import.meta.url).pathname;
const BARE = new URL("./.build/bare.js", import.meta.url).pathname;

const rows: Row[] = [];
const row = (r: Row) => {
  rows.push(r);
  process.stderr.write(`  ${r.figure}: ${r.value} ${r.unit} (${r.target}) ${r.pass === null ? "" : r.pass ? "pass" : "FAIL"}\n`);
};

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

// ---- setup: the sandbox (zero latency, no rate limit), the bare server, the environment ----
const sandbox = new Sandbox({ ratePerSecond: 1_000_000, extraPages: 7 });
const urls = await sandbox.start();
const env = serverEnv({ urls, credentials: sandbox.credentials });
await build({
  entryPoints: [new URL("./bare-server.ts", import.meta.url).pathname],
  outfile: BARE,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  minifyWhitespace: true,
  minifySyntax: true,
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: "warning",
});

async function stdioClient(bin: string, extraEnv: Record<string, string> = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin], env: { ...env, ...extraEnv }, stderr: "ignore" });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid!, close: () => client.close() };
}

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result;
}

function spawnHttp(bin: string, args: string[], extraEnv: Record<string, string> = {}): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...env, ...extraEnv }, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /ready on (http:\S+)/.exec(err);
      if (m) resolve({ url: m[1]!, stop: () => child.kill("SIGTERM") });
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

const ERAS: Era[] = ["2025", "2026-07-28"];
/** A client's first request in each generation, whose answer ends a cold start. */
const FIRST: Record<Era, string> = { "2025": "initialize", "2026-07-28": "server/discover" };

// ---- 1. cold start ----
// Spawn to the answer to the client's first request, through the line client (the SDK's v2 client
// would probe a 2026-07-28 stdio server in a second process first).
async function coldStart() {
  for (const era of ERAS) {
    const ours: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < n(15, 3); i++) {
      for (const [bin, out] of [
        [CLI, ours],
        [BARE, bare],
      ] as const) {
        const t0 = performance.now();
        const c = await lineClient(bin, env, [], era);
        out.push(performance.now() - t0);
        await c.close();
      }
    }
    const ratio = median(ours) / median(bare);
    row({
      figure: `cold start over stdio, ${era} client (spawn to the ${FIRST[era]} result), median`,
      value: round(median(ours), 1),
      unit: "ms",
      target: `<= 1.3x bare v2 SDK server (${round(median(bare), 1)} ms); ratio ${round(ratio)}`,
      pass: ratio <= 1.3,
    });
  }
}

// ---- 2. tool-call overhead ----
// The sandbox runs in its own process here, so the direct call crosses the same boundary as the
// server's upstream call. Each round times a block of sequential calls of every kind, in an order
// that rotates and reverses from round to round; a round's figure is its block median minus the
// same round's direct median, and the result is the median over rounds (with its spread). The
// headline goes through a bare JSON-RPC line client; the SDK's Client, which parses and validates
// every result itself, is reported beside it.
async function callOverhead() {
  const upstream = await forkSandbox();
  const closers: (() => Promise<unknown>)[] = [async () => upstream.stop()];
  try {
    const remoteEnv = { PANCAKE_BASE_URL: upstream.urls.messagingBaseUrl, PANCAKE_ACCESS_TOKEN: upstream.userToken };
    const url = `${upstream.urls.messagingBaseUrl}/v1/pages?access_token=${upstream.userToken}`;
    const line = async (bin: string, era: Era = "2025", args: string[] = []) => {
      const c = await lineClient(bin, { ...env, ...remoteEnv }, args, era);
      closers.push(c.close);
      return () => c.callTool("list_pages");
    };
    const sdk = async (bin: string) => {
      const c = await stdioClient(bin, remoteEnv);
      closers.push(c.close);
      return () => callTool(c.client, "list_pages");
    };
    const ops: Record<string, () => Promise<unknown>> = {
      "ours 2025": await line(CLI),
      "bare 2025": await line(BARE),
      "ours 2026-07-28": await line(CLI, "2026-07-28"),
      "bare 2026-07-28": await line(BARE, "2026-07-28"),
      noSdk: await line(BARE, "2025", ["--no-sdk"]),
      oursSdk: await sdk(CLI),
      bareSdk: await sdk(BARE),
      direct: async () => (await request(url)).body.json(),
    };
    const names = Object.keys(ops);
    for (const op of Object.values(ops)) for (let i = 0; i < n(300, 30); i++) await op();
    const rounds: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    for (let r = 0; r < n(24, 2); r++) {
      const rotated = names.map((_, i) => names[(i + r) % names.length]!);
      const blocks: Record<string, number> = {};
      for (const name of r % 2 ? rotated.reverse() : rotated) {
        const times: number[] = [];
        for (let i = 0; i < n(60, 20); i++) {
          const t0 = performance.now();
          await ops[name]!();
          times.push(performance.now() - t0);
        }
        blocks[name] = median(times);
      }
      for (const name of names) rounds[name]!.push(blocks[name]! - blocks.direct!);
    }
    const over = (name: string) => round(median(rounds[name]!), 3);
    const spread = (name: string) => `${round(percentile(rounds[name]!, 25), 3)}–${round(percentile(rounds[name]!, 75), 3)}`;
    for (const era of ERAS) {
      const [ours, bare] = [over(`ours ${era}`), over(`bare ${era}`)];
      row({
        figure: `tool-call overhead, ${era} client (list_pages over stdio minus a direct undici call), median over rounds`,
        value: ours,
        unit: "ms",
        target: `<= bare v2 SDK server + 0.25 ms (${bare} ms; ours ${round(ours - bare, 3)} ms over it; rounds' middle half ${spread(`ours ${era}`)} ms; a stdio server with no MCP library ${over("noSdk")} ms; through the SDK's Client, 2025: ours ${over("oursSdk")} ms, bare ${over("bareSdk")} ms)`,
        pass: ours <= bare + 0.25,
      });
    }
  } finally {
    await Promise.allSettled(closers.map((close) => close()));
  }
}

// ---- 3. Streamable HTTP throughput ----
/** A tools/call POST as a client of `era` sends it: 2026-07-28 adds `_meta` and the SEP-2243 headers. */
function callRequest(call: { name: string; arguments: Record<string, unknown> }, era: Era) {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (era === "2025") return { headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: call }) };
  const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" }, "io.modelcontextprotocol/clientCapabilities": {} };
  return {
    headers: { ...headers, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": call.name },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...call, _meta } }),
  };
}

async function httpLoad(url: string | string[], seconds: number, call: { name: string; arguments: Record<string, unknown> } = { name: "list_pages", arguments: {} }, era: Era = "2025") {
  // Several URLs: the clients are spread over them, as a balancer spreads them over replicas.
  const targets = (Array.isArray(url) ? url : [url]).map((u) => new URL(u));
  const pools = targets.map((target) => new Pool(target.origin, { connections: Math.ceil(32 / targets.length) }));
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const { headers, body } = callRequest(call, era);
  const worker = async (i: number) => {
    const target = targets[i % targets.length]!;
    const pool = pools[i % pools.length]!;
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const res = await pool.request({ path: target.pathname, method: "POST", headers, body });
        const text = await res.body.text();
        if (res.statusCode !== 200 || text.includes('"isError":true') || !text.includes('"result"')) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: 32 }, (_, i) => worker(i)));
  await Promise.all(pools.map((pool) => pool.close()));
  return { rps: latencies.length / seconds, p99: percentile(latencies, 99), errors };
}

async function httpThroughput() {
  const seconds = n(8, 1);
  const ours = await spawnHttp(CLI, ["--http", "--port", "0"]);
  const bare = await spawnHttp(BARE, ["--http"]);
  try {
    for (const era of ERAS) {
      await httpLoad(ours.url, 0.5, undefined, era);
      await httpLoad(bare.url, 0.5, undefined, era);
      const a = await httpLoad(ours.url, seconds, undefined, era);
      const b = await httpLoad(bare.url, seconds, undefined, era);
      const ratio = a.rps / b.rps;
      row({
        figure: `Streamable HTTP, 32 concurrent ${era} clients, list_pages throughput`,
        value: Math.round(a.rps),
        unit: "calls/s",
        target: `>= 0.7x bare v2 SDK server (${Math.round(b.rps)}/s); ratio ${round(ratio)}; p99 ${round(a.p99, 1)} ms (bare ${round(b.p99, 1)} ms); errors ${a.errors} (bare ${b.errors})`,
        pass: ratio >= 0.7 && a.errors === 0,
      });
    }
  } finally {
    ours.stop();
    bare.stop();
  }
}

// ---- 3b. replicas sharing Redis ----
// Two replicas with the rate limit and caches in Redis against the same two with in-process state,
// 32 clients spread over them, a page-token read so every call goes through
// the limiter (raised out of the way: the figure is its cost, not the upstream's 5 a second).
async function replicasWithRedis() {
  const { startRedis } = await import("../test/helpers/redis.js");
  const redis = await startRedis();
  const fast = { PANCAKE_PAGE_RATE_PER_SECOND: "1000000" };
  const local = [await spawnHttp(CLI, ["--http", "--port", "0"], fast), await spawnHttp(CLI, ["--http", "--port", "0"], fast)];
  const shared = [
    await spawnHttp(CLI, ["--http", "--port", "0"], { ...fast, PANCAKE_REDIS_URL: redis.url }),
    await spawnHttp(CLI, ["--http", "--port", "0"], { ...fast, PANCAKE_REDIS_URL: redis.url }),
  ];
  const pages = sandbox.messaging.pages.map((p) => p.id);
  // A light page-token read (the tag list through the api toolset, never cached), so the figure
  // measures the server and Redis rather than the sandbox building conversation lists.
  const call = (i: number) => ({ name: "call_api_read", arguments: { operation: "messaging GET /public_api/v1/pages/{page_id}/tags", params: { page_id: pages[i % pages.length] } } });
  try {
    const seconds = n(4, 1);
    const totals = { local: 0, shared: 0, errors: 0 };
    await httpLoad(local.map((r) => r.url), 0.5, call(0));
    await httpLoad(shared.map((r) => r.url), 0.5, call(0));
    // Alternating rounds, so a neighbour's load on this 2-core machine falls on both alike.
    for (let r = 0; r < n(4, 1); r++) {
      const a = await httpLoad(local.map((x) => x.url), seconds, call(r));
      const b = await httpLoad(shared.map((x) => x.url), seconds, call(r));
      totals.local += a.rps;
      totals.shared += b.rps;
      totals.errors += a.errors + b.errors;
    }
    const ratio = totals.shared / totals.local;
    const rounds = n(4, 1);
    row({
      figure: "2 replicas sharing Redis vs the same 2 in-process, 32 clients, a page-token read (call_api_read), throughput",
      value: round(ratio),
      unit: "x",
      target: `>= 0.8x; ${Math.round(totals.shared / rounds)} vs ${Math.round(totals.local / rounds)} calls/s; errors ${totals.errors}`,
      pass: ratio >= 0.8 && totals.errors === 0,
    });

    // The limiter's added latency: one client calling one replica after another, with Redis and without.
    const sequential = async (url: string, count: number) => {
      const target = new URL(url);
      const pool = new Pool(target.origin, { connections: 1 });
      const times: number[] = [];
      const { headers, body } = callRequest(call(0), "2025");
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        const res = await pool.request({ path: target.pathname, method: "POST", headers, body });
        await res.body.text();
        times.push(performance.now() - t0);
      }
      await pool.close();
      return times;
    };
    const count = n(300, 30);
    await sequential(local[0]!.url, 50);
    await sequential(shared[0]!.url, 50);
    const without: number[] = [];
    const withRedis: number[] = [];
    for (let block = 0; block < 6; block++) {
      without.push(median(await sequential(local[0]!.url, count / 6)));
      withRedis.push(median(await sequential(shared[0]!.url, count / 6)));
    }
    const added = median(withRedis.map((t, i) => t - without[i]!));
    row({
      figure: "limiter added latency per call with Redis (the same read, one client, p50 with minus without)",
      value: round(added, 3),
      unit: "ms",
      target: `<= 1 ms; p50 ${round(median(withRedis), 2)} vs ${round(median(without), 2)} ms`,
      pass: added <= 1,
    });
  } finally {
    for (const r of [...local, ...shared]) r.stop();
    await redis.stop();
  }
}

// ---- 4. fan-out ----
async function fanOut() {
  const pageIds = sandbox.messaging.pages.map((p) => p.id).slice(0, 10);
  // Per-page fan-out is what is measured, so no user token (which would use the multi-page endpoint).
  const c = await stdioClient(CLI, { PANCAKE_ACCESS_TOKEN: "", PANCAKE_PAGE_ACCESS_TOKENS: Object.entries(sandbox.credentials.pageTokens).map(([k, v]) => `${k}=${v}`).join(",") });
  sandbox.server.injectFault({ kind: "latency", delayMs: 100, times: Number.POSITIVE_INFINITY, path: "/statistics/" });
  const time = async (ids: string[]) => {
    const t0 = performance.now();
    await callTool(c.client, "get_staff_stats", { page_ids: ids });
    return performance.now() - t0;
  };
  const one: number[] = [];
  const ten: number[] = [];
  for (let i = 0; i < n(5, 1); i++) {
    one.push(await time(pageIds.slice(0, 1)));
    ten.push(await time(pageIds));
  }
  sandbox.server.clearFaults();
  await c.close();
  const ratio = median(ten) / median(one);
  row({
    figure: `fan-out: staff statistics over ${pageIds.length} pages, 100 ms upstream latency`,
    value: Math.round(median(ten)),
    unit: "ms",
    target: `<= 2.5x one page (${Math.round(median(one))} ms); ratio ${round(ratio)}`,
    pass: ratio <= 2.5,
  });
}

// ---- 5. context cost ----
async function contextCost() {
  // What a stdio client is shown: the default tools with enable_toolset, and every toolset. The
  // budgets are test/tools/context-budget.test.ts's (the bench had kept older ones).
  for (const [label, toolsets, budget] of [
    ["all toolsets", "all", 12_800],
    ["default tools", "default", 6_600],
  ] as const) {
    const listing = await stdioClient(CLI, { PANCAKE_TOOLSETS: toolsets });
    const { tools } = await listing.client.listTools();
    await listing.close();
    const json = JSON.stringify({ tools });
    const tokens = countTokens(json);
    row({
      figure: `tools/list, ${label} (${tools.length} tools)`,
      value: tokens,
      unit: "tokens",
      target: `<= ${budget} (${json.length} bytes)`,
      pass: tokens <= budget,
    });
  }
  const c = await stdioClient(CLI);
  const shopId = sandbox.credentials.shopId;
  const page = sandbox.messaging.pages[0]!;
  const raw = async (url: string) => JSON.stringify(await (await request(url)).body.json());
  const convs = sandbox.messaging.conversations.filter((x) => x.page_id === page.id && x.type === "INBOX");
  const conversation = convs.find((x) => (sandbox.messaging.messages[x.id]?.length ?? 0) >= 40) ?? convs[0]!;
  const order = sandbox.pos.orders[0]!;
  const pat = page.settings.page_access_token;
  const cases: [string, string, Record<string, unknown>, string, number][] = [
    ["search_orders (30 rows)", "search_orders", { limit: 30 }, `${urls.posBaseUrl}/shops/${shopId}/orders?page_size=30&api_key=${sandbox.credentials.posApiKey}`, 0.2],
    ["list_conversations (50 rows)", "list_conversations", { page_ids: page.id, limit: 50 }, `${urls.messagingBaseUrl}/public_api/v2/pages/${page.id}/conversations?page_access_token=${pat}`, 0.25],
    [
      "list_messages (30 rows)",
      "list_messages",
      { page_id: page.id, conversation_id: conversation.id, limit: 30 },
      `${urls.messagingBaseUrl}/public_api/v1/pages/${page.id}/conversations/${conversation.id}/messages?page_access_token=${pat}&customer_id=${conversation.customer_id}&current_count=0`,
      0.4,
    ],
    ["get_order", "get_order", { order_id: String(order.id) }, `${urls.posBaseUrl}/shops/${shopId}/orders/${order.id}?api_key=${sandbox.credentials.posApiKey}`, 0.3],
  ];
  for (const [label, tool, args, url, target] of cases) {
    try {
      const result = await callTool(c.client, tool, args);
      const ours = result.content.map((x) => (x.type === "text" ? x.text : "")).join("");
      const upstream = await raw(url);
      const ratio = countTokens(ours) / countTokens(upstream);
      row({
        figure: `result size, ${label}`,
        value: round(ratio * 100, 1),
        unit: "% of raw upstream tokens",
        target: `<= ${target * 100}% (${countTokens(ours)} vs ${countTokens(upstream)} tokens; ${ours.length} vs ${upstream.length} bytes)`,
        pass: ratio <= target,
      });
    } catch (error) {
      row({ figure: `result size, ${label}`, value: Number.NaN, unit: "", target: String(error).slice(0, 120), pass: false });
    }
  }
  await c.close();
}

// ---- 5b. grouping on the server ----
// "Orders by province this month": the one group_by answer against the rows it summarises (every
// search_orders page of the same filter, 100 rows a call, as a model would page them), and its
// time against a bare search_orders page and a page of that search.
async function groupBy() {
  const c = await stdioClient(CLI);
  const month = { since: "last 30 days" };
  const grouped = { ...month, group_by: ["province"] };
  const text = (result: CallToolResult) => result.content.map((x) => (x.type === "text" ? x.text : "")).join("");
  const time = async (args: Record<string, unknown>) => {
    const t0 = performance.now();
    await callTool(c.client, "search_orders", args);
    return performance.now() - t0;
  };
  try {
    const answer = text(await callTool(c.client, "search_orders", grouped));
    let rowTokens = 0;
    let rows = 0;
    let cursor: string | undefined;
    do {
      const page = await callTool(c.client, "search_orders", { ...month, limit: 100, ...(cursor ? { cursor } : {}) });
      const data = page.structuredContent as { orders: unknown[]; next_cursor?: string };
      rowTokens += countTokens(text(page));
      rows += data.orders.length;
      cursor = data.next_cursor;
    } while (cursor);
    const share = countTokens(answer) / rowTokens;
    row({
      figure: "group_by answer size: orders by province over 30 days vs the rows it summarises",
      value: round(share * 100, 1),
      unit: "% of the rows' tokens",
      target: `<= 5% (${countTokens(answer)} vs ${rowTokens} tokens for ${rows} orders)`,
      pass: share <= 0.05,
    });
    await time(month);
    await time({});
    const grouping: number[] = [];
    // A page of the same 30 days also reads every match in full for its totals (up to 300), so
    // the grouping compares well with it; a bare page is one of all orders (more than 300
    // match, so it reads only its page): the ratio judged is against that one.
    const page: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < n(15, 3); i++) {
      grouping.push(await time(grouped));
      page.push(await time(month));
      bare.push(await time({}));
    }
    const ratio = median(grouping) / median(bare);
    row({
      figure: `group_by time: orders by province over 30 days (${rows} orders) vs one bare search_orders page, median`,
      value: round(median(grouping), 1),
      unit: "ms",
      target: `<= 3x a bare page (all orders, no totals read: ${round(median(bare), 1)} ms); ratio ${round(ratio)}; against a page of the same 30 days, which reads its ${rows} matches for totals (${round(median(page), 1)} ms): ratio ${round(median(grouping) / median(page))}`,
      pass: ratio <= 3,
    });
  } finally {
    await c.close();
  }
}

// ---- 6. memory ----
// As found, in a child nothing else touches: the target's own reading. V8 lets short-lived garbage
// pile up in old space until a full collection, so a single reading mostly says where in that
// saw-tooth it fell; the run goes on to show the range it keeps to, and a second child, asked for a
// full collection through the inspector at each mark, shows what the process keeps alive.
async function memory() {
  const first = n(1000, 100);
  const total = n(10_000, 500);
  const long = n(40_000, 1000);
  const asFound = async (bin: string, calls: number) => {
    const c = await lineClient(bin, env);
    const rss: number[] = [];
    try {
      for (let i = 1; i <= calls; i++) {
        await c.callTool("list_pages");
        if (i % first === 0) rss[i / first] = rssMb(c.pid);
      }
    } finally {
      await c.close();
    }
    return { at: (calls: number) => rss[calls / first]!, from: (calls: number) => rss.slice(calls / first) };
  };
  const ours = await asFound(CLI, long);
  const bare = await asFound(BARE, total);
  const kept = await afterCollection(CLI, first, total);
  const ratio = ours.at(total) / ours.at(first);
  const later = ours.from(total);
  row({
    figure: `resident memory after ${total} vs ${first} tool calls, as found`,
    value: round(ours.at(total), 1),
    unit: "MB",
    target: `<= 1.2x (${round(ours.at(first), 1)} MB); ratio ${round(ratio)}; calls ${total}–${long}: ${round(Math.min(...later), 1)}–${round(Math.max(...later), 1)} MB; after a full collection at each mark: ratio ${round(kept)}; bare SDK server as found: ratio ${round(bare.at(total) / bare.at(first))}`,
    pass: ratio <= 1.2,
  });
}

/** RSS after `total` vs after `first` calls, each read after a full collection. */
async function afterCollection(bin: string, first: number, total: number): Promise<number> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["--inspect=127.0.0.1:0", bin], env, stderr: "pipe" });
  const inspector = inspectorUrl(transport.stderr as Readable);
  inspector.catch(() => {});
  const client = new Client({ name: "bench-memory", version: "1.0.0" });
  try {
    await client.connect(transport);
    const url = await inspector;
    const kept = async () => {
      await collectGarbage(url);
      return rssMb(transport.pid!);
    };
    for (let i = 0; i < first; i++) await callTool(client, "list_pages");
    const early = await kept();
    for (let i = first; i < total; i++) await callTool(client, "list_pages");
    return (await kept()) / early;
  } finally {
    await client.close();
  }
}

// RSS also counts memory V8 keeps after growing its heap; the live heap after a full collection
// is what a leak would show in. Measured in-process (needs node --expose-gc), the sandbox's own
// request log cleared before each reading.
async function liveHeap() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return row({ figure: "live heap", value: Number.NaN, unit: "", target: "run with node --expose-gc", pass: null });
  const config = makeConfig({ baseUrl: urls.messagingBaseUrl, posBaseUrl: urls.posBaseUrl, accessToken: sandbox.credentials.userToken, logLevel: "error" });
  const logger = new Logger("error", false);
  const clients = createClients(config, logger);
  const server = buildServer({ config, clients, logger });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: "bench-heap", version: "1.0.0" });
  await client.connect(a);
  const heapMb = () => {
    sandbox.server.resetRecords();
    gc();
    gc();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  const first = n(1000, 100);
  const total = n(10_000, 500);
  for (let i = 0; i < first; i++) await callTool(client, "list_pages");
  const early = heapMb();
  for (let i = first; i < total; i++) await callTool(client, "list_pages");
  const late = heapMb();
  await client.close();
  await clients.close();
  row({
    figure: `live heap after a full GC, ${total} vs ${first} tool calls (in-process, with the sandbox)`,
    value: round(late, 1),
    unit: "MB",
    target: `<= 1.2x (${round(early, 1)} MB); ratio ${round(late / early)}`,
    pass: late / early <= 1.2,
  });
}

const nodeArgs = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [];
const figures: (readonly [string, () => Promise<void>])[] = [
  ["cold start", coldStart],
  ["tool-call overhead", callOverhead],
  ["HTTP throughput", httpThroughput],
  ["replicas with Redis", replicasWithRedis],
  ["fan-out", fanOut],
  ["context cost", contextCost],
  ["group_by", groupBy],
  ["memory", memory],
  ["live heap", liveHeap],
  // Minutes long at 100x (bench/data-scale.ts); --cpu-prof-dir=<dir> profiles its server processes.
  [
    "data scale",
    () =>
      dataScale(row, {
        smoke: SMOKE,
        cli: CLI,
        nodeArgs,
        scales: scales.filter((scale) => scale < BIG_SHOP),
        questions,
        // The default run repeats a question past the refresh interval; the named tiers a minute on.
        laterMs: askedScales || LONG ? 60_000 : 6_000,
      }),
  ],
  ...(bigShopScale ? [["big shop", () => bigShop(row, { cli: CLI, nodeArgs, scale: bigShopScale })] as const] : []),
  ...(EXAMPLES_UPSTREAM ? [["examples upstream", () => examplesUpstream(row, { cli: CLI, nodeArgs })] as const] : []),
];
// `--only=<figure name>` runs one figure (results.json then holds that row alone).
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
for (const [name, run] of figures.filter(([name]) => !only || name === only)) {
  process.stderr.write(`${name}...\n`);
  try {
    await run();
  } catch (error) {
    row({ figure: name, value: Number.NaN, unit: "", target: `error: ${String(error).slice(0, 160)}`, pass: false });
  }
}
await sandbox.close();

const machine = {
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memory_gb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  date: new Date().toISOString(),
  smoke: SMOKE,
};
writeFileSync(new URL("./results.json", import.meta.url), `${JSON.stringify({ machine, rows }, null, 2)}\n`);
const table = [
  "| figure | value | target | result |",
  "|---|---|---|---|",
  ...rows.map((r) => `| ${r.figure} | ${r.value} ${r.unit} | ${r.target} | ${r.pass === null ? "" : r.pass ? "pass" : "FAIL"} |`),
];
process.stdout.write(`\nMachine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory_gb} GB, Node ${machine.node}${SMOKE ? " (smoke)" : ""}\n\n${table.join("\n")}\n`);
