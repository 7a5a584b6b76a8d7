import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../helpers/harness.js";
import {
  adDays,
  days,
  engagementByDay,
  engagementByHourOfDay,
  localDay,
  newCustomers,
  pageActivity,
  staffTotals,
  tagNet,
  total,
} from "./expected.js";

// "Today" is 2 January 2026, 10:00 in Vietnam: the seeded data spans a year boundary.
const NOW = new Date("2026-01-02T03:00:00Z");
const SINCE = "2025-12-30";
const UNTIL = "2026-01-01";
const SPAN = days(SINCE, UNTIL);
const COUNTS = ["inbox_count", "comment_count", "unique_inbox_count", "unique_comment_count", "private_reply_count", "phone_number_count"];

let h: Harness;
let pages: string[];
const lastQuery = (suffix: string) => {
  const req = [...h.sandbox.server.requests].reverse().find((r) => r.path.endsWith(suffix));
  return Object.fromEntries(Object.entries(req?.query ?? {}).map(([k, v]) => [k, v[0]]));
};

beforeAll(async () => {
  h = await startHarness({ sandbox: { now: NOW } });
  pages = h.sandbox.messaging.pages.map((p) => p.id);
});
afterAll(() => h.close());

describe("get_page_stats, metric engagement", () => {
  it("dates D/M/YYYY day labels by their own year", async () => {
    h.sandbox.server.injectFault({
      path: "/statistics/customer_engagements",
      kind: "status",
      status: 200,
      body: { success: true, data: { categories: ["1/1/2026", "31/12/2024"], series: [{ name: "inbox", data: [4, 2] }] } },
    });
    const r = await h.call("get_page_stats", { metric: "engagement", page_ids: [pages[0]], since: SINCE, until: UNTIL });
    expect(r.isError, r.text).toBe(false);
    expect((r.data as { rows: unknown[] }).rows).toEqual([
      { date: "2024-12-31", inbox: 2 },
      { date: "2026-01-01", inbox: 4 },
    ]);
  });

  it("gives per-day rows, oldest first, across the year boundary", async () => {
    const r = await h.call("get_page_stats", { metric: "engagement", page_ids: [pages[0]], since: SINCE, until: UNTIL });
    expect(r.isError, r.text).toBe(false);
    expect(lastQuery("/statistics/customer_engagements").date_range).toBe("30/12/2025 00:00:00 - 01/01/2026 23:59:59");
    const want = engagementByDay(h.sandbox.messaging, pages[0]!, SPAN);
    expect(r.data.rows.map((row: { date: string }) => row.date)).toEqual(["2025-12-30", "2025-12-31", "2026-01-01"]);
    for (const row of r.data.rows) {
      const { date, ...values } = row;
      expect(values, date).toEqual(
        want.get(date) ?? { inbox: 0, comment: 0, total: 0, new_customers_answered: 0, new_inbox: 0 },
      );
    }
    const inbox = [...want.values()].reduce((t, v) => t + v.inbox, 0);
    expect(r.data.totals.inbox).toBe(inbox);
    expect(inbox).toBeGreaterThan(0);
    expect(r.data.range).toEqual({ since: "2025-12-30T00:00:00+07:00", until: "2026-01-01T23:59:59+07:00" });
  });

  it("sums per page-local hour of day and says so", async () => {
    const r = await h.call("get_page_stats", { metric: "engagement", page_ids: [pages[1]], since: SINCE, until: UNTIL, by: "hour_of_day" });
    expect(r.data.rows).toEqual(engagementByHourOfDay(h.sandbox.messaging, pages[1]!, SPAN).map(({ hour, ...row }) => ({ hour_of_day: hour, ...row })));
    expect(r.data.note).toMatch(/local time/);
  });

  it("names the figures alike per day and per hour, and totals per hour only what adds up", async () => {
    const byDay = await h.call("get_page_stats", { metric: "engagement", page_ids: pages, since: UNTIL, until: UNTIL });
    const byHour = await h.call("get_page_stats", { metric: "engagement", page_ids: pages, since: UNTIL, until: UNTIL, by: "hour_of_day" });
    const day = pages.map((p) => engagementByDay(h.sandbox.messaging, p, days(UNTIL, UNTIL)).get(UNTIL)!);
    const hours = pages.flatMap((p) => engagementByHourOfDay(h.sandbox.messaging, p, days(UNTIL, UNTIL)));
    const sum = (rows: Record<string, number>[], k: string) => rows.reduce((t, r) => t + r[k]!, 0);
    // One day: the day totals are the day's distinct conversations.
    expect(byDay.data.totals).toEqual({
      inbox: sum(day, "inbox"),
      comment: sum(day, "comment"),
      total: sum(day, "total"),
      new_inbox: sum(day, "new_inbox"),
      new_customers_answered: sum(day, "new_customers_answered"),
    });
    // Hour rows count a conversation once per active hour: their sum is no count of conversations.
    expect(sum(hours, "inbox")).toBeGreaterThan(byDay.data.totals.inbox);
    expect(byHour.data.totals).toEqual({ new_inbox: sum(hours, "new_inbox"), new_customers: sum(hours, "new_customers") });
    expect(byHour.data.totals.new_inbox).toBe(byDay.data.totals.new_inbox);
    for (const p of byHour.data.pages) expect(Object.keys(p).sort()).toEqual(["name", "new_customers", "new_inbox", "page_id"]);
    expect(byHour.data.note).toMatch(/not totalled/);
    expect(byDay.data.note).toMatch(/totals add the days/);
  });

  it("filters by assigned staff", async () => {
    const staff = h.sandbox.messaging.staff[1]!.id;
    await h.call("get_page_stats", { metric: "engagement", page_ids: [pages[0]], since: SINCE, until: UNTIL, user_ids: JSON.stringify([staff]) });
    expect(lastQuery("/statistics/customer_engagements").user_ids).toBe(staff);
  });

  it("takes staff by name in user_ids, as assign_conversation does, over every page", async () => {
    const s = h.sandbox.messaging;
    const member = s.staff[1]!;
    const byId = await h.call("get_page_stats", { metric: "engagement", since: SINCE, until: UNTIL, user_ids: [member.id] });
    // The given name alone, without accents: "Ngọc Ánh" -> "ngoc anh".
    const given = member.name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").split(" ").slice(-2).join(" ").toLowerCase();
    const byName = await h.call("get_page_stats", { metric: "engagement", since: SINCE, until: UNTIL, user_ids: [given] });
    expect(byName.isError, byName.text).toBe(false);
    expect(lastQuery("/statistics/customer_engagements").user_ids).toBe(member.id);
    expect(byName.data.totals).toEqual(byId.data.totals);
    const unknown = await h.call("get_page_stats", { metric: "engagement", since: SINCE, until: UNTIL, user_ids: ["Nobody Here"] });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/user_ids: no staff "Nobody Here" on these pages/);
    // Someone who has left still counts for the days they worked.
    const former = s.staff.find((u) => u.disabled_page_ids.length > 0)!;
    expect((await h.call("get_page_stats", { metric: "engagement", page_ids: [pages[0]], since: SINCE, until: UNTIL, user_ids: [former.name] })).isError).toBe(false);
  });
});

