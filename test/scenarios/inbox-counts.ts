import type { Sandbox } from "../../src/sandbox/index.js";
import type { ConversationRecord } from "../../src/sandbox/messaging/types.js";
import { localDay } from "../tools/page-stats/expected.js";
import { type Scenario, shopDay } from "./framework.js";

// Inbox questions over many conversations or calls, answered by counts the server makes: new
// threads per page, type, tag, staff and day, and missed calls. Truths count the raw records.

const at = (time: string) => Date.parse(`${time.slice(0, 23)}Z`);
const live = (s: Sandbox) => {
  const active = new Set(s.messaging.pages.map((p) => p.id));
  return s.messaging.conversations.filter((c) => active.has(c.page_id) && !c.is_removed);
};
const pageName = (s: Sandbox, id: string) => s.messaging.pages.find((p) => p.id === id)!.name;
const createdDay = (c: ConversationRecord) => localDay(at(c.inserted_at));

/** Days back from today to this week's Monday (weeks start on Monday). */
const sinceMonday = (s: Sandbox) => (new Date(`${shopDay(s)}T00:00:00Z`).getUTCDay() + 6) % 7;
const thisWeek = (s: Sandbox, day: string) => day >= shopDay(s, sinceMonday(s));
const lastWeek = (s: Sandbox, day: string) => day >= shopDay(s, sinceMonday(s) + 7) && day < shopDay(s, sinceMonday(s));

function tally(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

/** The largest counts' keys, sorted (a tie names every one). */
function largest(counts: Record<string, number>): string[] {
  const top = Math.max(...Object.values(counts));
  return Object.keys(counts)
    .filter((k) => counts[k] === top)
    .sort();
}

type Group = Record<string, string> & { count: number };
const countsOf = (groups: Group[], key: string) => Object.fromEntries(groups.map((g) => [g[key], g.count]));

export const inboxCountScenarios: Scenario<unknown>[] = [
  {
    question: "How many new comment threads did Mây Kids get in the last 7 days?",
    async ask(q) {
      const r = await q.call("list_conversations", { page_ids: "Mây Kids", type: "COMMENT", time_field: "created", since: "last 7 days", group_by: "page" });
      return r.data.total;
    },
    truth: (s) => {
      const kids = s.messaging.pages.find((p) => p.name.startsWith("Mây Kids"))!;
      return live(s).filter((c) => c.page_id === kids.id && c.type === "COMMENT" && createdDay(c) >= shopDay(s, 6)).length;
    },
  },
  {
    question: "Which page got the most new conversations last week, and how many?",
    async ask(q) {
      const r = await q.call("list_conversations", { time_field: "created", since: "last week", until: "last week", group_by: "page", limit: 1 });
      return `${r.data.groups[0].page} ${r.data.groups[0].count}`;
    },
    truth: (s) => {
      const counts = tally(live(s).filter((c) => lastWeek(s, createdDay(c))).map((c) => pageName(s, c.page_id)));
      const [page] = largest(counts);
      return `${page} ${counts[page!]}`;
    },
  },
  {
    question: "How many new conversations of each type came in this week?",
    async ask(q) {
      const r = await q.call("list_conversations", { time_field: "created", since: "this week", group_by: "type" });
      return countsOf(r.data.groups, "type");
    },
    truth: (s) => tally(live(s).filter((c) => thisWeek(s, createdDay(c))).map((c) => c.type)),
  },
  {
    question: "How many conversations carry each of our tags, all pages together?",
    async ask(q) {
      const r = await q.call("list_conversations", { group_by: "tag", limit: 50 });
      return countsOf(
        r.data.groups.filter((g: Group) => g.tag !== "(no tag)"),
        "tag",
      );
    },
    // A tag is its name: each page numbers its own tags.
    truth: (s) => tally(live(s).flatMap((c) => c.tags.map((t) => s.messaging.tags[c.page_id]!.find((x) => x.id === t)!.text))),
  },
  {
    question: "How many customers awaiting a reply does each staff member have?",
    async ask(q) {
      const r = await q.call("list_conversations", { awaiting_reply: true, group_by: "assignee", limit: 50 });
      return countsOf(r.data.groups, "assignee");
    },
    // Awaiting: the customer wrote last, of all time (the same scope as without the grouping).
    truth: (s) =>
      tally(
        live(s)
          .filter((c) => !s.messaging.messages[c.id]!.at(-1)!.from.admin_id)
          .flatMap((c) => (c.current_assign_users.length ? c.current_assign_users.map((u) => u.name) : ["(unassigned)"])),
      ),
  },
  {
    question: "On which day last week did we get the most new conversations?",
    async ask(q) {
      const r = await q.call("list_conversations", { time_field: "created", since: "last week", until: "last week", group_by: "day" });
      return largest(countsOf(r.data.groups, "day"));
    },
    truth: (s) => largest(tally(live(s).map(createdDay).filter((day) => lastWeek(s, day)))),
  },
  {
    question: "How many calls did we miss this week?",
    async ask(q) {
      const r = await q.call("list_call_logs", { since: "this week", limit: 0 });
      return r.data.totals.missed;
    },
    // Incoming calls nobody answered, on every page with a call centre.
    truth: (s) =>
      s.messaging.callLogs.filter((l) => thisWeek(s, localDay(at(l.created_time))) && l.direction === "inbound" && l.answered_time === null).length,
  },
  {
    question: "How many calls did each page miss this week?",
    async ask(q) {
      const r = await q.call("list_call_logs", { since: "this week", limit: 0 });
      return Object.fromEntries(r.data.pages.map((p: { page_name: string; totals: { missed: number } }) => [p.page_name, p.totals.missed]));
    },
    truth: (s) =>
      Object.fromEntries(
        s.messaging.pages
          .filter((p) => s.messaging.sipPackages[p.id])
          .map((p) => [
            p.name,
            s.messaging.callLogs.filter((l) => l.page_id === p.id && thisWeek(s, localDay(at(l.created_time))) && l.direction === "inbound" && l.answered_time === null)
              .length,
          ]),
      ),
  },
  {
    question: "How many ratings and livestream comments did each page get this month?",
    async ask(q) {
      const r = await q.call("list_conversations", { time_field: "created", since: "this month", type: ["RATING", "COMMENT_LIVESTREAM"], group_by: ["page", "type"] });
      return Object.fromEntries(r.data.groups.map((g: Group) => [`${g.page} ${g.type}`, g.count]));
    },
    // Every page and type named, a page without any (the Instagram one has neither) at 0.
    truth: (s) =>
      Object.fromEntries(
        s.messaging.pages.flatMap((p) =>
          ["RATING", "COMMENT_LIVESTREAM"].map((type) => [
            `${p.name} ${type}`,
            live(s).filter((c) => c.page_id === p.id && c.type === type && createdDay(c) >= `${shopDay(s).slice(0, 8)}01`).length,
          ]),
        ),
      ),
  },
];
