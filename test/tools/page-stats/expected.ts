/**
 * Statistics recomputed straight from the seeded records, following the definitions written at
 * the top of src/sandbox/messaging/stats.ts, without calling the sandbox's own code.
 */
import type { ConversationRecord, MessageRecord, MessagingState } from "../../../src/sandbox/messaging/types.js";

const HOUR = 3_600_000;
const LOCAL = 7 * HOUR;

export interface Span {
  from: number;
  to: number;
}

export const at = (time: string) => Date.parse(`${time.slice(0, 23)}Z`);
export const localDay = (ms: number) => new Date(ms + LOCAL).toISOString().slice(0, 10);
const localHourOfDay = (ms: number) => new Date(ms + LOCAL).getUTCHours();
const utcHour = (ms: number) => Math.floor(ms / HOUR);
const inSpan = (ms: number, s: Span) => ms >= s.from && ms <= s.to;
const isInbox = (c: ConversationRecord) => c.type === "INBOX";
const staffOf = (m: MessageRecord) => m.from.admin_id;

/** Inclusive span from `YYYY-MM-DD` to the end of `YYYY-MM-DD`, page-local days. */
export function days(first: string, last: string): Span {
  return { from: Date.parse(`${first}T00:00:00+07:00`), to: Date.parse(`${last}T23:59:59+07:00`) + 999 };
}

function pageConversations(state: MessagingState, pageId: string) {
  return state.conversations.filter((c) => c.page_id === pageId);
}

function* pageMessages(state: MessagingState, pageId: string) {
  for (const c of pageConversations(state, pageId)) for (const m of state.messages[c.id] ?? []) yield { c, m, t: at(m.inserted_at) };
}

