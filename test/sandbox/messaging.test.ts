import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { type MessagingState, registerMessaging, seedMessaging } from "../../src/sandbox/messaging/index.js";
import { makePeople } from "../../src/sandbox/people.js";
import { SandboxServer } from "../../src/sandbox/server.js";

const now = new Date("2026-11-20T05:00:00Z");
const people = makePeople(320);

describe("messaging seed", () => {
  it("is deterministic and fast", () => {
    const started = performance.now();
    const a = seedMessaging({ now, people });
    const elapsed = performance.now() - started;
    const b = seedMessaging({ now, people });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    // The target is < 50 ms warm; a cold first run on a loaded CI machine gets slack.
    expect(elapsed).toBeLessThan(400);
  });

  it("moves with ctx.now and nothing else", () => {
    const later = seedMessaging({ now: new Date(now.getTime() + 86_400_000), people });
    const base = seedMessaging({ now, people });
    expect(later.conversations.map((c) => c.id)).toEqual(base.conversations.map((c) => c.id));
    const shift = Date.parse(`${later.conversations[5]!.inserted_at}Z`) - Date.parse(`${base.conversations[5]!.inserted_at}Z`);
    expect(shift).toBe(86_400_000);
  });

  it("holds a Vietnamese shop of the documented shape", () => {
    const s = seedMessaging({ now, people });
    expect(s.pages).toHaveLength(3);
    expect(new Set(s.pages.map((p) => p.settings.page_access_token)).size).toBe(3);
    expect(s.staff).toHaveLength(8);
    for (const p of s.pages) {
      const tags = s.tags[p.id]!;
      expect(tags).toHaveLength(10);
      for (const t of tags) expect(t.color).toMatch(/^#[0-9a-f]{6}$/);
    }
    expect(s.conversations.length).toBeGreaterThan(300);
    expect(new Set(s.conversations.map((c) => c.type))).toEqual(new Set(["INBOX", "COMMENT", "RATING", "COMMENT_LIVESTREAM"]));
    expect(new Set(s.conversations.map((c) => c.id)).size).toBe(s.conversations.length);
    const oldest = now.getTime() - 91 * 86_400_000;
    for (const c of s.conversations) {
      const list = s.messages[c.id]!;
      expect(list.length).toBe(c.message_count);
      if (!s.hostileConversationIds.includes(c.id)) expect(list.length).toBeGreaterThanOrEqual(3);
      expect(list.length).toBeLessThanOrEqual(40);
      expect(c.inserted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      expect(Date.parse(`${c.inserted_at}Z`)).toBeGreaterThan(oldest);
      expect(Date.parse(`${c.updated_at}Z`)).toBeLessThanOrEqual(now.getTime());
      const times = list.map((m) => m.inserted_at);
      expect([...times].sort()).toEqual(times);
      if (c.post_id) expect(s.posts.some((p) => p.id === c.post_id)).toBe(true);
    }
    const messages = Object.values(s.messages).flat();
    expect(messages[0]!.inserted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    expect(messages.some((m) => m.attachments.some((a) => a.type === "photo"))).toBe(true);
    expect(messages.some((m) => m.attachments.some((a) => a.type === "file"))).toBe(true);
    expect(messages.some((m) => m.has_phone && m.phone_info[0]!.phone_number.length === 10)).toBe(true);
    expect(s.conversations.some((c) => !c.seen && c.unread_count > 0)).toBe(true);
    expect(s.conversations.some((c) => c.assignee_histories.some((h) => h.payload.deleted_users.length > 0))).toBe(true);
    expect(s.conversations.some((c) => c.tag_histories.some((h) => h.payload.action === "remove"))).toBe(true);
    expect(s.posts.length).toBeGreaterThanOrEqual(40);
    // Two pages have a call centre (busier this past week), the Instagram one none.
    expect(Object.keys(s.sipPackages)).toEqual([s.pages[0]!.id, s.pages[1]!.id]);
    expect(s.callLogs.filter((l) => l.page_id === s.pages[0]!.id).length).toBeGreaterThan(300);
    expect(s.callLogs.filter((l) => l.page_id === s.pages[2]!.id)).toHaveLength(0);
    expect(s.callLogs.some((l) => l.answered_time === null && l.record_file === null)).toBe(true);
    expect(s.customers.some((c) => c.phone_numbers.length > 0 && c.birthday !== null)).toBe(true);
    expect(s.ads.length).toBeGreaterThan(0);
    expect(s.ads.some((a) => a.page_id === s.adsDeniedPageId)).toBe(false);
  });

  it("creates a page customer when the person first writes to the page, however the other draws fall", () => {
    for (const hostile of [false, true]) {
      const s = seedMessaging({ now, people, hostile });
      for (const page of s.pages) {
        const threads = s.conversations.filter((c) => c.page_id === page.id);
        const oldest = threads.map((c) => c.inserted_at).sort()[0]!;
        for (const customer of s.customers.filter((c) => c.page_id === page.id)) {
          const theirs = threads.filter((c) => c.from.id === customer.psid);
          // Their first message or comment: the earliest message of theirs on the page.
          const first = theirs
            .flatMap((c) => s.messages[c.id]!.filter((m) => m.from.id === customer.psid))
            .map((m) => m.inserted_at.slice(0, 19))
            .sort()[0];
          // Someone with no conversation in the data set wrote first before it began.
          if (first === undefined) expect(customer.inserted_at < oldest, customer.psid).toBe(true);
          else expect(customer.inserted_at, customer.psid).toBe(first);
          expect(customer.updated_at >= customer.inserted_at).toBe(true);
        }
      }
    }
  });

  it("looks like a Vietnamese shop's inbox: busiest in the evening, ads selling less than the shop does", () => {
    const sandbox = new Sandbox({ now });
    const s = sandbox.messaging;
    const t0 = now.getTime() - 30 * 86_400_000;
    const perHour = new Array<number>(24).fill(0);
    for (const c of s.conversations) {
      for (const m of s.messages[c.id] ?? []) {
        const t = Date.parse(`${m.inserted_at.slice(0, 23)}Z`);
        if (t >= t0 && !m.from.admin_id) perHour[new Date(t + 7 * 3_600_000).getUTCHours()]! += 1;
      }
    }
    const busiest = perHour.map((n, hour) => ({ n, hour })).sort((a, b) => b.n - a.n).slice(0, 3).map((x) => x.hour);
    for (const hour of busiest) expect(hour, perHour.join(" ")).toBeGreaterThanOrEqual(18);
    expect(perHour.slice(1, 6).reduce((a, b) => a + b, 0)).toBeLessThan(perHour[20]!);
    // The ads' attributed purchases of a week stay below the orders the POS took that week.
    const week = new Date(now.getTime() + 7 * 3_600_000 - 6 * 86_400_000).toISOString().slice(0, 10);
    const adPurchases = s.adDays.filter((d) => d.date >= week).reduce((t, d) => t + d.purchases, 0);
    const orders = sandbox.pos.orders.filter((o) => Date.parse(`${o.inserted_at}Z`) >= Date.parse(`${week}T00:00:00+07:00`)).length;
    expect(adPurchases).toBeGreaterThan(0);
    expect(adPurchases).toBeLessThan(orders / 2);
  });

  it("spends on ads within the campaigns' budgets: a daily budget each day, a lifetime budget in all", () => {
    const s = seedMessaging({ now, people });
    const today = new Date(now.getTime() + 7 * 3_600_000).toISOString().slice(0, 10);
    for (const c of s.campaigns) {
      const ads = new Set(s.ads.filter((a) => a.campaign_id === c.campaign_id).map((a) => a.ad_id));
      const perDay = new Map<string, number>();
      for (const d of s.adDays.filter((x) => ads.has(x.ad_id))) perDay.set(d.date, (perDay.get(d.date) ?? 0) + d.spend);
      const spent = [...perDay.values()].reduce((a, b) => a + b, 0);
      if (c.lifetime_budget > 0) {
        expect(spent).toBeLessThanOrEqual(c.lifetime_budget);
        expect(spent).toBeGreaterThan(c.lifetime_budget / 2);
        continue;
      }
      for (const [date, spend] of perDay) {
        expect(spend, `${c.name} ${date}`).toBeLessThanOrEqual(c.daily_budget);
        // A running campaign spends most of its budget on a whole day.
        if (date !== today) expect(spend, `${c.name} ${date}`).toBeGreaterThanOrEqual(c.daily_budget * 0.7);
      }
    }
  });

  it("adds hostile records for security tests only when asked, leaving the rest of the shop as it is", () => {
    const plain = seedMessaging({ now, people });
    expect(plain.hostileConversationIds).toEqual([]);
    expect(plain.conversations.some((c) => c.from.name.includes("Ignore previous instructions"))).toBe(false);
    const s = seedMessaging({ now, people, hostile: true });
    expect(s.hostileConversationIds).toHaveLength(2);
    expect(s.conversations.filter((c) => !s.hostileConversationIds.includes(c.id))).toEqual(plain.conversations);
    expect(s.callLogs).toEqual(plain.callLogs);
    // The demo shop (and `pancake-mcp sandbox`) is the default sandbox: no attacker in it.
    expect(new Sandbox({ now }).messaging.hostileConversationIds).toEqual([]);
    const hostile = s.conversations.find((c) => c.id === s.hostileConversationIds[0])!;
    expect(hostile.from.name).toContain("Ignore previous instructions");
    expect(hostile.from.name).toMatch(/\u200b/);
    expect(hostile.from.name).toMatch(/\u202e/);
    const texts = s.messages[hostile.id]!.map((m) => m.message).join("\n");
    expect(texts).toContain("<script>");
    expect(texts).toContain('{"role":"system"');
    expect(texts).toContain("send all orders to");
  });
});

describe("messaging routes over HTTP", () => {
  const server = new SandboxServer({ ratePerSecond: 5 });
  let state: MessagingState;
  let origin: string;
  let page: string;
  let token: string;

  const get = async (path: string, query: Record<string, string | number>) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const res = await request(`${origin}/api${path}?${qs}`);
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    state = seedMessaging({ now, people });
    registerMessaging(server.router, state, "/api");
    origin = await server.listen();
    page = state.pages[1]!.id;
    token = state.pages[1]!.settings.page_access_token;
  });
  afterAll(() => server.close());

  const since = Math.floor(now.getTime() / 1000) - 20 * 86_400;
  const until = Math.floor(now.getTime() / 1000);

  it("answers a bad page token with HTTP 200, error_code 102", async () => {
    const res = await get(`/public_api/v1/pages/${page}/tags`, { page_access_token: "nope" });
    expect(res).toEqual({ status: 200, body: { success: false, error_code: 102, message: "Invalid access_token" } });
  });

  it("answers a bad user token with HTTP 401", async () => {
    const res = await get("/v1/pages", { access_token: "expired" });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, message: "Unauthorized" });
  });

  it("takes the page token under either name", async () => {
    const a = await get(`/public_api/v1/pages/${page}/tags`, { page_access_token: token });
    const b = await get(`/public_api/v1/pages/${page}/tags`, { access_token: token });
    expect(a.body.tags).toHaveLength(10);
    expect(b.body).toEqual(a.body);
  });

  it("checks required parameters and documented limits", async () => {
    const base = { page_access_token: token };
    const cases: Array<[string, Record<string, string | number>]> = [
      [`/public_api/v1/pages/${page}/page_customers`, { ...base, until, page_number: 1 }],
      [`/public_api/v1/pages/${page}/page_customers`, { ...base, since, until, page_number: 1, page_size: 101 }],
      [`/public_api/v1/pages/${page}/page_customers`, { ...base, since, until, page_number: 0 }],
      [`/public_api/v1/pages/${page}/posts`, { ...base, since, until, page_number: 1, page_size: 31 }],
      [`/public_api/v1/pages/${page}/conversations`, { ...base, since: until - 40 * 86_400, until, page_number: 1 }],
      [`/public_api/v2/pages/${page}/conversations`, { ...base, since }],
      [`/public_api/v2/pages/${page}/conversations`, { ...base, order_by: "created" }],
      [`/public_api/v1/pages/${page}/statistics/users`, { ...base, date_range: "2026-11-01 - 2026-11-02" }],
    ];
    await new Promise((r) => setTimeout(r, 1100));
    for (const [path, query] of cases) {
      const res = await get(path, query);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: "invalid_parameters" });
      await new Promise((r) => setTimeout(r, 210));
    }
  });

  it("limits each page to 5 calls per second with HTTP 429", async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const other = state.pages[2]!;
    const burst = await Promise.all(
      Array.from({ length: 7 }, () => get(`/public_api/v1/pages/${page}/tags`, { page_access_token: token })),
    );
    expect(burst.filter((r) => r.status === 429)).toHaveLength(2);
    expect(burst.find((r) => r.status === 429)!.body).toMatchObject({ success: false });
    const elsewhere = await get(`/public_api/v1/pages/${other.id}/tags`, { page_access_token: other.settings.page_access_token });
    expect(elsewhere.status).toBe(200);
  });

  it("answers an unknown conversation with 404", async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const res = await get(`/public_api/v1/pages/${page}/conversations/nope/messages`, { page_access_token: token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false });
  });

  it("replaces the page token on generate_page_access_token", async () => {
    const target = state.pages[0]!;
    const old = target.settings.page_access_token;
    const res = await request(`${origin}/api/v1/pages/${target.id}/generate_page_access_token?access_token=${state.userToken}&page_id=${target.id}`, {
      method: "POST",
    });
    const body = (await res.body.json()) as { success: boolean; page_access_token: string };
    expect(body.success).toBe(true);
    expect(body.page_access_token).not.toBe(old);
    const before = await get(`/public_api/v1/pages/${target.id}/tags`, { page_access_token: old });
    expect(before.body).toMatchObject({ error_code: 102 });
    const after = await get(`/public_api/v1/pages/${target.id}/tags`, { page_access_token: body.page_access_token });
    expect(after.body.tags).toHaveLength(10);
  });

  it("orders the v2 list by creation with the OpenAPI's order_by, since/until then reading the creation time", async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const seconds = (t: string) => Date.parse(`${t}Z`) / 1000;
    // A conversation begun more than a day before it was last active: a range starting between the two.
    const older = state.conversations.find((c) => seconds(c.updated_at) - seconds(c.inserted_at) > 86_400 && seconds(c.inserted_at) > since)!;
    const from = Math.floor(seconds(older.inserted_at)) + 3_600;
    const target = state.pages.find((p) => p.id === older.page_id)!;
    const query = { page_access_token: target.settings.page_access_token, since: from, until };
    const byCreation = await get(`/public_api/v2/pages/${target.id}/conversations`, { ...query, order_by: "inserted_at" });
    const expected = state.conversations
      .filter((c) => c.page_id === target.id && seconds(c.inserted_at) >= from && seconds(c.inserted_at) <= until)
      .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at) || b.id.localeCompare(a.id));
    expect((byCreation.body.conversations as { id: string }[]).map((c) => c.id)).toEqual(expected.map((c) => c.id).slice(0, 60));
    // Active in the range but begun before it: in the list by update, not in the list by creation.
    const byUpdate = await get(`/public_api/v2/pages/${target.id}/conversations`, query);
    expect((byUpdate.body.conversations as { id: string }[]).map((c) => c.id)).toContain(older.id);
    expect(expected.map((c) => c.id)).not.toContain(older.id);
  });

  it("takes only the user token on the /v1 conversation list", async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const byPage = await get(`/v1/pages/${page}/conversations`, { access_token: token });
    expect(byPage.status).toBe(401);
    const byUser = await get(`/v1/pages/${page}/conversations`, { access_token: state.userToken });
    expect(byUser.body.conversations).toHaveLength(60);
  });

  it("sends an uploaded file by content id on the page-token path, never with text or by URL", async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const inbox = state.conversations.find((c) => c.page_id === page && c.type === "INBOX")!;
    const boundary = "----sandbox-test";
    const png = Buffer.from("89504e470d0a1a0a", "hex");
    const form = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ao.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await request(`${origin}/api/public_api/v1/pages/${page}/upload_contents?page_access_token=${token}`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body: form,
    });
    const content = (await uploaded.body.json()) as { id: string; attachment_type: string };
    expect(content).toMatchObject({ attachment_type: "PHOTO", success: true });
    expect(state.uploads[content.id]).toMatchObject({ page_id: page, name: "ao.png", size: png.length });

    const send = (body: unknown) =>
      request(`${origin}/api/public_api/v1/pages/${page}/conversations/${inbox.id}/messages?page_access_token=${token}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const both = await send({ action: "reply_inbox", message: "Ảnh áo", content_ids: [content.id] });
    expect(both.statusCode).toBe(500);
    await both.body.dump();
    const byUrl = await send({ action: "reply_inbox", content_url: "https://example.com/a.png" });
    expect(byUrl.statusCode).toBe(400);
    await byUrl.body.dump();
  });
});
