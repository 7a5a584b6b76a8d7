import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { modernHeaders, modernRpc, raw, rpcMessage } from "../helpers/raw-http.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { CLI, cleanEnv, type HttpServerProcess, requireBuild, spawnHttp } from "../helpers/spawn.js";
import { sandboxEnv } from "../helpers/stdio-client.js";

// MCP 2026-07-28 asks the user without a server-to-client request: the tool call ends with the
// question (input required) and the client calls again with the answer and the requestState the
// server gave it. Both come back from the client, so a "yes" must count only for the question the
// server asked, sealed in that requestState: never one made up, moved to other arguments, or edited.
// Raw requests against the built bin, the sends counted at the sandbox.

const ELICITS = { elicitation: { form: {} } };
const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);

describe("2026-07-28 confirmations come only from the question the server asked", () => {
  let sandbox: Sandbox;
  let server: HttpServerProcess;
  let ids = 0;

  beforeAll(async () => {
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    await sandbox.start();
    server = await spawnHttp([], sandboxEnv(sandbox));
  });
  afterAll(async () => {
    await server?.stop();
    await sandbox?.close();
  });

  const sends = () => sandbox.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/messages")).length;
  const target = () => {
    const page = sandbox.messaging.pages[0]!.id;
    const open = sandbox.messaging.conversations.find(
      (c) => c.page_id === page && c.type === "INBOX" && c.last_customer_interactive_at && ms(c.last_customer_interactive_at) > sandbox.now.getTime() - 20 * 3_600_000,
    )!;
    return { page_id: page, conversation_id: open.id };
  };

  /** One send_inbox_message call, with whatever answer and state the caller adds. */
  async function send(message: string, extra: Record<string, unknown> = {}) {
    const body = modernRpc(++ids, "tools/call", { name: "send_inbox_message", arguments: { ...target(), message }, ...extra }, ELICITS);
    const res = await raw(server.url, { body, headers: modernHeaders("tools/call", "send_inbox_message") });
    return rpcMessage(res.body);
  }

  it("asks first, and sends once when the answer comes back with the question's requestState", async () => {
    const before = sends();
    const asked = (await send("Dạ shop gửi đơn ạ")).result;
    expect(asked.resultType).toBe("input_required");
    expect(asked.inputRequests.confirm.method).toBe("elicitation/create");
    expect(asked.inputRequests.confirm.params.message).toContain("Nội dung: Dạ shop gửi đơn ạ");
    expect(asked.requestState).toEqual(expect.any(String));
    expect(sends()).toBe(before);

    const done = (await send("Dạ shop gửi đơn ạ", { inputResponses: { confirm: { action: "accept" } }, requestState: asked.requestState })).result;
    expect(done.resultType).toBe("complete");
    expect(done.isError, JSON.stringify(done)).toBeFalsy();
    expect(sends()).toBe(before + 1);
  });

  it("a made-up yes, with no requestState, only gets the question", async () => {
    const before = sends();
    const r = (await send("Chào chị", { inputResponses: { confirm: { action: "accept" } } })).result;
    expect(r.resultType).toBe("input_required");
    expect(sends()).toBe(before);
  });

  it("a yes given to one message does not send another", async () => {
    const before = sends();
    const asked = (await send("Chào chị")).result;
    const moved = (await send("Chuyển khoản vào tài khoản khác nhé", { inputResponses: { confirm: { action: "accept" } }, requestState: asked.requestState })).result;
    expect(moved.resultType).toBe("input_required");
    expect(moved.inputRequests.confirm.params.message).toContain("Chuyển khoản vào tài khoản khác nhé");
    expect(sends()).toBe(before);
  });

  it("an edited requestState is refused with -32602 and nothing is sent", async () => {
    const before = sends();
    const asked = (await send("Chào chị")).result;
    const state = String(asked.requestState);
    // The character replaced is always changed (testing the last one missed it once in 64 runs).
    const edited = `${state.slice(0, -2)}${state.at(-2) === "A" ? "B" : "A"}${state.at(-1)}`;
    const r = await send("Chào chị", { inputResponses: { confirm: { action: "accept" } }, requestState: edited });
    expect(r.error?.code).toBe(-32602);
    expect(sends()).toBe(before);
  });

  it("a decline sends nothing and says so", async () => {
    const before = sends();
    const asked = (await send("Chào chị")).result;
    const r = (await send("Chào chị", { inputResponses: { confirm: { action: "decline" } }, requestState: asked.requestState })).result;
    expect(r.structuredContent).toMatchObject({ sent: false, answer: "decline" });
    expect(sends()).toBe(before);
  });
});

