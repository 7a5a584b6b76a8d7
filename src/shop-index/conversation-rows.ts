import type { ConversationListParams, MessagingClient } from "../clients/messaging.js";
import type { Conversation } from "../clients/schemas/messaging.js";
import { type RangeOf, rangeCheck, repeated } from "../clients/list-checks.js";
import { normalizePhone } from "../format/phone.js";
import { joinKey as key } from "./join-keys.js";
import { unix } from "./order-rows.js";
import type { IndexKind, Progress, ReadSink } from "./row-index.js";
import { OPEN } from "./store.js";

// What the conversation index keeps of each conversation of a page, and how it reads them: the v2
// list, newest activity first, walked by update time (or newest first by creation, for the chats
// begun in a span).

type Loose = Record<string, unknown>;

/**
 * What rows, groups and the searches read; the histories, watermarks and avatars stay upstream.
 * `version` (a conversation event's) and `event_at` (a pushed message's time, to the microsecond)
 * are the index's own: what webhooks applied, so that a delivery again or late changes nothing.
 */
const KEPT = [
  "id",
  "page_id",
  "customer_id",
  "type",
  "inserted_at",
  "updated_at",
  "tags",
  "current_assign_users",
  "customers",
  "from",
  "has_phone",
  "recent_phone_numbers",
  "post_id",
  // The ads that brought the chat: conversion per ad (list_conversations group_by ad).
  "ad_ids",
  "last_sent_by",
  "last_customer_interactive_at",
  "message_count",
  "snippet",
  "seen",
  "unread_count",
  "is_removed",
  "version",
  "event_at",
] as const;

const person = (value: unknown, keys: readonly string[]) => {
  if (typeof value !== "object" || value === null) return value;
  const from = value as Loose;
  return Object.fromEntries(keys.filter((k) => from[k] != null).map((k) => [k, from[k]]));
};

export function indexedConversation(c: Conversation): Conversation {
  const raw = c as Loose;
  const out: Loose = {};
  for (const key of KEPT) if (raw[key] != null) out[key] = raw[key];
  if (Array.isArray(out.customers)) out.customers = out.customers.map((p) => person(p, ["id", "fb_id", "name"]));
  if (Array.isArray(out.current_assign_users)) out.current_assign_users = out.current_assign_users.map((p) => person(p, ["id", "name"]));
  if (Array.isArray(out.recent_phone_numbers)) out.recent_phone_numbers = out.recent_phone_numbers.map((p) => person(p, ["phone_number"]));
  out.from = person(out.from, ["id", "name"]);
  out.last_sent_by = person(out.last_sent_by, ["id", "name", "admin_id", "admin_name"]);
  return out as Conversation;
}

/**
 * A record time to the microsecond, as Unix seconds with a fraction: the messaging webhooks stamp
 * messages "2024-12-25T11:06:07.123456" where the list's times are whole seconds. Distinct
 * microseconds of one second stay distinct (a double holds 2^-22 s at today's times).
 */
export function preciseTime(value: unknown): number | undefined {
  const seconds = unix(value);
  if (seconds === undefined) return undefined;
  const fraction = typeof value === "string" ? /:\d{2}[.,](\d+)/.exec(value)?.[1] : undefined;
  return seconds + Number((fraction ?? "").slice(0, 6).padEnd(6, "0")) / 1e6;
}

/** The last microsecond of a second: what a time the list gives in whole seconds may stand for. */
const SECOND_END = 0.999_999;

/**
 * How new a conversation held is, for ordering what is pushed against it: the pushed message's
 * time to the microsecond, else (a row as the list gave it, whole seconds) the end of its update
 * second, so that a row the list gave wins over what was pushed within its second (a refresh
 * mends), and what is pushed within that second, older or not, waits for the next refresh.
 * Conversation events (tags, read state) do not move it: they are ordered by their `version`.
 */
export function conversationVersion(c: Conversation): number {
  const updated = unix(c.updated_at) ?? 0;
  const pushed = preciseTime((c as Loose).event_at);
  return pushed !== undefined && Math.floor(pushed) === updated ? pushed : updated + SECOND_END;
}

/**
 * What a chat is joined to orders by (TableShape.keys): its own id (an order's link to it), its
 * customer's ids on the platform, the phones it captured (national form); never the name.
 */
export function conversationKeys(c: Conversation): string[] {
  const raw = c as Loose;
  const socials = [c.customers?.[0]?.fb_id, raw.from_psid, (raw.from as Loose | undefined)?.id];
  const phones = (Array.isArray(raw.recent_phone_numbers) ? raw.recent_phone_numbers : []).map((p) => {
    const text = typeof p === "string" ? p : (p as Loose | null)?.phone_number;
    return typeof text === "string" ? normalizePhone(text) : undefined;
  });
  return [key("c", c.id), ...socials.map((s) => key("f", s)), ...phones.map((p) => key("p", p))].filter((k): k is string => k !== undefined);
}

