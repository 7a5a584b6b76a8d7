import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ConfigError, InputError, UpstreamError } from "../../src/clients/errors.js";
import { HttpCore } from "../../src/clients/http.js";
import { MessagingClient } from "../../src/clients/messaging.js";
import {
  type ConversationRecord,
  type MessagingState,
  ORDER_TAG,
  registerMessaging,
  seedMessaging,
} from "../../src/sandbox/messaging/index.js";
import { makePeople } from "../../src/sandbox/people.js";
import { SandboxServer } from "../../src/sandbox/server.js";

const now = new Date("2026-11-20T05:00:00Z");
const HOUR = 3_600_000;
const DAY = 86_400_000;
const LOCAL = 7 * HOUR;
const people = makePeople(320);

// Independent readings of the seed, written without the sandbox's helpers.
const ms = (time: string) => Date.parse(`${time.slice(0, 23)}Z`);
const localDayOf = (t: number) => new Date(t + LOCAL).toISOString().slice(0, 10);
const pad = (n: number) => String(n).padStart(2, "0");
/** `DD/MM/YYYY HH:MM:SS` of an instant in UTC+7. */
function localStamp(t: number, withTime = true): string {
  const d = new Date(t + LOCAL);
  const day = `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
  return withTime ? `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` : day;
}
const isStaff = (m: { from: { admin_id?: string } }) => m.from.admin_id !== undefined;

interface Setup {
  server: SandboxServer;
  state: MessagingState;
  core: HttpCore;
  base: string;
}

async function start(ratePerSecond: number, coreRate = 0, attempts = 1): Promise<Setup> {
  const server = new SandboxServer({ ratePerSecond });
  const state = seedMessaging({ now, people });
  registerMessaging(server.router, state, "/api");
  const base = `${await server.listen()}/api`;
  const core = new HttpCore({ baseUrl: base, ratePerSecond: coreRate, retry: { attempts } });
  return { server, state, core, base };
}

let env: Setup;
let client: MessagingClient;
let state: MessagingState;
let pageId: string;

beforeAll(async () => {
  env = await start(100_000);
  state = env.state;
  client = new MessagingClient({ core: env.core, userToken: state.userToken });
  pageId = state.pages[0]!.id;
});
afterAll(async () => {
  await env.core.close();
  await env.server.close();
});

const lastRequest = (method: string, pathPart: string) =>
  [...env.server.requests].reverse().find((r) => r.method === method && r.path.includes(pathPart))!;
const convsOf = (page: string) => state.conversations.filter((c) => c.page_id === page);
const byUpdated = (a: ConversationRecord, b: ConversationRecord) =>
  b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id);

describe("pages and page tokens", () => {
  it("lists activated and inactivated pages without their tokens", async () => {
    const pages = await client.listPages();
    expect(pages.map((p) => [p.id, p.is_activated])).toEqual([
      ...state.pages.map((p) => [p.id, true]),
      ...state.inactivePages.map((p) => [p.id, false]),
    ]);
    expect(pages[0]).toMatchObject({ name: state.pages[0]!.name, platform: "facebook" });
    const text = JSON.stringify(pages);
    for (const p of state.pages) expect(text).not.toContain(p.settings.page_access_token);
    const req = lastRequest("GET", "/api/v1/pages");
    expect(req.path).toBe("/api/v1/pages");
    expect(req.query).toEqual({ access_token: [state.userToken] });
  });

  it("reads page tokens from the page list once, shared by concurrent callers", async () => {
    const fresh = new MessagingClient({ core: env.core, userToken: state.userToken });
    const before = env.server.count("GET", "/api/v1/pages");
    const [a, b] = await Promise.all([fresh.listTags(state.pages[0]!.id), fresh.listTags(state.pages[1]!.id)]);
    await fresh.listTags(state.pages[2]!.id);
    expect(env.server.count("GET", "/api/v1/pages") - before).toBe(1);
    expect(a.map((t) => t.text)).toContain(ORDER_TAG);
    expect(b[0]).toMatchObject({ id: "1", color: expect.stringMatching(/^#/) });
    const req = lastRequest("GET", `/pages/${state.pages[2]!.id}/tags`);
    expect(req.query).toEqual({ page_access_token: [state.pages[2]!.settings.page_access_token] });
  });

  it("uses configured page tokens without reading the page list", async () => {
    const before = env.server.count("GET", "/api/v1/pages");
    const configured = new MessagingClient({
      core: env.core,
      pageTokens: { [pageId]: state.pages[0]!.settings.page_access_token },
    });
    expect(await configured.listTags(pageId)).toHaveLength(10);
    expect(env.server.count("GET", "/api/v1/pages")).toBe(before);
  });

  it("says which setting is missing", async () => {
    const bare = new MessagingClient({ core: env.core });
    await expect(bare.listTags(pageId)).rejects.toThrow(ConfigError);
    await expect(bare.listTags(pageId)).rejects.toThrow(/PANCAKE_PAGE_ACCESS_TOKENS.*PANCAKE_ACCESS_TOKEN/);
    await expect(bare.listPages()).rejects.toThrow(/PANCAKE_ACCESS_TOKEN/);
    await expect(bare.sendInboxMessage(pageId, "x", { message: "hi" })).rejects.toThrow(/PANCAKE_ACCESS_TOKEN/);
    // A page of the account that is not activated: Pancake serves no inbox for it, whatever the settings.
    await expect(client.listTags("109876543210987")).rejects.toThrow(/is deactivated in Pancake/);
    // A page that is not the account's at all: the caller's input, answered with the valid ids.
    const unknown = await client.listTags("999000999").catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(InputError);
    expect(unknown).toMatchObject({ field: "page_id", message: "page_id: 999000999 is not a page of this account" });
    expect((unknown as InputError).hint).toContain(pageId);
  });

  it("reads the page list again for an unknown page once the list is a minute old", async () => {
    const fresh = new MessagingClient({ core: env.core, userToken: state.userToken });
    await fresh.listPages();
    const added = { ...state.pages[0]!, id: "100000000000042", settings: { ...state.pages[0]!.settings, page_access_token: "pat_added_later" } };
    state.pages.push(added);
    try {
      await expect(fresh.listTags(added.id)).rejects.toThrow(InputError);
      const realNow = Date.now.bind(Date);
      vi.spyOn(Date, "now").mockImplementation(() => realNow() + 61_000);
      const error = await fresh.listTags(added.id).then(() => undefined, (e: unknown) => e);
      expect(error).not.toBeInstanceOf(InputError);
      expect(lastRequest("GET", `/pages/${added.id}/tags`).query.page_access_token).toEqual(["pat_added_later"]);
    } finally {
      vi.restoreAllMocks();
      state.pages.pop();
    }
  });

  it("surfaces a bad page token as code 102 and a bad user token as HTTP 401", async () => {
    const wrong = new MessagingClient({ core: env.core, pageTokens: { [pageId]: "pat_wrong" } });
    const error = await wrong.listTags(pageId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ code: 102, upstreamMessage: "Invalid access_token" });
    const expired = new MessagingClient({ core: env.core, userToken: "ut_expired" });
    await expect(expired.listPages()).rejects.toMatchObject({ status: 401 });
  });

  it("re-reads the page list once when a listed token was regenerated elsewhere", async () => {
    const page = state.pages[2]!;
    const fresh = new MessagingClient({ core: env.core, userToken: state.userToken });
    await fresh.listTags(page.id);
    page.settings.page_access_token = "pat_rotated_elsewhere";
    expect(await fresh.listTags(page.id)).toHaveLength(10);
    expect(lastRequest("GET", `/pages/${page.id}/tags`).query.page_access_token).toEqual(["pat_rotated_elsewhere"]);
  });

  it("generates a page token only when asked, and uses it from then on", async () => {
    const page = state.pages[1]!;
    const old = page.settings.page_access_token;
    const fresh = new MessagingClient({ core: env.core, userToken: state.userToken, pageTokens: { [page.id]: old } });
    const result = await fresh.generatePageAccessToken(page.id);
    expect(result.page_access_token).toBe(page.settings.page_access_token);
    expect(result.page_access_token).not.toBe(old);
    const req = lastRequest("POST", "generate_page_access_token");
    expect(req.path).toBe(`/api/v1/pages/${page.id}/generate_page_access_token`);
    expect(req.query).toEqual({ page_id: [page.id], access_token: [state.userToken] });
    expect(await fresh.listTags(page.id)).toHaveLength(10);
    // The shared client still holds the old token and re-reads the list after the 102.
    expect(await client.listTags(page.id)).toHaveLength(10);
  });
});

describe("conversation lists", () => {
  it("walks the v2 list by cursor without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const { conversations } = await client.listConversations(pageId, cursor ? { last_conversation_id: cursor } : {});
      expect(conversations.length).toBeLessThanOrEqual(60);
      if (conversations.length === 0) break;
      seen.push(...conversations.map((c) => c.id));
      cursor = conversations[conversations.length - 1]!.id;
    }
    expect(seen).toEqual(convsOf(pageId).sort(byUpdated).map((c) => c.id));
    const req = lastRequest("GET", `/public_api/v2/pages/${pageId}/conversations`);
    expect(Object.keys(req.query).sort()).toEqual(["last_conversation_id", "page_access_token"]);
  });

  it("filters the v2 list by type, tags and time", async () => {
    const tag = state.tags[pageId]!.find((t) => t.text === ORDER_TAG)!;
    const inbox = await client.listConversations(pageId, { type: ["INBOX"], tags: [tag.id] });
    expect(inbox.conversations.length).toBeGreaterThan(0);
    for (const c of inbox.conversations) {
      expect(c.type).toBe("INBOX");
      expect(c.tags).toContain(tag.id);
    }
    expect(lastRequest("GET", "/public_api/v2/").query).toMatchObject({ type: ["INBOX"], tags: [String(tag.id)] });
    const since = Math.floor(now.getTime() / 1000) - 3 * 86_400;
    const until = Math.floor(now.getTime() / 1000);
    const recent = await client.listConversations(pageId, { since, until, unread_first: true });
    const expected = convsOf(pageId).filter((c) => ms(c.updated_at) >= since * 1000 && ms(c.updated_at) <= until * 1000 + 999);
    expect(recent.conversations.map((c) => c.id).sort()).toEqual(expected.map((c) => c.id).sort());
    const firstRead = recent.conversations.findIndex((c) => c.seen);
    expect(recent.conversations.slice(firstRead).every((c) => c.seen)).toBe(true);
  });

  it("pages the v1 list by page number with the total", async () => {
    const until = Math.floor(now.getTime() / 1000);
    const since = until - 30 * 86_400;
    const expected = convsOf(pageId).filter((c) => ms(c.inserted_at) >= since * 1000 && ms(c.inserted_at) <= until * 1000 + 999);
    const first = await client.listConversationsPaged(pageId, { since, until, page_number: 1 });
    expect(first.total).toBe(expected.length);
    expect(first.conversations).toHaveLength(Math.min(60, expected.length));
    // Ordered by updated_at, the range filters on updated_at too: another set than by inserted_at.
    const updated = convsOf(pageId).filter((c) => ms(c.updated_at) >= since * 1000 && ms(c.updated_at) <= until * 1000 + 999);
    const lastPage = Math.ceil(updated.length / 60);
    const tail = await client.listConversationsPaged(pageId, { since, until, page_number: lastPage, order_by: "updated_at" });
    expect(tail.conversations).toHaveLength(updated.length - (lastPage - 1) * 60);
    expect(lastRequest("GET", `/public_api/v1/pages/${pageId}/conversations`).query).toEqual({
      since: [String(since)],
      until: [String(until)],
      page_number: [String(lastPage)],
      order_by: ["updated_at"],
      page_access_token: [state.pages[0]!.settings.page_access_token],
    });
    await expect(client.listConversationsPaged(pageId, { since: until - 40 * 86_400, until, page_number: 1 })).rejects.toMatchObject({
      status: 400,
    });
  });

  it("steps the current_count list 60 then 40, with tags=ALL", async () => {
    const sorted = convsOf(pageId).sort(byUpdated);
    const first = await client.listConversationsByCount(pageId);
    expect(first.conversations.map((c) => c.id)).toEqual(sorted.slice(0, 60).map((c) => c.id));
    const next = await client.listConversationsByCount(pageId, { current_count: 61 });
    expect(next.conversations.map((c) => c.id)).toEqual(sorted.slice(60, 100).map((c) => c.id));
    const req = lastRequest("GET", `/api/v1/pages/${pageId}/conversations`);
    expect(req.query).toEqual({ access_token: [state.userToken], current_count: ["61"] });
    const pageOnly = new MessagingClient({ core: env.core, pageTokens: { [pageId]: state.pages[0]!.settings.page_access_token } });
    await expect(pageOnly.listConversationsByCount(pageId)).rejects.toThrow(/PANCAKE_ACCESS_TOKEN/);
    await expect(pageOnly.listConversationsByCount(pageId)).rejects.toBeInstanceOf(ConfigError);
    const tagged = await client.listConversationsByCount(pageId, { tags: "ALL" });
    expect(tagged.conversations.length).toBeGreaterThan(0);
    expect(tagged.conversations.every((c) => (c.tags?.length ?? 0) > 0)).toBe(true);
  });

  it("reads messages 20 newest first, then 30 per step, each oldest first", async () => {
    const c = convsOf(pageId).find((x) => x.message_count >= 35 && x.message_count <= 40)!;
    const all = state.messages[c.id]!.map((m) => m.id);
    const first = await client.listMessages(pageId, c.id, { customer_id: c.customer_id });
    expect(first.messages.map((m) => m.id)).toEqual(all.slice(-20));
    const older = await client.listMessages(pageId, c.id, { customer_id: c.customer_id, current_count: 20 });
    expect(older.messages.map((m) => m.id)).toEqual(all.slice(Math.max(0, all.length - 50), -20));
    expect(lastRequest("GET", "/messages").query).toMatchObject({ customer_id: [c.customer_id], current_count: ["20"] });
    const sample = first.messages[0]!;
    expect(sample.message).toMatch(/^<div>/);
    expect(typeof sample.original_message).toBe("string");
    expect(sample.inserted_at).toMatch(/\.\d{6}$/);
  });
});

describe("writes", () => {
  const clock = () => now.getTime();

  it("sends an inbox message that then shows in the thread and the list", async () => {
    const c = convsOf(pageId).find(
      (x) => x.type === "INBOX" && x.last_customer_interactive_at && ms(x.last_customer_interactive_at) > clock() - 20 * HOUR,
    )!;
    const sent = await client.sendInboxMessage(pageId, c.id, { message: "Dạ shop gửi chị ạ" });
    expect(sent.id).toMatch(/^m_/);
    const req = lastRequest("POST", `/conversations/${c.id}/messages`);
    expect(req.path).toBe(`/api/v1/pages/${pageId}/conversations/${c.id}/messages`);
    expect(req.query).toEqual({ access_token: [state.userToken] });
    expect(req.body).toEqual({ action: "reply_inbox", message: "Dạ shop gửi chị ạ" });
    const { messages } = await client.listMessages(pageId, c.id);
    expect(messages[messages.length - 1]).toMatchObject({ id: sent.id, original_message: "Dạ shop gửi chị ạ" });
    const { conversations } = await client.listConversations(pageId);
    expect(conversations[0]).toMatchObject({ id: c.id, snippet: "Dạ shop gửi chị ạ" });
    expect(conversations[0]!.last_sent_by?.admin_id).toBe(state.ownerId);
  });

  it("reports the 24-hour window as upstream code 10 / subcode 2018278", async () => {
    const c = convsOf(pageId).find(
      (x) => x.type === "INBOX" && x.last_customer_interactive_at && ms(x.last_customer_interactive_at) < clock() - 30 * HOUR,
    )!;
    const error = await client.sendInboxMessage(pageId, c.id, { message: "Chào chị" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ code: 10, subcode: 2018278 });
  });

  it("replies to a comment under the comment it answers", async () => {
    const c = convsOf(pageId).find((x) => x.type === "COMMENT")!;
    const root = state.messages[c.id]![0]!;
    const sent = await client.replyToComment(pageId, c.id, { message: "Shop inbox bạn nhé", message_id: root.id });
    expect(lastRequest("POST", `/conversations/${c.id}/messages`).body).toEqual({
      action: "reply_comment",
      message: "Shop inbox bạn nhé",
      message_id: root.id,
    });
    const created = state.messages[c.id]!.find((m) => m.id === sent.id)!;
    expect(created.parent_id).toBe(root.id);
  });

  it("allows one private reply per comment, for comments up to 7 days old", async () => {
    const fresh = convsOf(pageId).find(
      (x) => x.type === "COMMENT" && ms(x.inserted_at) > clock() - 6 * DAY && !state.messages[x.id]![0]!.private_reply_conversation,
    )!;
    const reply = { post_id: fresh.post_id!, message_id: fresh.id, message: "Shop gửi giá qua tin nhắn ạ" };
    const sent = await client.sendPrivateReply(pageId, fresh.id, reply);
    expect(lastRequest("POST", `/conversations/${fresh.id}/messages`).body).toEqual({ action: "private_replies", ...reply });
    const inbox = state.conversations.find((x) => x.id === `${pageId}_${fresh.from.id}`)!;
    expect(state.messages[inbox.id]!.at(-1)!.id).toBe(sent.id);
    await expect(client.sendPrivateReply(pageId, fresh.id, reply)).rejects.toThrow(/only one private reply/);
    const old = convsOf(pageId).find(
      (x) => x.type === "COMMENT" && ms(x.inserted_at) < clock() - 8 * DAY && !state.messages[x.id]![0]!.private_reply_conversation,
    )!;
    await expect(client.sendPrivateReply(pageId, old.id, { post_id: old.post_id!, message_id: old.id, message: "Chào bạn" })).rejects.toThrow(
      /7 days/,
    );
    await expect(client.sendPrivateReply(pageId, old.id, { post_id: old.post_id!, message: "Chào bạn" } as never)).rejects.toThrow(
      /message_id is required/,
    );
  });

  it("adds and removes a tag, keeping the history", async () => {
    const c = convsOf(pageId).find((x) => x.tags.length === 0)!;
    const tag = state.tags[pageId]![3]!;
    const added = await client.updateConversationTag(pageId, c.id, { action: "add", tag_id: tag.id });
    expect(added.data).toEqual([String(tag.id)]);
    expect(typeof added.timestamp).toBe("number");
    expect(lastRequest("POST", "/tags").body).toEqual({ action: "add", tag_id: String(tag.id) });
    expect(c.tags).toEqual([tag.id]);
    const removed = await client.updateConversationTag(pageId, c.id, { action: "remove", tag_id: String(tag.id) });
    expect(removed.data).toEqual([]);
    expect(c.tag_histories.slice(-2).map((h) => h.payload.action)).toEqual(["add", "remove"]);
  });

  it("assigns staff with POST and returns the conversation", async () => {
    const c = convsOf(pageId).find((x) => x.assignee_ids.length === 0)!;
    const staff = state.staff.filter((s) => s.page_ids.includes(pageId) && !s.disabled_page_ids.includes(pageId));
    const ids = [staff[1]!.id, staff[2]!.id];
    const result = await client.assignConversation(pageId, c.id, ids);
    expect(result.id).toBe(c.id);
    expect(result.assignee_ids).toEqual(ids);
    expect(result.current_assign_users?.map((u) => u.name)).toEqual([staff[1]!.name, staff[2]!.name]);
    expect(lastRequest("POST", "/assign").body).toEqual({ assignee_ids: ids });
    expect(c.assignee_histories.at(-1)!.payload.added_users.map((u) => u.id)).toEqual(ids);
  });

  it("marks a conversation unread and read", async () => {
    const c = convsOf(pageId).find((x) => x.seen)!;
    await client.markConversationUnread(pageId, c.id);
    expect(c.seen).toBe(false);
    expect(c.unread_count).toBeGreaterThan(0);
    await client.markConversationRead(pageId, c.id);
    expect([c.seen, c.unread_count]).toEqual([true, 0]);
    expect(lastRequest("POST", "/read").path).toBe(`/api/public_api/v1/pages/${pageId}/conversations/${c.id}/read`);
  });

  it("answers an unknown conversation with a 404 error", async () => {
    await expect(client.markConversationRead(pageId, "no-such-thread")).rejects.toMatchObject({ status: 404 });
  });
});

describe("page data", () => {
  const until = Math.floor(now.getTime() / 1000);
  const since = until - 90 * 86_400;

  it("lists page customers with the total and page size", async () => {
    const expected = state.customers.filter((c) => c.page_id === pageId && ms(c.inserted_at) >= since * 1000);
    const { customers, total } = await client.listPageCustomers(pageId, { since, until, page_number: 2, page_size: 50 });
    expect(total).toBe(expected.length);
    expect(customers).toHaveLength(50);
    expect(customers[0]).toMatchObject({ psid: expect.any(String), name: expect.any(String) });
    expect(lastRequest("GET", "/page_customers").query).toMatchObject({ page_number: ["2"], page_size: ["50"] });
  });

  it("lists posts with comment counts derived from their comment threads", async () => {
    const { posts, total } = await client.listPosts(pageId, { since, until, page_number: 1, page_size: 30 });
    expect(total).toBe(state.posts.filter((p) => p.page_id === pageId).length);
    expect(posts.length).toBe(Math.min(30, total ?? 0));
    for (const post of posts) {
      const comments = state.conversations
        .filter((c) => c.post_id === post.id && c.type !== "INBOX")
        .reduce((sum, c) => sum + state.messages[c.id]!.length, 0);
      expect(post.comment_count).toBe(comments);
    }
  });

  it("lists staff, call logs and tags", async () => {
    const users = await client.listUsers(pageId);
    const members = state.staff.filter((s) => s.page_ids.includes(pageId));
    expect((users.users?.length ?? 0) + (users.disabled_users?.length ?? 0)).toBe(members.length);
    expect(users.disabled_users?.map((u) => u.id)).toEqual(members.filter((s) => s.disabled_page_ids.includes(pageId)).map((s) => s.id));
    const logs = await client.listCallLogs(pageId, { id: state.sipPackages[pageId]!, page_number: 1, page_size: 30 });
    expect(logs).toHaveLength(30);
    expect(logs.some((l) => l.answered_time === null && l.record_file === null)).toBe(true);
    expect(lastRequest("GET", "/sip_call_logs").query).toMatchObject({ id: [state.sipPackages[pageId]], page_size: ["30"] });
    await expect(client.listCallLogs(pageId, { id: "x", page_number: 1, page_size: 31 })).rejects.toMatchObject({ status: 400 });
  });
});

describe("statistics equal values recomputed from the seed", () => {
  const end = now.getTime();
  const start = end - 7 * DAY;
  const dateRange = `${localStamp(start)} - ${localStamp(end)}`;
  const inside = (t: number) => t >= Math.floor(start / 1000) * 1000 && t <= Math.floor(end / 1000) * 1000 + 999;

  it("customer engagements per day", async () => {
    const stats = await client.getEngagementStats(pageId, { date_range: dateRange });
    expect(lastRequest("GET", "/statistics/customer_engagements").query).toMatchObject({
      date_range: [dateRange],
      by_hour: ["false"],
    });
    const today = new Date(end + LOCAL);
    expect(stats.categories![0]).toBe(`${today.getUTCDate()}/${today.getUTCMonth() + 1}`);
    expect(stats.categories).toHaveLength(8);
    const days = new Map<string, Set<string>>();
    const created = new Map<string, number>();
    for (const c of convsOf(pageId)) {
      if (c.type === "INBOX" && inside(ms(c.inserted_at))) created.set(localDayOf(ms(c.inserted_at)), (created.get(localDayOf(ms(c.inserted_at))) ?? 0) + 1);
      if (c.type !== "INBOX") continue;
      for (const m of state.messages[c.id]!) {
        if (isStaff(m) || !inside(ms(m.inserted_at))) continue;
        const key = localDayOf(ms(m.inserted_at));
        days.set(key, (days.get(key) ?? new Set()).add(c.id));
      }
    }
    const keys = Array.from({ length: 8 }, (_, i) => localDayOf(end - i * DAY));
    const series = (name: string) => stats.series!.find((s) => s.name === name)!.data;
    expect(series("inbox")).toEqual(keys.map((k) => days.get(k)?.size ?? 0));
    expect(series("customer_engagement_new_inbox")).toEqual(keys.map((k) => created.get(k) ?? 0));
    const total = series("total");
    expect(total).toEqual(series("inbox")!.map((v, i) => v! + series("comment")![i]!));
  });

  it("customer engagements per hour of day", async () => {
    const rows = await client.getEngagementStatsByHour(pageId, { date_range: dateRange });
    expect(rows).toHaveLength(24);
    const createdInRange = convsOf(pageId).filter((c) => inside(ms(c.inserted_at)));
    expect(rows.reduce((sum, r) => sum + (r.new_customer ?? 0), 0)).toBe(createdInRange.length);
    expect(lastRequest("GET", "/statistics/customer_engagements").query.by_hour).toEqual(["true"]);
  });

  it("page statistics per hour", async () => {
    const since = Math.floor((end - 3 * DAY) / 1000);
    const until = Math.floor(end / 1000);
    const rows = await client.getPageStats(pageId, { since, until });
    expect(rows[0]!.hour).toBe(new Date(Math.floor((since * 1000) / HOUR) * HOUR + LOCAL).toISOString().slice(0, 19));
    expect(rows[0]!.hour_in_integer).toBe(new Date(Math.floor((since * 1000) / HOUR) * HOUR).toISOString().slice(0, 13).replace(/[-T]/g, "") + "0000");
    let customerInbox = 0;
    let pageComment = 0;
    for (const c of convsOf(pageId)) {
      for (const m of state.messages[c.id]!) {
        const t = ms(m.inserted_at);
        if (t < since * 1000 || t > until * 1000 + 999) continue;
        if (c.type === "INBOX" && !isStaff(m)) customerInbox++;
        if (c.type !== "INBOX" && isStaff(m)) pageComment++;
      }
    }
    expect(rows.reduce((s, r) => s + (r.customer_inbox_count ?? 0), 0)).toBe(customerInbox);
    expect(rows.reduce((s, r) => s + (r.page_comment_count ?? 0), 0)).toBe(pageComment);
  });

  it("tag statistics", async () => {
    const since = Math.floor((end - 30 * DAY) / 1000);
    const until = Math.floor(end / 1000);
    const stats = await client.getTagStats(pageId, { since, until });
    const tag = state.tags[pageId]![0]!;
    let net = 0;
    for (const c of convsOf(pageId)) {
      for (const h of c.tag_histories) {
        const t = ms(h.inserted_at);
        if (h.payload.tag.id === tag.id && t >= since * 1000 && t <= until * 1000 + 999) net += h.payload.action === "add" ? 1 : -1;
      }
    }
    const values = stats.data!.series![`tag_${tag.id}`]!;
    expect(values.reduce((a, b) => a! + b!, 0)).toBe(net);
    expect(stats.data!.categories).toHaveLength(values.length);
    expect(stats.data_today!.categories).toHaveLength(24);
    expect(stats.tags![0]!.id).toBe(`tag_${tag.id}`);
  });

  it("staff statistics of one page", async () => {
    const stats = await client.getStaffStats(pageId, { date_range: dateRange });
    const counts = new Map<string, number>();
    for (const c of convsOf(pageId)) {
      if (c.type !== "INBOX") continue;
      for (const m of state.messages[c.id]!) {
        if (isStaff(m) && inside(ms(m.inserted_at))) counts.set(m.from.admin_id!, (counts.get(m.from.admin_id!) ?? 0) + 1);
      }
    }
    expect(Object.keys(stats.users ?? {}).length).toBeGreaterThan(0);
    for (const [id, user] of Object.entries(stats.users ?? {})) {
      expect(user.inbox_count, id).toBe(counts.get(id) ?? 0);
      const rows = stats.statistics![id]!;
      expect(rows.reduce((s, r) => s + (r.inbox_count ?? 0), 0)).toBe(user.inbox_count);
      expect(user.user_name).toBe(state.staff.find((s) => s.id === id)!.name);
    }
  });

  it("staff statistics of several pages with order counts", async () => {
    const pageIds = [state.pages[0]!.id, state.pages[1]!.id];
    const range = `${localStamp(end - 60 * DAY)} - ${localStamp(end)}`;
    const stats = await client.getMultiPageStaffStats({ page_ids: pageIds, date_range: range });
    const req = lastRequest("GET", "/v1/statistics/user");
    expect(req.query).toEqual({ page_ids: [pageIds.join(",")], date_range: [range], access_token: [state.userToken] });
    const orders = new Map<string, number>();
    for (const c of state.conversations) {
      if (!pageIds.includes(c.page_id)) continue;
      const orderTag = state.tags[c.page_id]!.find((t) => t.text === ORDER_TAG)!.id;
      for (const h of c.tag_histories) {
        const t = ms(h.inserted_at);
        if (h.payload.action === "add" && h.payload.tag.id === orderTag && t >= Math.floor((end - 60 * DAY) / 1000) * 1000 && t <= end + 999) {
          orders.set(h.payload.editor_id, (orders.get(h.payload.editor_id) ?? 0) + 1);
        }
      }
    }
    expect([...orders.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    for (const [id, user] of Object.entries(stats.users ?? {})) expect(user.order_count, id).toBe(orders.get(id) ?? 0);
    const pagesSeen = new Set(Object.values(stats.statistics ?? {}).flatMap((rows) => rows.map((r) => r.page_id)));
    expect([...pagesSeen].sort()).toEqual([...pageIds].sort());
  });

  it("new customer statistics by day and by page", async () => {
    const range = `${localStamp(end - 13 * DAY, false)} - ${localStamp(end, false)}`;
    const rows = await client.getNewCustomerStats(pageId, { date_range: range });
    expect(Array.isArray(rows)).toBe(true);
    const list = rows as Array<{ date?: string | null; new_customer_count?: number | null }>;
    expect(list).toHaveLength(14);
    const first = localDayOf(end - 13 * DAY);
    const expected = state.customers.filter((c) => c.page_id === pageId && localDayOf(ms(c.inserted_at)) >= first).length;
    expect(list.reduce((s, r) => s + (r.new_customer_count ?? 0), 0)).toBe(expected);
    expect(lastRequest("GET", "/statistics/page_customers").query).toMatchObject({ date_range: [range] });
    expect(lastRequest("GET", "/statistics/page_customers").query).not.toHaveProperty("page_id");
    const grouped = await client.getNewCustomerStats(pageId, { date_range: range, group_by: "page_id" });
    expect(Object.keys(grouped)).toEqual([pageId]);
  });

  it("new customer statistics fall back to the seed's statistics/customers when page_customers is 404, once", async () => {
    const range = `${localStamp(end - 2 * DAY, false)} - ${localStamp(end, false)}`;
    const fresh = new MessagingClient({ core: env.core, pageTokens: { [pageId]: state.pages[0]!.settings.page_access_token } });
    env.server.injectFault({ method: "GET", path: "/statistics/page_customers", kind: "status", status: 404, body: { success: false, error: "not_found" } });
    const before = env.server.count("GET", `/api/public_api/v1/pages/${pageId}/statistics/page_customers`);
    const rows = await fresh.getNewCustomerStats(pageId, { date_range: range });
    expect(rows).toHaveLength(3);
    expect(lastRequest("GET", "/statistics/customers").query).toMatchObject({ date_range: [range], page_id: [pageId] });
    await fresh.getNewCustomerStats(pageId, { date_range: range });
    expect(env.server.count("GET", `/api/public_api/v1/pages/${pageId}/statistics/page_customers`)).toBe(before + 1);
  });

  it("ad campaigns and ads, and the page without ad permission", async () => {
    const since = Math.floor((end - 7 * DAY) / 1000);
    const until = Math.floor(end / 1000);
    const campaigns = await client.getCampaignStats(pageId, { since, until });
    const first = localDayOf(since * 1000);
    const last = localDayOf(until * 1000);
    for (const campaign of campaigns) {
      const adIds = new Set(state.ads.filter((a) => a.campaign_id === campaign.campaign_id).map((a) => a.ad_id));
      const spend = state.adDays.filter((d) => adIds.has(d.ad_id) && d.date >= first && d.date <= last).reduce((s, d) => s + d.spend, 0);
      expect(campaign.spend ?? "0").toBe(String(spend));
    }
    const byId = await client.getAdStats(pageId, { since, until, type: "by_id" });
    expect(byId).toHaveLength(state.ads.filter((a) => a.page_id === pageId).length);
    const byTime = await client.getAdStats(pageId, { since, until, type: "by_time" });
    expect(byTime.map((r) => r.date)).toEqual([...new Set(state.adDays.map((d) => d.date))].filter((d) => d >= first && d <= last).sort());
    expect(lastRequest("GET", "/statistics/ads").query).toMatchObject({ type: ["by_time"], since: [String(since)] });
    await expect(client.getAdStats(state.adsDeniedPageId, { since, until, type: "by_id" })).rejects.toMatchObject({ status: 403 });
  });
});

describe("rate limit", () => {
  // Reads keep the production retry policy: the client paces calls 5 per second by its own send
  // times, and a connection that is slow to open can still let one call arrive a few ms early.
  it("gets 12 concurrent calls to one page through the sandbox's 5 per second", async () => {
    const limited = await start(5, 5, 3);
    try {
      const page = limited.state.pages[0]!;
      const c = new MessagingClient({ core: limited.core, pageTokens: { [page.id]: page.settings.page_access_token } });
      const results = await Promise.all(Array.from({ length: 12 }, () => c.listTags(page.id)));
      expect(results.every((tags) => tags.length === 10)).toBe(true);
      const arrivals = limited.server.requests.map((r) => r.at);
      expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeGreaterThanOrEqual(1900);
    } finally {
      await limited.core.close();
      await limited.server.close();
    }
  });
});
