// The sandbox in a process of its own, as the real upstream is: a direct call to it then crosses
// the same process boundary as the server's own upstream call, so subtracting it leaves exactly
// what the MCP layer adds. Sends its URLs and credentials over IPC; exits when the parent goes.
// SANDBOX_SCALE and SANDBOX_LATENCY_MS make it a bigger or slower shop (SandboxOptions);
// SANDBOX_RATE_PER_SECOND sets its per-page limit (default: out of the way), SANDBOX_EXTRA_PAGES
// its small branch pages (default 7, for the fan-out figure; 0 is the demo's shape),
// SANDBOX_UPSTREAM=examples answers the vendor's documented examples only. Over IPC it answers
// the bench's questions (bench/sandbox-fork.ts): upstream requests since a mark, by endpoint; the
// most requests one page got in any second and the 429s it answered; the true answers counted
// from its raw records (data-truth.ts); what a list page costs (sandbox-pages.ts); and it takes
// quirks (Sandbox.misbehave).
import { performance } from "node:perf_hooks";
import { type Quirk, Sandbox } from "../src/sandbox/index.js";
import { type Truth, type TruthQuestion, truth } from "./data-truth.js";
import { timePages } from "./sandbox-pages.js";

export type Ask =
  | { op: "mark" }
  | { op: "requests" }
  | { op: "pace" }
  | { op: "truth"; question: TruthQuestion }
  | { op: "pages" }
  | { op: "misbehave"; quirks: Quirk[] };
export type Answer =
  | { op: "mark" }
  | { op: "requests"; total: number; byEndpoint: Record<string, number> }
  | { op: "pace"; busiest: number; page: string; limited: number }
  | { op: "truth"; truth: Truth }
  | { op: "pages"; pages: Record<string, number>; search: number }
  | { op: "misbehave" };

const number = (text: string | undefined) => (text ? Number(text) : undefined);
const built = performance.now();
const sandbox = new Sandbox({
  ratePerSecond: number(process.env.SANDBOX_RATE_PER_SECOND) ?? 1_000_000,
  extraPages: number(process.env.SANDBOX_EXTRA_PAGES) ?? 7,
  scale: number(process.env.SANDBOX_SCALE),
  latencyMs: number(process.env.SANDBOX_LATENCY_MS),
  upstream: process.env.SANDBOX_UPSTREAM === "examples" ? "examples" : undefined,
});
const buildMs = performance.now() - built;
(globalThis as { gc?: () => void }).gc?.();

/** A request's endpoint: its API, method and path with the ids taken out. */
const endpoint = (api: string, method: string, path: string) =>
  `${api} ${method} ${path
    .split("/")
    .map((s) => (/\d/.test(s) && !/^v\d$/.test(s) ? ":id" : s))
    .join("/")}`;
let counts = new Map<string, number>();
/** Arrivals of the last second per rate key (a page), and the most any key had in one second. */
let recent = new Map<string, number[]>();
let busiest = { count: 0, page: "" };
let limitedAtMark = 0;
const limited = () => [...sandbox.server.limited.values()].reduce((a, b) => a + b, 0);
sandbox.server.onRequest((r) => {
  // The rate key the route gives it, as the sandbox's limiter counts arrivals (every one, refused ones too).
  const found = sandbox.server.router.match(r.method, r.path);
  const key = found?.route.options.rateKey?.({ method: r.method, path: r.path, query: new URLSearchParams(), params: found.params, headers: {}, body: r.body });
  if (key === undefined) return;
  const times = (recent.get(key) ?? []).filter((t) => t > r.at - 1000);
  times.push(r.at);
  recent.set(key, times);
  if (times.length > busiest.count) busiest = { count: times.length, page: key };
});
sandbox.onUpstreamRequest((r) => {
  const key = endpoint(r.api, r.method, r.path);
  counts.set(key, (counts.get(key) ?? 0) + 1);
});

function answer(ask: Ask): Answer {
  switch (ask.op) {
    case "mark":
      counts = new Map();
      recent = new Map();
      busiest = { count: 0, page: "" };
      limitedAtMark = limited();
      return { op: "mark" };
    case "requests":
      return { op: "requests", total: [...counts.values()].reduce((a, b) => a + b, 0), byEndpoint: Object.fromEntries(counts) };
    case "pace":
      return { op: "pace", busiest: busiest.count, page: busiest.page, limited: limited() - limitedAtMark };
    case "truth":
      return { op: "truth", truth: truth(sandbox, ask.question) };
    case "pages":
      return { op: "pages", ...timePages(sandbox) };
    case "misbehave":
      sandbox.behave();
      for (const quirk of ask.quirks) sandbox.misbehave(quirk);
      return { op: "misbehave" };
  }
}

const urls = await sandbox.start();
process.on("message", (m) => {
  const ask = m as Ask & { id: number };
  process.send?.({ ...answer(ask), id: ask.id });
});
process.send?.({ urls, credentials: sandbox.credentials, buildMs, heapMb: process.memoryUsage().heapUsed / 2 ** 20 });
process.on("disconnect", () => process.exit(0));