/** Rows of one v2 call (the list has no page size). */
export const V2_PAGE = 60;
/** What the read's messages call the list, and the range it reads by. */
const LIST = "conversation list";
/** The two orders of the list: by the last activity, or by creation (`order_by`, which since/until then range over). */
const ORDERS = {
  updated_at: { list: LIST, rows: "conversations", time: "updated", params: ["since", "until"], timeOf: (c) => unix(c.updated_at) },
  inserted_at: { list: LIST, rows: "conversations", time: "created", params: ["since", "until"], timeOf: (c) => unix(c.inserted_at) },
} satisfies Record<string, RangeOf<Conversation>>;
type ListOrder = keyof typeof ORDERS;
/** An end far enough ahead that a clock ahead of ours still falls inside it. */
const AHEAD_S = 86_400;

/**
 * Every conversation of a page updated (`by` inserted_at: created) from `since` (null: all time)
 * to `until` (undefined: now on). The list is newest first and takes since/until; each call's
 * `until` is the update (or creation) time of the last conversation read, so a conversation
 * updated during the walk moves above it and out of what is left (the next refresh reads it), and
 * none shifts into a place already passed. Only when a whole call's conversations share one
 * second is the list's own cursor followed within it.
 * Each call's rows go to `sink` as they come, with the span read whole so far: every second above
 * the last conversation's; none is kept here (a first read of a big inbox is hundreds of thousands).
 * A conversation updated outside since/until (the list ignored them), or a call after the list's
 * cursor bringing nothing new (it serves what it served before), stops the read: walked on, either
 * would go on for ever.
 */
export async function readConversations(
  list: (q: ConversationListParams) => Promise<{ conversations: Conversation[] }>,
  since: number | null,
  until: number | undefined,
  progress: Progress,
  sink: ReadSink<Conversation>,
  by: ListOrder = "updated_at",
): Promise<void> {
  const order = ORDERS[by];
  const top = until ?? OPEN;
  let upper = until ?? Math.floor(Date.now() / 1000) + AHEAD_S;
  let after: string | undefined;
  let read = 0;
  // The conversations of the second at `upper` read so far: the next call, up to and including
  // that second, serves them again; nothing above it comes back (the range check sees to that).
  let atUpper = new Set<string>();
  for (;;) {
    const { conversations } = await list({ since: since ?? 0, until: upper, ...(by === "inserted_at" ? { order_by: by } : {}), ...(after ? { last_conversation_id: after } : {}) });
    const outside = rangeCheck(order, { from: since ?? 0, to: upper });
    let fresh = 0;
    for (const c of conversations) {
      const ignored = outside(c);
      if (ignored) throw ignored;
      if (!atUpper.has(String(c.id))) fresh++;
    }
    if (after && conversations.length && !fresh) throw repeated(LIST, `the call after conversation ${after}`, "conversations it had served");
    sink.rows(conversations);
    read += fresh;
    await progress(read, undefined, `conversations read: ${read}`);
    const last = conversations[conversations.length - 1];
    if (conversations.length < V2_PAGE || !last) return sink.covered([since ?? 0, top]);
    const at = order.timeOf(last);
    if (at === undefined) throw new Error(`a conversation in the list has no ${order.time} time`);
    sink.covered([at + 1, top]);
    const atLast = conversations.filter((c) => order.timeOf(c) === at).map((c) => String(c.id));
    if (at < upper) [upper, after, atUpper] = [at, undefined, new Set(atLast)];
    else {
      after = String(last.id);
      for (const id of atLast) atUpper.add(id);
    }
  }
}

/** The longest span the counted list (v1, with a total) takes. */
const COUNT_SPAN_S = 31 * 86_400;

/**
 * A page's conversations. The counted list takes a month at most, so the check counts the last
 * month held (where changes happen); it runs when the index is loaded and hourly.
 */
export function conversationKind(pageId: string): IndexKind<Conversation, MessagingClient> {
  return {
    name: `conversations of page ${pageId}`,
    table: "conversations",
    id: (c) => String(c.id),
    updated: (c) => unix(c.updated_at),
    inserted: (c) => unix(c.inserted_at),
    version: conversationVersion,
    heavy: [],
    columns: {},
    keys: conversationKeys,
    ...listBy(pageId, "updated_at"),
    created: listBy(pageId, "inserted_at"),
    listed: (c) => (c as Loose).is_removed !== true,
    checkEveryMs: 3_600_000,
  };
}

/** The page's list read and counted in one of its orders. */
function listBy(pageId: string, by: ListOrder): Pick<IndexKind<Conversation, MessagingClient>, "read" | "count"> {
  return {
    async read(client, since, until, progress, sink) {
      const rows = (batch: readonly Conversation[]) => sink.rows(batch.map(indexedConversation));
      await readConversations((q) => client.listConversations(pageId, q), since, until, progress, { ...sink, rows }, by);
    },
    async count(client, since, until) {
      const from = Math.max(since ?? 0, until - COUNT_SPAN_S + 1);
      if (from > until) return { since: from, count: 0 };
      const { total } = await client.listConversationsPaged(pageId, { since: from, until, page_number: 1, order_by: by });
      return total === undefined ? undefined : { since: from, count: total };
    },
  };
}
