/*
 * Statistics computed from the data set, so every number can be recomputed independently.
 *
 * Vocabulary. An "inbox" conversation has type INBOX; a "comment" conversation has any other type
 * (COMMENT, COMMENT_LIVESTREAM, RATING). A "staff message" has `from.admin_id` (the staff id); any
 * other message is a "customer message". Local time is page-local UTC+7. A since/until range is
 * [since, until] in seconds, both ends included; a `DD/MM/YYYY HH:MM:SS - ...` range includes both
 * end seconds; a `DD/MM/YYYY - DD/MM/YYYY` range includes both end days. Only records whose time is
 * inside the range count, and each is counted in the local day or hour holding its time.
 * A phone's "first capture" is the earliest customer message of the page that captured it.
 * A page customer is created (page_customers inserted_at) when the person first writes to the
 * page: their first message or comment, the start of their first conversation there.
 *
 * customer_engagements (date_range with times; optional user_ids keeps only conversations whose
 * assignee_ids contain one of them). categories: local days from the range's last day back to its
 * first, labelled `D/M` (no leading zeros). Per day:
 *   inbox   = inbox conversations with >= 1 customer message that day
 *   comment = comment conversations with >= 1 customer message that day
 *   total   = inbox + comment
 *   new_customer_replied = conversations created that day with >= 1 staff message that same day
 *   customer_engagement_new_inbox = inbox conversations created that day
 * by_hour=true: 24 rows, `hour` 0..23 (local hour of day), each the sum over the range's days of:
 *   inbox/comment as above per (day, hour), total = inbox + comment, new_customer = conversations
 *   created in that hour, new_customer_from_inbox = inbox conversations created in that hour.
 *
 * pages (since/until): one row per UTC hour from the hour holding `since` to the one holding
 * `until`, oldest first; `hour` = local `YYYY-MM-DDTHH:00:00`, `hour_in_integer` = UTC
 * `YYYYMMDDHH0000` (as the live API sends both). Per hour:
 *   customer_inbox_count / customer_comment_count = customer messages in inbox / comment conversations
 *   page_inbox_count / page_comment_count         = staff messages in inbox / comment conversations
 *   new_inbox_count         = inbox conversations created
 *   new_customer_count      = page customers created (page_customers inserted_at)
 *   inbox_interactive_count = inbox conversations created before the hour began that have a
 *                             customer message in the hour
 *   phone_number_count      = customer messages with has_phone
 *   uniq_phone_number_count = phone numbers whose first capture is in the hour
 *   today_uniq_website_referral, today_website_guest_referral = 0 (no website plugin in the shop)
 *
 * tags (since/until): categories = local days from the one holding since to the one holding until,
 * `YYYY-MM-DD`, oldest first; series.tag_<id>[day] = (tag_histories `add` of that tag that day) -
 * (`remove` that day), for every tag of the page. data_today: the same per local hour (`HH:00`, 24
 * categories) of the local day holding the sandbox clock, not limited by since/until. `tags`: the
 * page's tags with ids written `tag_<id>`.
 *
 * users (date_range with times) and /v1/statistics/user (several pages): rows per (page, local
 * hour) in which the staff member did something; `users` holds totals over the whole range (same
 * fields, unique counts distinct over the range) plus user_name, user_fb_id and `hour` = the last
 * active hour. Only staff with activity appear. For staff member U and a bucket:
 *   inbox_count / comment_count = U's staff messages in inbox / comment conversations
 *   unique_inbox_count / unique_comment_count = distinct such conversations
 *   private_reply_count = private replies U sent (state.privateReplies)
 *   phone_number_count  = customer messages with has_phone in conversations U wrote to in the bucket
 *   average_response_time = mean, in whole seconds (rounded), over U's responses: a response is a
 *     staff message by U that directly follows a customer message; it took (its time - the time of
 *     the first customer message since the previous staff message). 0 when U has no response.
 *   order_count (several-pages variant only) = tag_histories `add` of the page's "Đã chốt đơn" tag
 *     with editor_id U.
 *
 * customers (date_range of days; group_by day | hour | page_id): rows per local day (`YYYY-MM-DD`)
 * or local hour (`YYYY-MM-DDTHH:00:00`) of the range, oldest first, every bucket present; page_id
 * gives {<page_id>: day rows}. Per bucket:
 *   new_customer_count = page customers created; new_page_inbox_count = inbox conversations created;
 *   phone_number_count = customer messages with has_phone; new_phone_number_count = phone numbers
 *   whose first capture is in the bucket.
 *
 * Ads (since/until): a delivery day (AdDayRecord, local date) counts when it lies between the local
 * days holding since and until. Sums over those days: impressions, reach, link_click, spend,
 * messaging_conversation_started_7d, messaging_first_reply, post_comments, purchases,
 * purchases_conversion_value; cpc = spend / link_click, cpm = spend * 1000 / impressions,
 * ctr = link_click * 100 / impressions, purchase_roas = purchases_conversion_value / spend, all
 * with 2 decimals (4 for purchase_roas) and null when the divisor is 0. Every metric is a string,
 * null when there is no delivery day. budget_remaining = lifetime_budget - all-time spend when the
 * campaign has a lifetime budget, else daily_budget - spend of the last counted day (never < 0).
 * pages_campaigns: one record per campaign; ads by_id: one per ad; by_time: one per counted day
 * with delivery, `date` = that day, summed over the page's ads.
 */