function add(map: Map<string, number>, key: string, by = 1) {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** Per local day: distinct inbox/comment conversations with a customer message, new inbox ones, new ones answered that day (named as get_page_stats names them). */
export function engagementByDay(state: MessagingState, pageId: string, span: Span) {
  const out = new Map<string, { inbox: Set<string>; comment: Set<string>; replied: Set<string>; newInbox: number }>();
  const slot = (d: string) => {
    const v = out.get(d) ?? { inbox: new Set<string>(), comment: new Set<string>(), replied: new Set<string>(), newInbox: 0 };
    out.set(d, v);
    return v;
  };
  for (const c of pageConversations(state, pageId)) {
    const created = at(c.inserted_at);
    if (inSpan(created, span) && isInbox(c)) slot(localDay(created)).newInbox += 1;
  }
  for (const { c, m, t } of pageMessages(state, pageId)) {
    if (!inSpan(t, span)) continue;
    const d = localDay(t);
    if (!staffOf(m)) slot(d)[isInbox(c) ? "inbox" : "comment"].add(c.id);
    else if (inSpan(at(c.inserted_at), span) && localDay(at(c.inserted_at)) === d) slot(d).replied.add(c.id);
  }
  return new Map(
    [...out].map(([d, v]) => [
      d,
      {
        inbox: v.inbox.size,
        comment: v.comment.size,
        total: v.inbox.size + v.comment.size,
        new_customers_answered: v.replied.size,
        new_inbox: v.newInbox,
      },
    ]),
  );
}

/** 24 rows: per local hour of day, summed over the days (distinct conversations per day-hour). */
export function engagementByHourOfDay(state: MessagingState, pageId: string, span: Span) {
  const rows = Array.from({ length: 24 }, (_, hour) => ({ hour, inbox: 0, comment: 0, total: 0, new_customers: 0, new_inbox: 0 }));
  const seen = new Set<string>();
  for (const { c, m, t } of pageMessages(state, pageId)) {
    if (staffOf(m) || !inSpan(t, span)) continue;
    const key = `${c.id}|${utcHour(t)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const row = rows[localHourOfDay(t)]!;
    row[isInbox(c) ? "inbox" : "comment"] += 1;
    row.total += 1;
  }
  for (const c of pageConversations(state, pageId)) {
    const created = at(c.inserted_at);
    if (!inSpan(created, span)) continue;
    rows[localHourOfDay(created)]!.new_customers += 1;
    if (isInbox(c)) rows[localHourOfDay(created)]!.new_inbox += 1;
  }
  return rows;
}

/** Each phone number's first capture time on the page (earliest customer message holding it). */
function firstCaptures(state: MessagingState, pageId: string) {
  const first = new Map<string, number>();
  for (const { m, t } of pageMessages(state, pageId)) {
    if (staffOf(m)) continue;
    for (const p of m.phone_info) if (!first.has(p.phone_number) || t < first.get(p.phone_number)!) first.set(p.phone_number, t);
  }
  return first;
}

/** Page activity counts keyed by `bucket` (a local day or an hour key). */
export function pageActivity(state: MessagingState, pageId: string, span: Span, bucket: (ms: number) => string) {
  const out = new Map<string, Map<string, number>>();
  const bump = (ms: number, field: string) => {
    const key = bucket(ms);
    if (!out.has(key)) out.set(key, new Map());
    add(out.get(key)!, field);
  };
  const interactive = new Set<string>();
  for (const { c, m, t } of pageMessages(state, pageId)) {
    if (!inSpan(t, span)) continue;
    const side = staffOf(m) ? "page" : "customer";
    bump(t, `${side}_${isInbox(c) ? "inbox" : "comment"}_count`);
    if (staffOf(m)) continue;
    if (m.has_phone) bump(t, "phone_number_count");
    const hourStart = utcHour(t) * HOUR;
    const key = `${c.id}|${hourStart}`;
    if (isInbox(c) && at(c.inserted_at) < hourStart && !interactive.has(key)) {
      interactive.add(key);
      bump(t, "inbox_interactive_count");
    }
  }
  for (const t of firstCaptures(state, pageId).values()) if (inSpan(t, span)) bump(t, "uniq_phone_number_count");
  for (const c of pageConversations(state, pageId)) if (isInbox(c) && inSpan(at(c.inserted_at), span)) bump(at(c.inserted_at), "new_inbox_count");
  for (const p of state.customers) if (p.page_id === pageId && inSpan(at(p.inserted_at), span)) bump(at(p.inserted_at), "new_customer_count");
  return out;
}

/** Net tag changes (adds minus removes) per tag id and local day. */
export function tagNet(state: MessagingState, pageId: string, span: Span) {
  const net = new Map<string, Map<string, number>>();
  for (const c of pageConversations(state, pageId)) {
    for (const h of c.tag_histories) {
      const t = at(h.inserted_at);
      if (!inSpan(t, span)) continue;
      const id = String(h.payload.tag.id);
      if (!net.has(id)) net.set(id, new Map());
      add(net.get(id)!, localDay(t), h.payload.action === "add" ? 1 : -1);
    }
  }
  return net;
}

export interface StaffExpect {
  inbox_count: number;
  comment_count: number;
  unique_inbox_count: number;
  unique_comment_count: number;
  private_reply_count: number;
  phone_number_count: number;
  order_count: number;
  avg_response_seconds: number;
}

/** Per staff id over the pages, as the several-pages endpoint defines it. */
export function staffTotals(state: MessagingState, pageIds: string[], span: Span): Map<string, StaffExpect> {
  const acc = new Map<string, { inbox: number; comment: number; ib: Set<string>; cm: Set<string>; pr: number; orders: number; waits: number[]; hours: Set<string> }>();
  const of = (id: string) => {
    const v = acc.get(id) ?? { inbox: 0, comment: 0, ib: new Set<string>(), cm: new Set<string>(), pr: 0, orders: 0, waits: [], hours: new Set<string>() };
    acc.set(id, v);
    return v;
  };
  for (const pageId of pageIds) {
    for (const c of pageConversations(state, pageId)) {
      let waiting: number | undefined;
      for (const m of state.messages[c.id] ?? []) {
        const t = at(m.inserted_at);
        const staff = staffOf(m);
        if (!staff) {
          waiting ??= t;
          continue;
        }
        if (inSpan(t, span)) {
          const s = of(staff);
          if (isInbox(c)) {
            s.inbox += 1;
            s.ib.add(c.id);
          } else {
            s.comment += 1;
            s.cm.add(c.id);
          }
          s.hours.add(`${c.id}|${utcHour(t)}`);
          if (waiting !== undefined) s.waits.push(Math.round((t - waiting) / 1000));
        }
        waiting = undefined;
      }
      const orderTag = state.tags[pageId]?.find((tag) => tag.text === "Đã chốt đơn")?.id;
      for (const h of c.tag_histories) {
        if (h.payload.action === "add" && h.payload.tag.id === orderTag && h.payload.editor_id && inSpan(at(h.inserted_at), span)) {
          of(h.payload.editor_id).orders += 1;
        }
      }
    }
    for (const r of state.privateReplies) if (r.page_id === pageId && inSpan(at(r.inserted_at), span)) of(r.sender_id).pr += 1;
  }
  const phones = new Map<string, number>();
  for (const pageId of pageIds) {
    for (const { c, m, t } of pageMessages(state, pageId)) {
      if (staffOf(m) || !m.has_phone || !inSpan(t, span)) continue;
      for (const [id, s] of acc) if (s.hours.has(`${c.id}|${utcHour(t)}`)) add(phones, id);
    }
  }
  return new Map(
    [...acc].map(([id, s]) => [
      id,
      {
        inbox_count: s.inbox,
        comment_count: s.comment,
        unique_inbox_count: s.ib.size,
        unique_comment_count: s.cm.size,
        private_reply_count: s.pr,
        phone_number_count: phones.get(id) ?? 0,
        order_count: s.orders,
        avg_response_seconds: s.waits.length ? Math.round(s.waits.reduce((a, b) => a + b, 0) / s.waits.length) : 0,
      },
    ]),
  );
}

/** New customers, new inbox conversations, phones and first-time phones per `bucket`. */
export function newCustomers(state: MessagingState, pageId: string, span: Span, bucket: (ms: number) => string) {
  const out = new Map<string, Map<string, number>>();
  const bump = (ms: number, field: string) => {
    if (!inSpan(ms, span)) return;
    if (!out.has(bucket(ms))) out.set(bucket(ms), new Map());
    add(out.get(bucket(ms))!, field);
  };
  for (const p of state.customers) if (p.page_id === pageId) bump(at(p.inserted_at), "new_customer_count");
  for (const c of pageConversations(state, pageId)) if (isInbox(c)) bump(at(c.inserted_at), "new_page_inbox_count");
  for (const { m, t } of pageMessages(state, pageId)) if (!staffOf(m) && m.has_phone) bump(t, "phone_number_count");
  for (const t of firstCaptures(state, pageId).values()) bump(t, "new_phone_number_count");
  return out;
}

/** Delivery days of the page's ads whose local date lies in the span, with their campaign. */
export function adDays(state: MessagingState, pageId: string, span: Span) {
  const first = localDay(span.from);
  const last = localDay(span.to);
  const ads = new Map(state.ads.filter((a) => a.page_id === pageId).map((a) => [a.ad_id, a]));
  return state.adDays.filter((d) => ads.has(d.ad_id) && d.date >= first && d.date <= last).map((d) => ({ ...d, campaign_id: ads.get(d.ad_id)!.campaign_id }));
}

/** Sums the field over the bucket values of one of the maps above. */
export function total(map: Map<string, Map<string, number>>, field: string): number {
  return [...map.values()].reduce((t, m) => t + (m.get(field) ?? 0), 0);
}
