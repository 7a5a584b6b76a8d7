import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { type ClientEra, MATRIX, openSession, type Session, type TransportName } from "../helpers/eras.js";
import { requireBuild } from "../helpers/spawn.js";

// The user's yes before a write reaches a customer or moves money, through the built server and
// the SDKs' own clients of both protocol generations, over stdio and stateless HTTP, with the
// upstream requests counted at the sandbox: an accepted send goes once with the user's edit, a
// declined one never leaves. A 2025-era client is asked with elicitation/create during the call; a
// 2026-07-28 client gets the question as the call's result (input required) and calls again with
// the answer.

const ms = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
let sandbox: Sandbox;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  sandbox = new Sandbox();
  const urls = await sandbox.start();
  env = {
    PANCAKE_BASE_URL: urls.messagingBaseUrl,
    PANCAKE_POS_BASE_URL: urls.posBaseUrl,
    PANCAKE_ACCESS_TOKEN: sandbox.credentials.userToken,
    PANCAKE_POS_API_KEY: sandbox.credentials.posApiKey,
    PANCAKE_TOOLSETS: "all",
  };
});
afterAll(async () => {
  await sandbox?.close();
});

const open = (era: ClientEra, transport: TransportName, elicits: boolean, extra: Record<string, string> = {}) =>
  openSession(era, transport, { elicits, env: { ...env, ...extra } });

/** An INBOX conversation open for sending (the customer wrote within 24 h). */
function openConversation() {
  const pageId = sandbox.messaging.pages[0]!.id;
  const now = sandbox.now.getTime();
  const open = sandbox.messaging.conversations.find(
    (c) => c.page_id === pageId && c.type === "INBOX" && c.last_customer_interactive_at && ms(c.last_customer_interactive_at) > now - 20 * 3_600_000,
  )!;
  return { page_id: pageId, conversation_id: open.id };
}

/** An INBOX conversation whose customer last wrote days ago: the platform refuses a message there. */
function staleConversation() {
  const pageId = sandbox.messaging.pages[0]!.id;
  const now = sandbox.now.getTime();
  const stale = sandbox.messaging.conversations.find(
    (c) => c.page_id === pageId && c.type === "INBOX" && c.last_customer_interactive_at && ms(c.last_customer_interactive_at) < now - 3 * 86_400_000,
  )!;
  return { page_id: pageId, conversation_id: stale.id };
}

const sends = () => sandbox.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/messages"));
const transactions = () => sandbox.server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/transactions"));

const call = (s: Session, name: string, args: Record<string, unknown>) => s.call(name, args);

