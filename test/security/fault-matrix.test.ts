import { type ChildProcess, spawn } from "node:child_process";
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Fault } from "../../src/sandbox/index.js";
import { MESSAGING_PREFIX, POS_PREFIX, Sandbox } from "../../src/sandbox/index.js";
import { allTools } from "../../src/tools/index.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { type Harness, startHarness } from "../helpers/harness.js";

/** One read tool per toolset and one write tool where the toolset writes, with the upstream route each hits. */
interface Target {
  toolset: string;
  api: "messaging" | "pos";
  read: string;
  readPath: RegExp;
  write?: string;
  writeMethod?: "POST" | "PUT";
  writePath?: RegExp;
  /** The read's arguments where the shared fixture's would read the same path again for something else. */
  readArgs?: (s: Harness["sandbox"]) => Record<string, unknown>;
}

/**
 * search_orders over every order counts every match after its rows (the status grouping, more
 * reads of the same list): the fault matrix asks for a status few enough to be counted from the
 * rows themselves, so each read of the list it counts is the rows' own.
 */
const fewOrders = (s: Harness["sandbox"]) => {
  const counts = new Map<string, number>();
  // Not a return status: asked about returns, the answer also reads what came back.
  for (const o of s.pos.orders) if (!o.is_removed && ![4, 5, 15].includes(o.status)) counts.set(o.status_name, (counts.get(o.status_name) ?? 0) + 1);
  return { limit: 5, statuses: [[...counts].find(([, n]) => n >= 1 && n <= 5)![0]] };
};

const TARGETS: Target[] = [
  { toolset: "pages", api: "messaging", read: "list_pages", readPath: /^\/api\/v1\/pages$/, write: "generate_page_access_token", writePath: /\/generate_page_access_token$/ },
  { toolset: "inbox", api: "messaging", read: "list_conversations", readPath: /\/conversations$/, write: "mark_conversation", writePath: /\/read$/ },
  { toolset: "page_data", api: "messaging", read: "list_posts", readPath: /\/posts$/ },
  { toolset: "page_stats", api: "messaging", read: "get_page_stats", readPath: /\/statistics\/pages$/ },
  { toolset: "shop", api: "pos", read: "list_warehouses", readPath: /\/warehouses$/, write: "save_warehouse", writePath: /\/warehouses$/ },
  { toolset: "orders", api: "pos", read: "search_orders", readPath: /\/orders$/, write: "create_order", writePath: /\/orders$/, readArgs: fewOrders },
  { toolset: "customers", api: "pos", read: "search_customers", readPath: /\/customers$/, write: "add_customer_note", writePath: /\/create_note$/ },
  // Asked for no status, the cash book also counts the entries not in effect (more reads of the same list): one status is named.
  { toolset: "finance", api: "pos", read: "list_transactions", readPath: /\/transactions$/, write: "create_transaction", writePath: /\/transactions$/, readArgs: () => ({ status: ["in_effect"], limit: 100 }) },
  { toolset: "analytics", api: "pos", read: "get_sales_analytics", readPath: /\/analytics\/sale$/ },
  { toolset: "inventory", api: "pos", read: "list_stock_exports", readPath: /\/export$/, write: "create_stock_export", writePath: /\/export$/ },
  { toolset: "promotions", api: "pos", read: "list_combos", readPath: /\/combo_products$/, write: "create_combo", writePath: /\/combo_products$/ },
  // catalog has only writes: its products are read through search_products.
  { toolset: "catalog", api: "pos", read: "search_products", readPath: /\/products\/variations$/, write: "create_product", writePath: /\/products$/ },
  { toolset: "fulfillment", api: "pos", read: "track_order", readPath: /\/orders\/\d+$/ },
  { toolset: "api", api: "pos", read: "call_api_read", readPath: /\/supplier$/, write: "call_api_write", writePath: /\/tags_products$/ },
];

type FaultSpec = Omit<Fault, "method" | "path" | "times">;
interface FaultCase {
  name: string;
  fault: FaultSpec;
  /** A read retries it, so a single occurrence is invisible to the caller. */
  transient: boolean;
  /** What the error text must say happened. */
  says: RegExp;
  /** A write met by it may have taken effect: "outcome unknown, check before retrying". */
  lost?: boolean;
  /** The upstream failed while handling a write: the text says to check before retrying. */
  unsure?: boolean;
  /** A refused credential: the next step names the setting of the API that refused it, not the other's. */
  setting?: { messaging: RegExp; pos: RegExp };
}