describe("get_page_stats, metric messages", () => {
  it("sends Unix seconds and sums the hourly rows into local days", async () => {
    const r = await h.call("get_page_stats", { page_ids: [pages[0]], since: SINCE, until: UNTIL });
    expect(r.isError, r.text).toBe(false);
    expect(lastQuery("/statistics/pages")).toMatchObject({ since: String(SPAN.from / 1000), until: String(Math.floor(SPAN.to / 1000)) });
    const want = pageActivity(h.sandbox.messaging, pages[0]!, SPAN, localDay);
    for (const field of ["customer_inbox_count", "page_inbox_count", "customer_comment_count", "new_inbox_count", "new_customer_count", "phone_number_count", "uniq_phone_number_count", "inbox_interactive_count"]) {
      expect(r.data.totals[field], field).toBe(total(want, field));
      for (const row of r.data.rows) expect(row[field], `${row.date} ${field}`).toBe(want.get(row.date)?.get(field) ?? 0);
    }
    expect(r.data.rows).toHaveLength(3);
    expect(r.data.note).toMatch(/inbox_interactive_count = older inbox conversations \(begun before that hour\) in which the customer wrote again/);
  });

  it("answers what its description's example says, followed to the letter", async () => {
    const tool = (await h.client.listTools()).tools.find((t) => t.name === "get_page_stats")!;
    const [, question, figure, limit] = /E\.g\. ([^:]+): sort_by "(\w+)", limit (\d+)/.exec(tool.description ?? "")!;
    // The example names what its figure counts: customer_inbox_count counts customers' inbox
    // messages (not new conversations, as a "busiest day" reads).
    expect(question).toBe("day with most customer inbox messages");
    const r = await h.call("get_page_stats", { since: SINCE, until: UNTIL, sort_by: figure, limit: Number(limit) });
    expect(r.isError, r.text).toBe(false);
    const perDay = new Map<string, number>();
    for (const page of pages) {
      for (const [day, counts] of pageActivity(h.sandbox.messaging, page, SPAN, localDay)) perDay.set(day, (perDay.get(day) ?? 0) + (counts.get("customer_inbox_count") ?? 0));
    }
    const [best] = [...perDay].sort((a, b) => b[1] - a[1]);
    expect(r.data.rows).toEqual([expect.objectContaining({ date: best![0], customer_inbox_count: best![1] })]);
  });

  it("gives active hours in the shop zone", async () => {
    const r = await h.call("get_page_stats", { page_ids: [pages[0]], since: "2025-12-31", until: "2025-12-31", by: "hour" });
    const span = days("2025-12-31", "2025-12-31");
    const want = pageActivity(h.sandbox.messaging, pages[0]!, span, (ms) => new Date(ms + 7 * 3_600_000).toISOString().slice(0, 13));
    expect(r.data.rows.length).toBe(want.size);
    for (const row of r.data.rows) {
      expect(row.hour).toMatch(/^2025-12-31T\d{2}:00:00\+07:00$/);
      expect(row.customer_inbox_count).toBe(want.get(row.hour.slice(0, 13))?.get("customer_inbox_count") ?? 0);
    }
    expect(r.data.note).toContain("Asia/Ho_Chi_Minh");
  });

  it("rejects reversed, over-long and too-long hourly ranges before calling", async () => {
    const before = h.sandbox.server.requests.length;
    const reversed = await h.call("get_page_stats", { page_ids: [pages[0]], since: UNTIL, until: SINCE });
    expect(reversed.isError).toBe(true);
    expect(reversed.text).toMatch(/until is before since/);
    const long = await h.call("get_page_stats", { page_ids: [pages[0]], since: "2024-10-01", until: "2025-12-01" });
    expect(long.text).toMatch(/longer than the 366 days/);
    const hourly = await h.call("get_page_stats", { page_ids: [pages[0]], since: "2025-12-01", until: "2025-12-20", by: "hour" });
    expect(hourly.text).toMatch(/by: "hour" rows cover at most 7 days/);
    const badId = await h.call("get_page_stats", { page_ids: ["../pages"] });
    expect(badId.isError).toBe(true);
    expect(h.sandbox.server.requests.length).toBe(before);
  });
});