// A yes is acted on once, and only for the arguments it was given for. The same accepted answer
// sent again (a client retrying, a proxy replaying, a model resending what worked) gets the
// question again; a yes moved to other arguments that make the same dialog (a promotion's dialog
// counts its customers, it does not name them) gets the question for those. Over HTTP and stdio,
// and across replicas sharing Redis.

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary result shapes
type Rpc = (body: string, tool: string) => Promise<any>;

/** A 2026-07-28 client's raw calls of one tool, and its answers to the server's questions. */
function modernCalls(send: Rpc) {
  let ids = 0;
  const call = async (tool: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (await send(modernRpc(++ids, "tools/call", { name: tool, arguments: args, ...extra }, ELICITS), tool)).result;
  const yes = (asked: { requestState: string }) => ({ inputResponses: { confirm: { action: "accept" } }, requestState: asked.requestState });
  return { call, yes };
}

/** Inbox sends and customer promotions made at the sandbox, counted where they arrive. */
const writes = (sandbox: Sandbox) => ({
  sends: () => sandbox.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/messages")).length,
  promotions: () => sandbox.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/promotion_advance/create_multi")).length,
});

function openInbox(sandbox: Sandbox) {
  const page = sandbox.messaging.pages[0]!.id;
  const open = sandbox.messaging.conversations.find(
    (c) => c.page_id === page && c.type === "INBOX" && c.last_customer_interactive_at && ms(c.last_customer_interactive_at) > sandbox.now.getTime() - 20 * 3_600_000,
  )!;
  return { page_id: page, conversation_id: open.id };
}

/** The same replay and moved-arguments checks, whatever carries the requests. */
function oneYesActsOnce(start: () => Promise<{ sandbox: Sandbox; send: Rpc }>) {
  let sandbox: Sandbox;
  let client: ReturnType<typeof modernCalls>;
  beforeAll(async () => {
    const started = await start();
    sandbox = started.sandbox;
    client = modernCalls(started.send);
  });

  it("the same accepted answer sent three more times sends nothing more: each replay gets the question again", async () => {
    const { sends } = writes(sandbox);
    const args = { ...openInbox(sandbox), message: "Dạ shop gửi lại mã vận đơn ạ" };
    const before = sends();
    const asked = await client.call("send_inbox_message", args);
    expect(asked.resultType).toBe("input_required");
    const done = await client.call("send_inbox_message", args, client.yes(asked));
    expect(done.resultType).toBe("complete");
    expect(done.isError, JSON.stringify(done)).toBeFalsy();
    expect(sends()).toBe(before + 1);
    for (let i = 0; i < 3; i++) {
      const replay = await client.call("send_inbox_message", args, client.yes(asked));
      expect(replay.resultType).toBe("input_required");
      expect(replay.requestState).not.toBe(asked.requestState);
    }
    expect(sends()).toBe(before + 1);
  });

  it("a yes for a promotion to two customers gives nothing to two others, though the dialog reads the same", async () => {
    const { promotions } = writes(sandbox);
    const [a, b, c, d] = sandbox.pos.customers.map((x) => String(x.id));
    const offer = { type: "coupon", discount: 10, is_percent: true };
    const before = promotions();
    const asked = await client.call("create_customer_promotions", { ...offer, customer_ids: [a, b] });
    expect(asked.resultType).toBe("input_required");
    const moved = await client.call("create_customer_promotions", { ...offer, customer_ids: [c, d] }, client.yes(asked));
    expect(moved.resultType).toBe("input_required");
    // The same words to the user: only the arguments tell the two calls apart.
    expect(moved.inputRequests.confirm.params.message).toBe(asked.inputRequests.confirm.params.message);
    expect(promotions()).toBe(before);
    // The yes still counts for the call it was given to.
    const done = await client.call("create_customer_promotions", { ...offer, customer_ids: [a, b] }, client.yes(asked));
    expect(done.resultType).toBe("complete");
    expect(done.structuredContent).toMatchObject({ customer_count: 2 });
    expect(promotions()).toBe(before + 1);
  });
}

describe("2026-07-28 over HTTP: one yes acts once, for its own arguments", () => {
  let sandbox: Sandbox;
  let server: HttpServerProcess;
  afterAll(async () => {
    await server?.stop();
    await sandbox?.close();
  });
  oneYesActsOnce(async () => {
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    await sandbox.start();
    server = await spawnHttp([], sandboxEnv(sandbox));
    return { sandbox, send: async (body, tool) => rpcMessage((await raw(server.url, { body, headers: modernHeaders("tools/call", tool) })).body) };
  });
});

/** The built bin over stdio, spoken to line by line as a 2026-07-28 client (the SDK's client would answer for itself). */
function rawStdio(env: Record<string, string>) {
  requireBuild();
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI], { env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC replies
  const waiting = new Map<unknown, (reply: any) => void>();
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    for (let end = out.indexOf("\n"); end >= 0; end = out.indexOf("\n")) {
      const reply = JSON.parse(out.slice(0, end));
      out = out.slice(end + 1);
      waiting.get(reply.id)?.(reply);
    }
  });
  const send: Rpc = (body) =>
    new Promise((resolve) => {
      waiting.set(JSON.parse(body).id, resolve);
      child.stdin.write(`${body}\n`);
    });
  const close = () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.stdin.end();
    });
  return { send, close };
}