import { isFromStaff } from "./messages.js";
import { DAY_MS, HOUR_MS, iso, localDay, localDayStart, localHour, localIso, parseIso, type Range } from "./time.js";
import type { ConversationRecord, MessageRecord, MessagingState } from "./types.js";

export interface Event {
  c: ConversationRecord;
  m: MessageRecord;
  at: number;
  inbox: boolean;
  staffId: string | undefined;
}

export const inside = (ms: number, range: Range) => ms >= range.from && ms <= range.to;
export const isInbox = (c: ConversationRecord) => c.type === "INBOX";

function events(state: MessagingState, pageIds: string[]): Event[] {
  const out: Event[] = [];
  for (const c of state.conversations) {
    if (!pageIds.includes(c.page_id)) continue;
    for (const m of state.messages[c.id] ?? []) {
      out.push({ c, m, at: parseIso(m.inserted_at), inbox: isInbox(c), staffId: isFromStaff(m) ? m.from.admin_id : undefined });
    }
  }
  return out;
}

/** Time of each phone number's first capture on the page. */
function firstCaptures(all: Event[]): Map<string, number> {
  const first = new Map<string, number>();
  for (const e of all) {
    if (e.staffId) continue;
    for (const p of e.m.phone_info) {
      const seen = first.get(p.phone_number);
      if (seen === undefined || e.at < seen) first.set(p.phone_number, e.at);
    }
  }
  return first;
}

/** Adds `id` to the set under `key`. */
function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  const set = map.get(key);
  if (set) set.add(id);
  else map.set(key, new Set([id]));
}

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** Local-day starts (UTC ms) covering a range, oldest first. */
function daysOf(range: Range): number[] {
  const days: number[] = [];
  for (let d = localDayStart(range.from); d <= range.to; d += DAY_MS) days.push(d);
  return days;
}

function conversationsOf(state: MessagingState, pageId: string, userIds?: string[]): ConversationRecord[] {
  return state.conversations.filter(
    (c) => c.page_id === pageId && (!userIds?.length || c.assignee_ids.some((id) => userIds.includes(id))),
  );
}