describe("get_page_stats, metric tags", () => {
  it("labels each tag with its name and colour and gives net changes per day", async () => {
    const since = "2025-12-10";
    const r = await h.call("get_page_stats", { metric: "tags", page_ids: [pages[0]], since, until: UNTIL });
    expect(r.isError, r.text).toBe(false);
    const net = tagNet(h.sandbox.messaging, pages[0]!, days(since, UNTIL));
    const tags = h.sandbox.messaging.tags[pages[0]!]!;
    expect(r.data.rows).toHaveLength(tags.length);
    for (const tag of tags) {
      const row = r.data.rows.find((t: { tag_id: string }) => t.tag_id === String(tag.id));
      expect(row).toMatchObject({ name: tag.text });
      const perDay = net.get(String(tag.id)) ?? new Map<string, number>();
      expect(row.net).toBe([...perDay.values()].reduce((a, b) => a + b, 0));
      expect(Object.fromEntries((row.days ?? []).map((d: { date: string; net: number }) => [d.date, d.net]))).toEqual(
        Object.fromEntries([...perDay].filter(([, v]) => v !== 0)),
      );
    }
    expect(r.data.rows.some((t: { net: number }) => t.net !== 0)).toBe(true);
  });
});

describe("get_staff_stats", () => {
  it("joins names and matches the seeded activity of one page", async () => {
    const r = await h.call("get_staff_stats", { page_ids: pages[0], since: SINCE, until: UNTIL });
    expect(r.isError, r.text).toBe(false);
    expect(lastQuery("/statistics/user")).toMatchObject({ page_ids: pages[0], date_range: "30/12/2025 00:00:00 - 01/01/2026 23:59:59" });
    const want = staffTotals(h.sandbox.messaging, [pages[0]!], SPAN);
    expect(r.data.staff.length).toBe(want.size);
    for (const s of r.data.staff) {
      expect(s, s.user_id).toMatchObject(want.get(s.user_id)!);
      expect(s.name).toBe(h.sandbox.messaging.staff.find((u) => u.id === s.user_id)!.name);
    }
    expect(r.data.totals.order_count).toBe([...want.values()].reduce((t, v) => t + v.order_count, 0));
    // The inbox's order_count is a tag count, which the result must say: it is no POS order count.
    expect(r.data.note).toMatch(/"Đã chốt đơn" .*tag.*not POS orders/);
  });

  it("ranks by messages sent, or by conversations handled", async () => {
    const order = (rows: Record<string, number>[], key: (r: Record<string, number>) => number) =>
      rows.every((r, i) => i === 0 || key(rows[i - 1]!) >= key(r));
    const messages = (r: Record<string, number>) => (r.inbox_count ?? 0) + (r.comment_count ?? 0);
    const conversations = (r: Record<string, number>) => (r.unique_inbox_count ?? 0) + (r.unique_comment_count ?? 0);
    const byMessages = await h.call("get_staff_stats", { page_ids: pages, since: SINCE, until: UNTIL });
    const byConversations = await h.call("get_staff_stats", { page_ids: pages, since: SINCE, until: UNTIL, sort_by: "conversations" });
    expect(order(byMessages.data.staff, messages)).toBe(true);
    expect(order(byConversations.data.staff, conversations)).toBe(true);
    expect(new Set(byConversations.data.staff.map((s: { user_id: string }) => s.user_id))).toEqual(new Set(byMessages.data.staff.map((s: { user_id: string }) => s.user_id)));
    expect(byConversations.data.staff.map((s: { user_id: string }) => s.user_id)).not.toEqual(byMessages.data.staff.map((s: { user_id: string }) => s.user_id));
  });

  it("uses the several-pages endpoint with the user token: the sum of the single-page results", async () => {
    const single = await Promise.all(pages.map((p) => h.call("get_staff_stats", { page_ids: [p], since: SINCE, until: UNTIL })));
    const before = h.sandbox.server.count("GET", "/api/v1/statistics/user");
    expect(before).toBeGreaterThanOrEqual(pages.length);
    const multi = await h.call("get_staff_stats", { page_ids: pages.join(","), since: SINCE, until: UNTIL });
    expect(multi.isError, multi.text).toBe(false);
    expect(h.sandbox.server.count("GET", "/api/v1/statistics/user")).toBe(before + 1);
    const summed = new Map<string, Record<string, number>>();
    for (const s of single.flatMap((r) => r.data.staff)) {
      const acc = summed.get(s.user_id) ?? {};
      for (const f of [...COUNTS, "order_count"]) acc[f] = (acc[f] ?? 0) + s[f];
      summed.set(s.user_id, acc);
    }
    expect(multi.data.staff.length).toBe(summed.size);
    for (const s of multi.data.staff) expect(s, s.user_id).toMatchObject(summed.get(s.user_id)!);
    const want = staffTotals(h.sandbox.messaging, pages, SPAN);
    for (const s of multi.data.staff) {
      expect(s.order_count).toBe(want.get(s.user_id)!.order_count);
      expect(s.avg_response_seconds).toBe(want.get(s.user_id)!.avg_response_seconds);
    }
    expect(multi.data.totals.inbox_count).toBe([...want.values()].reduce((t, v) => t + v.inbox_count, 0));
  });
});

