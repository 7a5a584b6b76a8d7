import type { Sandbox } from "../../src/sandbox/index.js";
import type { ConversationRecord } from "../../src/sandbox/messaging/types.js";
import { days, localDay, pageActivity, total } from "../tools/page-stats/expected.js";
import { type Scenario, shopDay } from "./framework.js";

// Inbox questions: who waits, a customer's conversations, a page by its name.

const at = (time: string) => Date.parse(`${time.slice(0, 23)}Z`);
const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/đ/g, "d")
    .replace(/Đ/g, "D")
    .toLowerCase()
    .trim();

const live = (s: Sandbox) => s.messaging.conversations.filter((c) => !c.is_removed);
const lastMessage = (s: Sandbox, c: ConversationRecord) => s.messaging.messages[c.id]?.at(-1);

/** A customer with exactly one conversation, so "her conversations" has one true answer. */
function loneCustomer(s: Sandbox): ConversationRecord {
  const byName = new Map<string, ConversationRecord[]>();
  for (const c of live(s)) byName.set(fold(c.customers[0]!.name), [...(byName.get(fold(c.customers[0]!.name)) ?? []), c]);
  return [...byName.values()].find((list) => list.length === 1 && list[0]!.type === "INBOX")![0]!;
}

/** A conversation where the customer left a phone number, and that number. */
function withPhone(s: Sandbox): { c: ConversationRecord; phone: string } {
  const c = live(s).find((x) => x.recent_phone_numbers.length > 0)!;
  return { c, phone: c.recent_phone_numbers[0]!.phone_number };
}

/** 0912345678 as a person would type it with a country code: +84 912 345 678. */
const international = (phone: string) => `+84 ${phone.slice(1, 4)} ${phone.slice(4, 7)} ${phone.slice(7)}`;

export const inboxScenarios: Scenario<unknown>[] = [
  {
    question: "How many customers have been waiting more than an hour for a reply, across all pages?",
    async ask(q) {
      const r = await q.call("list_conversations", { awaiting_reply: true, waiting_minutes: 60 });
      return r.data.total;
    },
    // Every one of them, of all time (issue 28: the last 7 days alone gave 32 of 171 as "waiting").
    truth: (s) =>
      live(s).filter((c) => {
        const last = lastMessage(s, c);
        return last !== undefined && !last.from.admin_id && at(last.inserted_at) <= Date.now() - 3_600_000;
      }).length,
  },
  {
    question: "Who has been waiting longest for a reply this week, and for how long?",
    async ask(q) {
      const r = await q.call("list_conversations", { awaiting_reply: true, limit: 1 });
      const [first] = r.data.conversations;
      return `${first.id} ${Math.round(first.waiting_minutes / 60)}h`;
    },
    // Waiting since the customer's last message; conversations active this past week, as above.
    truth: (s) => {
      const waiting = live(s).flatMap((c) => {
        const last = lastMessage(s, c);
        return last && !last.from.admin_id && localDay(at(c.updated_at)) >= shopDay(s, 6) ? [{ c, since: at(last.inserted_at) }] : [];
      });
      const first = waiting.sort((a, b) => a.since - b.since)[0]!;
      return `${first.c.id} ${Math.round((Date.now() - first.since) / 3_600_000)}h`;
    },
  },
  {
    question: "Show me my conversations with this customer (by her full name).",
    async ask(q) {
      const name = loneCustomer(q.sandbox).customers[0]!.name;
      const r = await q.call("list_conversations", { customer: name });
      return r.data.conversations.map((c: { id: string }) => c.id);
    },
    truth: (s) => {
      const name = fold(loneCustomer(s).customers[0]!.name);
      return live(s)
        .filter((c) => fold(c.customers[0]!.name) === name)
        .map((c) => c.id);
    },
  },
  {
    question: "A customer called from +84 9xx xxx xxx: which conversation is hers?",
    async ask(q) {
      const r = await q.call("list_conversations", { customer: international(withPhone(q.sandbox).phone) });
      const found = r.data.conversations.map((c: { id: string }) => c.id);
      return found.includes(withPhone(q.sandbox).c.id) ? withPhone(q.sandbox).c.id : found;
    },
    truth: (s) => withPhone(s).c.id,
  },
  {
    question: "How many messages did customers send the page I call by name yesterday?",
    async ask(q) {
      const name = q.sandbox.messaging.pages[1]!.name;
      const r = await q.call("get_page_stats", { page_ids: [fold(name)], since: "yesterday", until: "yesterday" });
      return r.data.totals.customer_inbox_count;
    },
    truth: (s) => total(pageActivity(s.messaging, s.messaging.pages[1]!.id, days(shopDay(s, 1), shopDay(s, 1)), localDay), "customer_inbox_count"),
  },
  {
    question: "Who has been waiting for a reply since noon?",
    async ask(q) {
      const r = await q.call("list_conversations", { awaiting_reply: true, since: "noon" });
      return r.data.conversations.map((c: { id: string }) => c.id).sort();
    },
    truth: (s) => {
      const noon = Date.parse(`${shopDay(s)}T12:00:00+07:00`);
      return live(s)
        .filter((c) => {
          const last = lastMessage(s, c);
          return last !== undefined && !last.from.admin_id && at(c.updated_at) >= noon;
        })
        .map((c) => c.id)
        .sort();
    },
  },
  {
    question: "Which calls did we miss today? Give me the numbers to call back.",
    async ask(q) {
      const r = await q.call("list_call_logs", { since: "today", missed: true });
      return r.data.calls.map((c: { phone_number: string }) => c.phone_number);
    },
    // Incoming calls nobody answered, on every page with a call centre, newest first.
    truth: (s) =>
      s.messaging.callLogs
        .filter((l) => localDay(at(l.created_time)) === shopDay(s) && l.direction === "inbound" && l.answered_time === null)
        .sort((a, b) => b.created_time.localeCompare(a.created_time))
        .map((l) => l.phone_number),
  },
];