/** Per-(bucket) engagement counts shared by the daily and hourly engagement views. */
function engagementCounts(state: MessagingState, pageId: string, range: Range, bucket: (ms: number) => string, userIds?: string[]) {
  const convs = conversationsOf(state, pageId, userIds);
  const ids = new Set(convs.map((c) => c.id));
  const inbox = new Map<string, Set<string>>();
  const comment = new Map<string, Set<string>>();
  const repliedSameBucket = new Map<string, Set<string>>();
  const created = new Map<string, ConversationRecord[]>();
  for (const c of convs) {
    const at = parseIso(c.inserted_at);
    if (!inside(at, range)) continue;
    const key = bucket(at);
    created.set(key, [...(created.get(key) ?? []), c]);
  }
  for (const e of events(state, [pageId])) {
    if (!ids.has(e.c.id) || !inside(e.at, range)) continue;
    const key = bucket(e.at);
    if (!e.staffId) addTo(e.inbox ? inbox : comment, key, e.c.id);
    else if (bucket(parseIso(e.c.inserted_at)) === key) addTo(repliedSameBucket, key, e.c.id);
  }
  return {
    inbox: (key: string) => inbox.get(key)?.size ?? 0,
    comment: (key: string) => comment.get(key)?.size ?? 0,
    created: (key: string) => created.get(key) ?? [],
    replied: (key: string) => (created.get(key) ?? []).filter((c) => repliedSameBucket.get(key)?.has(c.id)).length,
  };
}

export function engagementByDay(state: MessagingState, pageId: string, range: Range, userIds?: string[]) {
  const counts = engagementCounts(state, pageId, range, localDay, userIds);
  const keys = daysOf(range)
    .map((d) => localDay(d))
    .reverse();
  const series = (name: string, f: (key: string) => number) => ({ name, data: keys.map(f) });
  return {
    categories: keys.map((k) => `${Number(k.slice(8, 10))}/${Number(k.slice(5, 7))}`),
    series: [
      series("inbox", counts.inbox),
      series("comment", counts.comment),
      series("total", (k) => counts.inbox(k) + counts.comment(k)),
      series("new_customer_replied", counts.replied),
      series("customer_engagement_new_inbox", (k) => counts.created(k).filter(isInbox).length),
    ],
  };
}

export function engagementByHour(state: MessagingState, pageId: string, range: Range, userIds?: string[]) {
  const counts = engagementCounts(state, pageId, range, localHour, userIds);
  const keys = daysOf(range).flatMap((d) => Array.from({ length: 24 }, (_, h) => localHour(d + h * HOUR_MS)));
  return Array.from({ length: 24 }, (_, hour) => {
    const mine = keys.filter((k) => Number(k.slice(11, 13)) === hour);
    const sum = (f: (key: string) => number) => mine.reduce((total, k) => total + f(k), 0);
    const inbox = sum(counts.inbox);
    const comment = sum(counts.comment);
    return {
      hour,
      inbox,
      comment,
      total: inbox + comment,
      new_customer: sum((k) => counts.created(k).length),
      new_customer_from_inbox: sum((k) => counts.created(k).filter(isInbox).length),
    };
  });
}

export const utcHourInteger = (ms: number) => `${iso(ms).slice(0, 13).replace(/[-T]/g, "")}0000`;