describe("get_page_stats, metric new_customers", () => {
  it("names a page id the account does not have by its place in page_ids", async () => {
    const r = await h.call("get_page_stats", { metric: "new_customers", page_ids: [pages[0], "123"], since: SINCE, until: UNTIL });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Error \(invalid_input\): page_ids\[1\]: 123 is not a page of this account/);
    expect(r.text).toContain(pages[0]!);
  });

  it("sends a day range and gives day rows", async () => {
    const r = await h.call("get_page_stats", { metric: "new_customers", page_ids: [pages[0]], since: SINCE, until: UNTIL });
    expect(r.isError, r.text).toBe(false);
    expect(lastQuery("/statistics/page_customers")).toMatchObject({ date_range: "30/12/2025 - 01/01/2026", group_by: "day" });
    const want = newCustomers(h.sandbox.messaging, pages[0]!, SPAN, localDay);
    expect(r.data.rows.map((row: { date: string }) => row.date)).toEqual(["2025-12-30", "2025-12-31", "2026-01-01"]);
    for (const row of r.data.rows) {
      for (const f of ["new_customer_count", "new_page_inbox_count", "phone_number_count", "new_phone_number_count"]) {
        expect(row[f], `${row.date} ${f}`).toBe(want.get(row.date)?.get(f) ?? 0);
      }
    }
  });

  it("counts whole days from a partial-day input, per hour", async () => {
    const r = await h.call("get_page_stats", { metric: "new_customers", page_ids: [pages[0]], since: "2025-12-31T15:00:00", until: "2025-12-31T16:00:00", by: "hour" });
    expect(lastQuery("/statistics/page_customers").date_range).toBe("31/12/2025 - 31/12/2025");
    const want = newCustomers(h.sandbox.messaging, pages[0]!, days("2025-12-31", "2025-12-31"), (ms) =>
      `${new Date(ms + 7 * 3_600_000).toISOString().slice(0, 13)}:00:00`,
    );
    expect(r.data.rows.map((row: { hour: string }) => row.hour)).toEqual([...want.keys()].sort());
    expect(r.data.totals.new_page_inbox_count).toBe(total(want, "new_page_inbox_count"));
  });

  it("gives one row per page with group_by page_id", async () => {
    const r = await h.call("get_page_stats", { metric: "new_customers", page_ids: [pages[0], pages[1]], since: SINCE, until: UNTIL, by: "page" });
    expect(r.data.rows.map((row: { page_id: string }) => row.page_id)).toEqual([pages[0], pages[1]]);
    for (const row of r.data.rows) {
      const want = newCustomers(h.sandbox.messaging, row.page_id, SPAN, localDay);
      expect(row.new_customer_count).toBe(total(want, "new_customer_count"));
      expect(row.new_phone_number_count).toBe(total(want, "new_phone_number_count"));
    }
  });
});

