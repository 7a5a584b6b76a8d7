import type { Sandbox } from "../../src/sandbox/index.js";
import { adDays, days, localDay, newCustomers, pageActivity, staffTotals, tagNet, total } from "../tools/page-stats/expected.js";
import { type Scenario, shopDay } from "./framework.js";

// Inbox, staff and ad questions: answered by the statistics tools over every page.

const pageIds = (s: Sandbox) => s.messaging.pages.map((p) => p.id);
const lastWeek = (s: Sandbox) => days(shopDay(s, 6), shopDay(s, 0));
const staffName = (s: Sandbox, id: string) => s.messaging.staff.find((u) => u.id === id)!.name;

export const statsScenarios: Scenario<unknown>[] = [
  {
    question: "How many messages did customers send each of my pages this week?",
    async ask(q) {
      const r = await q.call("get_page_stats", { by: "page" });
      return Object.fromEntries(r.data.rows.map((row: Record<string, number>) => [row.name, row.customer_inbox_count]));
    },
    truth: (s) => Object.fromEntries(s.messaging.pages.map((p) => [p.name, total(pageActivity(s.messaging, p.id, lastWeek(s), localDay), "customer_inbox_count")])),
  },
  {
    question: "How many new customers did we get yesterday, all pages together?",
    async ask(q) {
      const r = await q.call("get_page_stats", { metric: "new_customers", since: "yesterday", until: "yesterday" });
      return r.data.totals.new_customer_count;
    },
    truth: (s) => {
      const span = days(shopDay(s, 1), shopDay(s, 1));
      return pageIds(s).reduce((t, p) => t + total(newCustomers(s.messaging, p, span, localDay), "new_customer_count"), 0);
    },
  },
  {
    question: "Which day this month had the most customer messages?",
    async ask(q) {
      const r = await q.call("get_page_stats", { since: `${shopDay(q.sandbox).slice(0, 7)}-01`, sort_by: "customer_inbox_count", limit: 1 });
      return r.data.rows[0].date;
    },
    truth: (s) => {
      const span = days(`${shopDay(s).slice(0, 7)}-01`, shopDay(s));
      const byDay = new Map<string, number>();
      for (const p of pageIds(s)) {
        for (const [day, counts] of pageActivity(s.messaging, p, span, localDay)) byDay.set(day, (byDay.get(day) ?? 0) + (counts.get("customer_inbox_count") ?? 0));
      }
      return [...byDay].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    },
  },
  {
    question: "Which tag was used most on our first page over the last 30 days?",
    async ask(q) {
      const page = q.sandbox.messaging.pages[0]!.id;
      const r = await q.call("get_page_stats", { metric: "tags", page_ids: [page], since: shopDay(q.sandbox, 29), limit: 1 });
      return r.data.rows[0].name;
    },
    truth: (s) => {
      const page = s.messaging.pages[0]!.id;
      const net = tagNet(s.messaging, page, days(shopDay(s, 29), shopDay(s)));
      const [best] = [...net].map(([id, perDay]) => [id, [...perDay.values()].reduce((a, b) => a + b, 0)] as const).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
      return s.messaging.tags[page]!.find((t) => String(t.id) === best![0])!.text;
    },
  },
  {
    question: "Which page brought the most new customers this month?",
    async ask(q) {
      const r = await q.call("get_page_stats", { metric: "new_customers", by: "page", since: `${shopDay(q.sandbox).slice(0, 7)}-01`, sort_by: "new_customer_count", limit: 1 });
      return r.data.rows[0].name;
    },
    truth: (s) => {
      const span = days(`${shopDay(s).slice(0, 7)}-01`, shopDay(s));
      const counts = s.messaging.pages.map((p) => [p.name, total(newCustomers(s.messaging, p.id, span, localDay), "new_customer_count")] as const);
      return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    },
  },
  {
    question: "On the page I name, who handled the most conversations yesterday?",
    async ask(q) {
      const page = q.sandbox.messaging.pages[0]!;
      const r = await q.call("get_staff_stats", { page_ids: [page.name.toLowerCase()], since: "yesterday", until: "yesterday", sort_by: "conversations", limit: 1 });
      return r.data.staff[0].name;
    },
    truth: (s) => {
      const span = days(shopDay(s, 1), shopDay(s, 1));
      // Staff who handled as many rank by user id, as the tool ranks a tie.
      const [id] = [...staffTotals(s.messaging, [s.messaging.pages[0]!.id], span)].sort(
        (a, b) => b[1].unique_inbox_count + b[1].unique_comment_count - (a[1].unique_inbox_count + a[1].unique_comment_count) || a[0].localeCompare(b[0]),
      )[0]!;
      return staffName(s, id);
    },
  },
  {
    question: "Who on my team answered the most messages this week?",
    async ask(q) {
      const r = await q.call("get_staff_stats", { limit: 3 });
      return r.data.staff[0].name;
    },
    truth: (s) => {
      const [id] = [...staffTotals(s.messaging, pageIds(s), lastWeek(s))].sort((a, b) => b[1].inbox_count + b[1].comment_count - (a[1].inbox_count + a[1].comment_count))[0]!;
      return staffName(s, id);
    },
  },
  {
    question: "Who replies to customers fastest (this week)?",
    async ask(q) {
      const r = await q.call("get_staff_stats", { sort_by: "avg_response_seconds", limit: 1 });
      return r.data.staff[0].name;
    },
    truth: (s) => {
      const answered = [...staffTotals(s.messaging, pageIds(s), lastWeek(s))].filter(([, v]) => v.inbox_count + v.comment_count > 0);
      return staffName(s, answered.sort((a, b) => a[1].avg_response_seconds - b[1].avg_response_seconds)[0]![0]);
    },
  },
  {
    question: "How much did we spend on ads this week, and how much did the ads bring in?",
    async ask(q) {
      const r = await q.call("get_ad_stats", {});
      return { spend: r.data.totals.spend, value: r.data.totals.purchase_value, not_counted: r.data.failed_pages.map((f: { page_id: string }) => f.page_id) };
    },
    truth: (s) => {
      const denied = s.messaging.adsDeniedPageId;
      const delivered = pageIds(s).filter((p) => p !== denied).flatMap((p) => adDays(s.messaging, p, lastWeek(s)));
      return {
        spend: delivered.reduce((t, d) => t + d.spend, 0),
        value: delivered.reduce((t, d) => t + d.purchases_conversion_value, 0),
        not_counted: [denied],
      };
    },
  },
  {
    question: "Which ad campaign brought in the most purchase value this month?",
    async ask(q) {
      const r = await q.call("get_ad_stats", { since: `${shopDay(q.sandbox).slice(0, 7)}-01`, sort_by: "purchase_value", limit: 1 });
      return r.data.rows[0].campaign_id;
    },
    truth: (s) => {
      const span = days(`${shopDay(s).slice(0, 7)}-01`, shopDay(s));
      const value = new Map<string, number>();
      for (const d of pageIds(s).flatMap((p) => adDays(s.messaging, p, span))) value.set(d.campaign_id, (value.get(d.campaign_id) ?? 0) + d.purchases_conversion_value);
      return [...value].sort((a, b) => b[1] - a[1])[0]![0];
    },
  },
];
