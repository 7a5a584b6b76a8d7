import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { modernHeaders, modernRpc, raw, rpcMessage } from "../helpers/raw-http.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";
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
    const edited = `${state.slice(0, -2)}${state.endsWith("A") ? "B" : "A"}${state.at(-1)}`;
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
