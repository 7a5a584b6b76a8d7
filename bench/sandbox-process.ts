// The sandbox in a process of its own, as the real upstream is: a direct call to it then crosses
// the same process boundary as the server's own upstream call, so subtracting it leaves exactly
// what the MCP layer adds. Sends its URLs and credentials over IPC; exits when the parent goes.
// SANDBOX_SCALE and SANDBOX_LATENCY_MS make it a bigger or slower shop (SandboxOptions);
// SANDBOX_RATE_PER_SECOND sets its per-page limit (default: out of the way), SANDBOX_EXTRA_PAGES
// its small branch pages (default 7, for the fan-out figure; 0 is the demo's shape). Over IPC it answers
// the bench's questions (bench/sandbox-fork.ts): upstream requests since a mark, by endpoint, and
// the true answers counted from its raw records (data-truth.ts).
import { Sandbox } from "../src/sandbox/index.js";
import { type Truth, type TruthQuestion, truth } from "./data-truth.js";

export type Ask = { op: "mark" } | { op: "requests" } | { op: "truth"; question: TruthQuestion };
export type Answer = { op: "mark" } | { op: "requests"; total: number; byEndpoint: Record<string, number> } | { op: "truth"; truth: Truth };

const number = (text: string | undefined) => (text ? Number(text) : undefined);
const sandbox = new Sandbox({
  ratePerSecond: number(process.env.SANDBOX_RATE_PER_SECOND) ?? 1_000_000,
  extraPages: number(process.env.SANDBOX_EXTRA_PAGES) ?? 7,
  scale: number(process.env.SANDBOX_SCALE),
  latencyMs: number(process.env.SANDBOX_LATENCY_MS),
});

/** A request's endpoint: its API, method and path with the ids taken out. */
const endpoint = (api: string, method: string, path: string) =>
  `${api} ${method} ${path
    .split("/")
    .map((s) => (/\d/.test(s) && !/^v\d$/.test(s) ? ":id" : s))
    .join("/")}`;
let counts = new Map<string, number>();
sandbox.onUpstreamRequest((r) => {
  const key = endpoint(r.api, r.method, r.path);
  counts.set(key, (counts.get(key) ?? 0) + 1);
});

function answer(ask: Ask): Answer {
  switch (ask.op) {
    case "mark":
      counts = new Map();
      return { op: "mark" };
    case "requests":
      return { op: "requests", total: [...counts.values()].reduce((a, b) => a + b, 0), byEndpoint: Object.fromEntries(counts) };
    case "truth":
      return { op: "truth", truth: truth(sandbox, ask.question) };
  }
}

const urls = await sandbox.start();
process.on("message", (m) => {
  const ask = m as Ask & { id: number };
  process.send?.({ ...answer(ask), id: ask.id });
});
process.send?.({ urls, credentials: sandbox.credentials });
process.on("disconnect", () => process.exit(0));