for (const { era, transport, label } of MATRIX) {
  // Stateless HTTP: a 2025-era request's server never saw the client's initialize, so it cannot know
  // the client could answer; asking there takes PANCAKE_CONFIRM_WRITES=always (auto keeps the
  // earlier behaviour; tested below). A 2026-07-28 client states its capabilities on every request.
  const mode = era === "2025" && transport === "HTTP" ? "always" : "auto";
  describe(`confirm before sending: ${label} (${mode})`, () => {
    let s: Session;
    beforeAll(async () => {
      s = await open(era, transport, true, { PANCAKE_CONFIRM_WRITES: mode });
    });
    afterAll(async () => {
      await s?.close();
    });

    it("accept: sends once, with the text as the user edited it", async () => {
      const target = openConversation();
      const before = sends().length;
      s.answer = () => ({ action: "accept", content: { message: "Dạ, shop gửi chị đơn ngay hôm nay ạ" } });
      const r = await call(s, "send_inbox_message", { ...target, message: "Dạ shop gửi đơn ạ" });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.message_id).toBeTruthy();
      expect(s.asked).toHaveLength(1);
      const { message, schema } = s.asked[0]!;
      expect(message).toContain("Gửi tin nhắn này cho khách?");
      expect(message).toContain("Nội dung: Dạ shop gửi đơn ạ");
      expect(message).toContain(`Trang: ${sandbox.messaging.pages[0]!.name}`);
      expect(schema).toMatchObject({ properties: { message: { type: "string", default: "Dạ shop gửi đơn ạ" } }, required: ["message"] });
      expect(sends().length - before).toBe(1);
      expect(JSON.stringify(sends().at(-1)!.body)).toContain("Dạ, shop gửi chị đơn ngay hôm nay ạ");
      s.asked.length = 0;
    });

    it("decline: nothing reaches the upstream, and the result says so without an error", async () => {
      const before = sends().length;
      s.answer = () => ({ action: "decline" });
      const r = await call(s, "send_inbox_message", { ...openConversation(), message: "Chào chị" });
      expect(r.isError).toBe(false);
      expect(r.data).toMatchObject({ sent: false, answer: "decline" });
      expect(r.data.note).toMatch(/nothing was sent/);
      expect(JSON.parse(r.text)).toEqual(r.data);
      expect(sends().length).toBe(before);
      s.asked.length = 0;
    });

    it("a message past the 24-hour window: refused before the question, nothing reaches the upstream", async () => {
      const before = sends().length;
      s.answer = () => ({ action: "accept" });
      const r = await call(s, "send_inbox_message", { ...staleConversation(), message: "Chào chị" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("more than 24 hours ago");
      expect(s.asked).toHaveLength(0);
      expect(sends().length).toBe(before);
    });

    it("cancel of a money write: no transaction is recorded; accept records it once", async () => {
      const before = transactions().length;
      s.answer = () => ({ action: "cancel" });
      const args = { name: "Tiền điện tháng 11", amount: -1_250_000, payments: ["cash"] };
      const cancelled = await call(s, "create_transaction", args);
      expect(cancelled.data).toMatchObject({ sent: false, answer: "cancel" });
      expect(transactions().length).toBe(before);
      expect(s.asked[0]!.message).toContain("Ghi phiếu chi này?");
      expect(s.asked[0]!.message).toMatch(/Số tiền: 1\.250\.000\s₫/);
      // No text to edit: the form asks for a yes or no only.
      expect(s.asked[0]!.schema).toMatchObject({ type: "object", properties: {} });
      s.answer = () => ({ action: "accept" });
      const done = await call(s, "create_transaction", args);
      expect(done.isError, done.text).toBe(false);
      expect(transactions().length).toBe(before + 1);
      s.asked.length = 0;
    });

    it("a raw write through the api tools asks too, showing the operation and its body", async () => {
      const vouchers = () => sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/vouchers"));
      const before = vouchers().length;
      const body = { name: "Giảm 40k", promo_code_info: { discount: 40_000, is_percent: false }, start_time: "2026-12-01T00:00:00Z", end_time: "2026-12-31T00:00:00Z" };
      s.answer = () => ({ action: "decline" });
      const declined = await call(s, "call_api_write", { operation: "pos POST /shops/{shop_id}/vouchers", body });
      expect(declined.data).toMatchObject({ sent: false, answer: "decline" });
      expect(s.asked[0]!.message).toContain("Thao tác: pos POST /shops/{shop_id}/vouchers");
      expect(s.asked[0]!.message).toContain("Giảm 40k");
      expect(vouchers().length).toBe(before);
      s.answer = () => ({ action: "accept" });
      const done = await call(s, "call_api_write", { operation: "pos POST /shops/{shop_id}/vouchers", body });
      expect(done.isError, done.text).toBe(false);
      expect(vouchers().length).toBe(before + 1);
      s.asked.length = 0;
    });
  });
}

/** Runs `fn` in a fresh session, closed whatever happens. */
async function within(session: Promise<Session>, fn: (s: Session) => Promise<void>): Promise<void> {
  const s = await session;
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

describe("without a confirmation", () => {
  it.each(MATRIX.filter((m) => m.transport === "stdio"))("a client without elicitation sends as before ($label, auto)", async ({ era, transport }) => {
    await within(open(era, transport, false), async (s) => {
      const before = sends().length;
      const r = await call(s, "send_inbox_message", { ...openConversation(), message: "Shop chào chị ạ" });
      expect(r.isError, r.text).toBe(false);
      expect(sends().length - before).toBe(1);
    });
  });

  it.each([
    ["2025", "stdio"],
    ["2026-07-28", "HTTP"],
  ] as const)("never: does not ask even a client that could (%s client over %s)", async (era, transport) => {
    await within(open(era, transport, true, { PANCAKE_CONFIRM_WRITES: "never" }), async (s) => {
      const before = sends().length;
      await call(s, "send_inbox_message", { ...openConversation(), message: "Shop chào chị ạ" });
      expect(s.asked).toHaveLength(0);
      expect(sends().length - before).toBe(1);
    });
  });

  it.each([
    ["2025", "stdio"],
    ["2026-07-28", "HTTP"],
  ] as const)("always: a client that cannot ask gets nothing sent, and is told why (%s client over %s)", async (era, transport) => {
    await within(open(era, transport, false, { PANCAKE_CONFIRM_WRITES: "always" }), async (s) => {
      const before = sends().length;
      const r = await call(s, "send_inbox_message", { ...openConversation(), message: "Shop chào chị ạ" });
      expect(r.isError).toBe(false);
      expect(r.data).toMatchObject({ sent: false, answer: "unavailable" });
      expect(r.data.note).toMatch(/no elicitation capability/);
      expect(sends().length).toBe(before);
    });
  });

  it("a 2025-era client over stateless HTTP in auto mode sends as before: the server cannot know the client asked for elicitation", async () => {
    await within(open("2025", "HTTP", true), async (s) => {
      const before = sends().length;
      const r = await call(s, "send_inbox_message", { ...openConversation(), message: "Shop chào chị ạ" });
      expect(r.isError, r.text).toBe(false);
      expect(s.asked).toHaveLength(0);
      expect(sends().length - before).toBe(1);
    });
  });

  it.each([
    ["2025", "stdio"],
    ["2026-07-28", "HTTP"],
  ] as const)("reads never ask (%s client over %s)", async (era, transport) => {
    await within(open(era, transport, true, { PANCAKE_CONFIRM_WRITES: "always" }), async (s) => {
      const r = await call(s, "list_pages", {});
      expect(r.isError, r.text).toBe(false);
      expect(s.asked).toHaveLength(0);
    });
  });
});