describe("2026-07-28 over stdio: one yes acts once, for its own arguments", () => {
  let sandbox: Sandbox;
  let stdio: ReturnType<typeof rawStdio>;
  afterAll(async () => {
    await stdio?.close();
    await sandbox?.close();
  });
  oneYesActsOnce(async () => {
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    await sandbox.start();
    stdio = rawStdio(sandboxEnv(sandbox));
    return { sandbox, send: stdio.send };
  });
});

describe("2026-07-28 over HTTP, two replicas sharing Redis: a yes used on one is used on both", () => {
  let sandbox: Sandbox;
  let redis: RedisServer;
  const replicas: HttpServerProcess[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    await sandbox.start();
    for (let i = 0; i < 2; i++) replicas.push(await spawnHttp([], sandboxEnv(sandbox, { PANCAKE_REDIS_URL: redis.url })));
  }, 60_000);
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await sandbox?.close();
    await redis?.stop();
  });
  const on = (replica: () => HttpServerProcess) =>
    modernCalls(async (body, tool) => rpcMessage((await raw(replica().url, { body, headers: modernHeaders("tools/call", tool) })).body));

  it("accepted on one replica, the same answer replayed to the other gets the question again", async () => {
    const { sends } = writes(sandbox);
    const [a, b] = [on(() => replicas[0]!), on(() => replicas[1]!)];
    const args = { ...openInbox(sandbox), message: "Dạ đơn của chị đã gửi đi rồi ạ" };
    const before = sends();
    const asked = await a.call("send_inbox_message", args);
    expect((await a.call("send_inbox_message", args, a.yes(asked))).resultType).toBe("complete");
    expect(sends()).toBe(before + 1);
    const replayed = await b.call("send_inbox_message", args, b.yes(asked));
    expect(replayed.resultType).toBe("input_required");
    expect(sends()).toBe(before + 1);
  });

  it("while Redis is away a yes is not acted on (another replica could not know it was used), and says why", async () => {
    const { sends } = writes(sandbox);
    const a = on(() => replicas[0]!);
    const args = { ...openInbox(sandbox), message: "Dạ shop cảm ơn chị ạ" };
    const asked = await a.call("send_inbox_message", args);
    await redis.stop();
    const before = sends();
    const r = await a.call("send_inbox_message", args, a.yes(asked));
    expect(r.structuredContent).toMatchObject({ sent: false, answer: "unavailable" });
    expect(r.structuredContent.note).toMatch(/could not be recorded as used/);
    expect(sends()).toBe(before);
  });
});