const SETTINGS = { messaging: /PANCAKE_ACCESS_TOKEN|PANCAKE_PAGE_ACCESS_TOKENS/, pos: /PANCAKE_POS_API_KEY/ };

const failure = (code: number, message: string, status = 200): FaultSpec => ({
  kind: "status",
  status,
  body: { success: false, error_code: code, message },
});

const FAULTS: FaultCase[] = [
  ...[500, 502, 503, 504].map((status) => ({
    name: `HTTP ${status}`,
    fault: { kind: "status", status } as FaultSpec,
    transient: true,
    says: new RegExp(`HTTP ${status}`),
    unsure: true,
  })),
  // Retry-After 0 keeps the matrix fast; a separate test shows a real Retry-After is waited out.
  { name: "429 with Retry-After", fault: { kind: "rate_limit", retryAfterSeconds: 0 }, transient: true, says: /HTTP 429[\s\S]*Rate limited/ },
  { name: "connection reset", fault: { kind: "reset" }, transient: true, says: /connection failed|outcome unknown/, lost: true },
  { name: "answer lost after handling", fault: { kind: "reset", afterHandling: true }, transient: true, says: /connection failed|outcome unknown/, lost: true },
  { name: "malformed JSON", fault: { kind: "malformed" }, transient: true, says: /not valid JSON|outcome unknown/, lost: true },
  { name: "HTML error page", fault: { kind: "html", status: 502 }, transient: true, says: /HTTP 502[\s\S]*Bad Gateway/, unsure: true },
  { name: "code 101", fault: failure(101, "Missing access_token"), transient: false, says: /code 101[\s\S]*Missing access_token/, setting: SETTINGS },
  { name: "code 102", fault: failure(102, "Invalid access_token"), transient: false, says: /code 102[\s\S]*Invalid access_token/, setting: { ...SETTINGS, messaging: /PANCAKE_PAGE_ACCESS_TOKENS/ } },
  { name: "code 105", fault: failure(105, "api_key is invalid"), transient: false, says: /code 105[\s\S]*api_key is invalid/, setting: SETTINGS },
  { name: "code 106", fault: failure(106, "You have reached the limit of requests"), transient: true, says: /code 106[\s\S]*Rate limited/ },
  {
    name: "401 expired user token",
    fault: { kind: "status", status: 401, body: { success: false, message: "Token expired" } },
    transient: false,
    says: /HTTP 401[\s\S]*Token expired/,
    setting: { ...SETTINGS, messaging: /expired or invalid[\s\S]*PANCAKE_ACCESS_TOKEN/ },
  },
  {
    name: "403 missing permission",
    fault: { kind: "status", status: 403, body: { success: false, message: "Insufficient permissions", permission: "order_update" } },
    transient: false,
    says: /HTTP 403[\s\S]*permission: order_update[\s\S]*lacks the permission/,
  },
];

const RETRY = { attempts: 2, baseDelayMs: 1, maxDelayMs: 5, budgetMs: 5_000 };
const RESPONSE_TIMEOUT_MS = 250;

function hits(h: Harness, method: string, path: RegExp): number {
  let n = 0;
  for (const [key, count] of h.sandbox.server.counts) {
    const [m, p] = [key.slice(0, key.indexOf(" ")), key.slice(key.indexOf(" ") + 1)];
    if (m === method && path.test(p)) n += count;
  }
  return n;
}

function expectExplained(r: { isError: boolean; text: string }, says: RegExp, target?: Target, c?: FaultCase) {
  expect(r.isError, r.text).toBe(true);
  expect(r.text).toMatch(says);
  expect(r.text).toMatch(/\nNext step: \S/);
  expect(r.text).not.toMatch(/<html|<\/?body|<h1/i);
  if (target && c?.setting) {
    const next = r.text.slice(r.text.indexOf("\nNext step:"));
    expect(next).toMatch(c.setting[target.api]);
    expect(next).not.toMatch(SETTINGS[target.api === "pos" ? "messaging" : "pos"]);
  }
}

const TIMEOUT: FaultCase = { name: "response timeout", fault: { kind: "timeout" }, transient: true, says: /no answer in time/, lost: true };