describe("get_page_stats new_customers against the conversations", () => {
  it("counts as new the people whose first conversation with the page began in the range, never more than the new conversations", async () => {
    const s = h.sandbox.messaging;
    const span = days("2025-12-26", UNTIL);
    for (const page of pages) {
      const threads = s.conversations.filter((c) => c.page_id === page);
      const first = new Map<string, number>();
      for (const c of threads) first.set(c.from.id, Math.min(first.get(c.from.id) ?? Infinity, Date.parse(`${c.inserted_at}Z`)));
      const inSpan = (ms: number) => ms >= span.from && ms <= span.to;
      const people = [...first.values()].filter(inSpan).length;
      const begun = threads.filter((c) => inSpan(Date.parse(`${c.inserted_at}Z`))).length;
      const r = await h.call("get_page_stats", { metric: "new_customers", page_ids: [page], since: "2025-12-26", until: UNTIL });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.totals.new_customer_count, page).toBe(people);
      expect(people).toBeLessThanOrEqual(begun);
    }
  });
});

describe("get_ad_stats", () => {
  it("gives campaign metrics as numbers with the currency once", async () => {
    const r = await h.call("get_ad_stats", { page_ids: [pages[0]], since: SINCE, until: UNTIL });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.currency).toBe("VND");
    const delivered = adDays(h.sandbox.messaging, pages[0]!, SPAN);
    const spend = delivered.reduce((t, d) => t + d.spend, 0);
    expect(r.data.totals.spend).toBe(spend);
    const clicks = delivered.reduce((t, d) => t + d.link_click, 0);
    expect(r.data.totals.cpc).toBe(Number((spend / clicks).toFixed(2)));
    for (const row of r.data.rows) {
      const mine = delivered.filter((d) => d.campaign_id === row.campaign_id);
      if (mine.length === 0) expect(row.spend).toBeUndefined();
      else expect(row.impressions).toBe(mine.reduce((t, d) => t + d.impressions, 0));
      expect(row.currency).toBeUndefined();
      expect(typeof row.daily_budget === "number" || typeof row.lifetime_budget === "number").toBe(true);
    }
  });

  it("names each figure for what it counts, the platform's names accepted for sort_by", async () => {
    const r = await h.call("get_ad_stats", { page_ids: [pages[0]], since: SINCE, until: UNTIL });
    const delivered = adDays(h.sandbox.messaging, pages[0]!, SPAN);
    const sum = (field: "messaging_conversation_started_7d" | "messaging_first_reply" | "purchases_conversion_value" | "link_click" | "spend" | "impressions") =>
      delivered.reduce((t, d) => t + d[field], 0);
    expect(r.data.totals).toMatchObject({
      conversations_started: sum("messaging_conversation_started_7d"),
      new_messaging_contacts: sum("messaging_first_reply"),
      purchase_value: sum("purchases_conversion_value"),
      link_clicks: sum("link_click"),
      ctr_pct: Number(((sum("link_click") * 100) / sum("impressions")).toFixed(2)),
      roas: Number((sum("purchases_conversion_value") / sum("spend")).toFixed(4)),
    });
    const shown = [...Object.keys(r.data.totals), ...r.data.rows.flatMap((row: object) => Object.keys(row))];
    for (const upstream of ["messaging_conversation_started_7d", "messaging_first_reply", "purchases_conversion_value", "link_click", "ctr", "purchase_roas"]) {
      expect(shown).not.toContain(upstream);
    }
    const bad = await h.call("get_ad_stats", { page_ids: [pages[0]], sort_by: "revenue" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("conversations_started");
  });

  it("gives per-ad and per-day rows", async () => {
    const delivered = adDays(h.sandbox.messaging, pages[1]!, SPAN);
    const ads = await h.call("get_ad_stats", { page_ids: [pages[1]], view: "ads", since: SINCE, until: UNTIL });
    expect(lastQuery("/statistics/ads").type).toBe("by_id");
    for (const row of ads.data.rows) {
      expect(row.link_clicks ?? 0).toBe(delivered.filter((d) => d.ad_id === row.ad_id).reduce((t, d) => t + d.link_click, 0));
    }
    const byDay = await h.call("get_ad_stats", { page_ids: [pages[1]], view: "days", since: SINCE, until: UNTIL });
    expect(lastQuery("/statistics/ads").type).toBe("by_time");
    expect(byDay.data.rows.map((row: { date: string }) => row.date)).toEqual([...new Set(delivered.map((d) => d.date))].sort());
    for (const row of byDay.data.rows) {
      expect(row.spend).toBe(delivered.filter((d) => d.date === row.date).reduce((t, d) => t + d.spend, 0));
    }
  });

  it("explains the permission the upstream wants when it refuses", async () => {
    const r = await h.call("get_ad_stats", { page_ids: [h.sandbox.messaging.adsDeniedPageId], since: SINCE, until: UNTIL });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/HTTP 403/);
    expect(r.text).toMatch(/Next step: .*view the page's ad reports/);
  });
});