export function pageHours(state: MessagingState, pageId: string, range: Range) {
  const all = events(state, [pageId]);
  const first = firstCaptures(all);
  const rows = new Map<number, Record<string, number>>();
  const row = (ms: number) => {
    const start = Math.floor(ms / HOUR_MS) * HOUR_MS;
    return rows.get(start);
  };
  for (let h = Math.floor(range.from / HOUR_MS) * HOUR_MS; h <= range.to; h += HOUR_MS) {
    rows.set(h, {
      customer_comment_count: 0,
      customer_inbox_count: 0,
      inbox_interactive_count: 0,
      new_customer_count: 0,
      new_inbox_count: 0,
      page_comment_count: 0,
      page_inbox_count: 0,
      phone_number_count: 0,
      today_uniq_website_referral: 0,
      today_website_guest_referral: 0,
      uniq_phone_number_count: 0,
    });
  }
  const interactive = new Map<number, Set<string>>();
  for (const e of all) {
    if (!inside(e.at, range)) continue;
    const r = row(e.at)!;
    const side = e.staffId ? "page" : "customer";
    r[`${side}_${e.inbox ? "inbox" : "comment"}_count`]! += 1;
    if (e.staffId) continue;
    if (e.m.has_phone) r.phone_number_count! += 1;
    const hourStart = Math.floor(e.at / HOUR_MS) * HOUR_MS;
    if (e.inbox && parseIso(e.c.inserted_at) < hourStart) {
      if (!interactive.has(hourStart)) interactive.set(hourStart, new Set());
      interactive.get(hourStart)!.add(e.c.id);
    }
  }
  for (const [start, set] of interactive) rows.get(start)!.inbox_interactive_count = set.size;
  for (const at of first.values()) if (inside(at, range)) row(at)!.uniq_phone_number_count! += 1;
  for (const c of conversationsOf(state, pageId)) {
    const at = parseIso(c.inserted_at);
    if (isInbox(c) && inside(at, range)) row(at)!.new_inbox_count! += 1;
  }
  for (const p of state.customers) {
    const at = parseIso(p.inserted_at);
    if (p.page_id === pageId && inside(at, range)) row(at)!.new_customer_count! += 1;
  }
  return [...rows].map(([start, counts]) => ({ hour: localHour(start), hour_in_integer: utcHourInteger(start), ...counts }));
}

export function tagStats(state: MessagingState, pageId: string, range: Range, clock: number) {
  const tags = state.tags[pageId] ?? [];
  const histories = conversationsOf(state, pageId).flatMap((c) => c.tag_histories);
  const view = (keys: string[], keyOf: (ms: number) => string, keep: (ms: number) => boolean) => {
    const net = new Map<string, number>();
    for (const h of histories) {
      const at = parseIso(h.inserted_at);
      if (keep(at)) bump(net, `${h.payload.tag.id}|${keyOf(at)}`, h.payload.action === "add" ? 1 : -1);
    }
    const series: Record<string, number[]> = {};
    for (const t of tags) series[`tag_${t.id}`] = keys.map((k) => net.get(`${t.id}|${k}`) ?? 0);
    return { categories: keys, series };
  };
  const today = localDayStart(clock);
  const hours = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, "0")}:00`);
  return {
    data: view(daysOf(range).map(localDay), localDay, (ms) => inside(ms, range)),
    data_today: view(hours, (ms) => `${localIso(ms).slice(11, 13)}:00`, (ms) => ms >= today && ms < today + DAY_MS),
    tags: tags.map((t) => ({ ...t, id: `tag_${t.id}` })),
  };
}

export function newCustomerStats(state: MessagingState, pageId: string, range: Range, byHour: boolean) {
  const keyOf = byHour ? localHour : localDay;
  const counts = new Map<string, number>();
  const count = (field: string, at: number) => {
    if (inside(at, range)) bump(counts, `${field}|${keyOf(at)}`);
  };
  for (const p of state.customers) if (p.page_id === pageId) count("new_customer_count", parseIso(p.inserted_at));
  for (const c of conversationsOf(state, pageId)) if (isInbox(c)) count("new_page_inbox_count", parseIso(c.inserted_at));
  const all = events(state, [pageId]);
  for (const e of all) if (!e.staffId && e.m.has_phone) count("phone_number_count", e.at);
  for (const at of firstCaptures(all).values()) count("new_phone_number_count", at);
  const keys = daysOf(range).flatMap((d) => (byHour ? Array.from({ length: 24 }, (_, h) => localHour(d + h * HOUR_MS)) : [localDay(d)]));
  return keys.map((date) => ({
    date,
    new_customer_count: counts.get(`new_customer_count|${date}`) ?? 0,
    new_page_inbox_count: counts.get(`new_page_inbox_count|${date}`) ?? 0,
    new_phone_number_count: counts.get(`new_phone_number_count|${date}`) ?? 0,
    phone_number_count: counts.get(`phone_number_count|${date}`) ?? 0,
  }));
}