async function readCase(h: Harness, target: Target, c: FaultCase) {
  const inject = (times: number) => h.sandbox.server.injectFault({ ...c.fault, method: "GET", path: target.readPath, times });
  const call = () => h.call(target.read, target.readArgs?.(h.sandbox) ?? argsFor(target.read, h.sandbox));
  const tries = c.transient ? RETRY.attempts : 1;

  let before = hits(h, "GET", target.readPath);
  inject(tries);
  const failed = await call();
  expectExplained(failed, c.says, target, c);
  expect(hits(h, "GET", target.readPath) - before, `${target.read}: upstream tries`).toBe(tries);

  if (c.transient) {
    before = hits(h, "GET", target.readPath);
    inject(1);
    const recovered = await call();
    expect(recovered.isError, recovered.text).toBe(false);
    expect(hits(h, "GET", target.readPath) - before, `${target.read}: tries to recover`).toBe(2);
  }
  const next = await call();
  expect(next.isError, next.text).toBe(false);
}

async function writeCase(h: Harness, target: Target, c: FaultCase) {
  const method = target.writeMethod ?? "POST";
  const path = target.writePath!;
  const before = hits(h, method, path);
  h.sandbox.server.injectFault({ ...c.fault, method, path, times: 1 });
  const r = await h.call(target.write!, argsFor(target.write!, h.sandbox));
  expectExplained(r, c.lost ? /outcome unknown/ : c.says, target, c);
  if (c.lost || c.unsure) expect(r.text).toMatch(/check[^\n]*before retrying/i);
  else expect(r.text).not.toMatch(/outcome unknown/);
  expect(hits(h, method, path) - before, `${target.write} reaches the upstream exactly once`).toBe(1);
  const next = await h.call(target.read, argsFor(target.read, h.sandbox));
  expect(next.isError, next.text).toBe(false);
}

function checkCoverage() {
  const toolsets = new Set(allTools.map((t) => t.toolset));
  expect(TARGETS.map((t) => t.toolset).sort()).toEqual([...toolsets].sort());
  for (const target of TARGETS) {
    const writes = allTools.filter((t) => t.toolset === target.toolset && !t.annotations.readOnlyHint);
    expect(Boolean(target.write), target.toolset).toBe(writes.length > 0);
  }
}

describe("fault matrix: every upstream fault against a read and a write of each toolset", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      sandbox: { ratePerSecond: 100_000 },
      config: { retry: RETRY, responseTimeoutMs: RESPONSE_TIMEOUT_MS, pageRatePerSecond: 10_000 },
    });
    // Warm the caches (page tokens, shop id, names) so each fault meets the tool's own route.
    for (const t of TARGETS) {
      const r = await h.call(t.read, argsFor(t.read, h.sandbox));
      expect(r.isError, r.text).toBe(false);
    }
  });
  afterAll(async () => {
    await h.close();
  });

  it("covers every toolset, with a write where the toolset has one", checkCoverage);

  afterEach(() => {
    h.sandbox.server.clearFaults();
  });

  it.each(TARGETS.flatMap((t) => FAULTS.map((f) => [t.read, f.name, t, f] as const)))("%s meets %s", (_tool, _fault, target, c) =>
    readCase(h, target, c),
  );

  const writes = TARGETS.filter((t) => t.write);
  it.each(writes.flatMap((t) => FAULTS.map((f) => [t.write!, f.name, t, f] as const)))("%s meets %s", (_tool, _fault, target, c) =>
    writeCase(h, target, c),
  );

  // undici checks response timeouts on a coarse timer (about a second), so these run side by side;
  // each fault matches only its own route and is injected exactly as often as it should be met.
  it("every read meets a response timeout", async () => {
    await Promise.all(TARGETS.map((t) => readCase(h, t, TIMEOUT)));
  });

  it("every write meets a response timeout", async () => {
    await Promise.all(writes.map((t) => writeCase(h, t, TIMEOUT)));
  });

  it("waits out a real Retry-After before the retry of a read", async () => {
    h.sandbox.server.injectFault({ kind: "rate_limit", retryAfterSeconds: 1, method: "GET", path: /\/transactions$/, times: 1 });
    const started = Date.now();
    const r = await h.call("list_transactions", argsFor("list_transactions", h.sandbox));
    expect(r.isError, r.text).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });
});

/** A loopback TCP relay to the sandbox that can be shut, so that new connections are refused. */
async function startRelay(targetPort: () => number) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(targetPort(), "127.0.0.1");
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const shut = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  };
  await open();
  return { port: () => port, open, shut };
}

describe("connect failure: the upstream refuses the connection", () => {
  let h: Harness;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  beforeAll(async () => {
    let sandboxPort = 0;
    relay = await startRelay(() => sandboxPort);
    const origin = `http://127.0.0.1:${relay.port()}`;
    h = await startHarness({
      sandbox: { ratePerSecond: 100_000 },
      config: { retry: RETRY, pageRatePerSecond: 10_000, baseUrl: origin + MESSAGING_PREFIX, posBaseUrl: origin + POS_PREFIX },
    });
    sandboxPort = Number(new URL(h.sandbox.started.origin).port);
    for (const t of TARGETS) {
      const r = await h.call(t.read, argsOf(t.read));
      expect(r.isError, r.text).toBe(false);
    }
  });
  afterAll(async () => {
    await relay.shut();
    await h.close();
  });
  // A read as the matrix makes it (one request where the tool's default makes several at once:
  // the sockets they leave pooled, destroyed by the relay, would meet the next write instead).
  const argsOf = (tool: string) => TARGETS.find((t) => t.read === tool)?.readArgs?.(h.sandbox) ?? argsFor(tool, h.sandbox);
  it.each(TARGETS.flatMap((t) => [t.read, ...(t.write ? [t.write] : [])]))("%s explains it, sends nothing, and recovers once the upstream is back", async (tool) => {
    await relay.shut();
    const before = h.sandbox.server.requests.length;
    const r = await h.call(tool, argsOf(tool));
    const reached = h.sandbox.server.requests.slice(before);
    await relay.open();
    // A write may first read (a product lookup); whichever call met the refusal says so.
    expectExplained(r, /connection failed \(ECONNREFUSED\)[\s\S]*try again/);
    expect(r.text).not.toMatch(/outcome unknown/);
    expect(reached).toEqual([]);
    const next = await h.call(tool, argsOf(tool));
    expect(next.isError, next.text).toBe(false);
  });
});

describe("connect timeout: the upstream never completes the handshake", () => {
  // A socket that listens with a backlog of 0 and never accepts: once one connection fills its
  // queue the kernel drops further SYNs, so a connect hangs until the client's timeout.
  let hole: ChildProcess;
  let filler: Socket;
  let h: Harness;
  beforeAll(async () => {
    hole = spawn("python3", [
      "-c",
      "import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1',0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\ntime.sleep(300)",
    ]);
    const port = await new Promise<number>((resolve) => hole.stdout!.once("data", (d: Buffer) => resolve(Number(String(d).trim()))));
    filler = connect(port, "127.0.0.1");
    filler.on("error", () => {});
    await new Promise((resolve) => filler.once("connect", resolve));
    const origin = `http://127.0.0.1:${port}`;
    // The seed is deterministic: a second, unstarted sandbox tells the page tokens, so the write
    // below is the first request (no page-list read before it).
    const { pageTokens } = new Sandbox().credentials;
    h = await startHarness({
      sandbox: { ratePerSecond: 100_000 },
      config: { retry: RETRY, connectTimeoutMs: 200, pageAccessTokens: pageTokens, baseUrl: origin + MESSAGING_PREFIX, posBaseUrl: origin + POS_PREFIX },
    });
  });
  afterAll(async () => {
    filler?.destroy();
    hole?.kill();
    await h?.close();
  });

  it("a read says no answer came in time and what to do", async () => {
    const r = await h.call("list_conversations", argsFor("list_conversations", h.sandbox));
    expectExplained(r, /no answer in time \(UND_ERR_CONNECT_TIMEOUT\)[\s\S]*try again/);
  });

  it("a write that never connected says nothing was sent, not outcome unknown", async () => {
    const r = await h.call("mark_conversation", argsFor("mark_conversation", h.sandbox));
    expectExplained(r, /UND_ERR_CONNECT_TIMEOUT[\s\S]*Nothing was sent; it is safe to try again/);
    expect(r.text).not.toMatch(/outcome unknown/);
  });
});
