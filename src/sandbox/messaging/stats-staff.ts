import { isFromStaff } from "./messages.js";
import { type Event, inside, isInbox, utcHourInteger } from "./stats.js";
import { ORDER_TAG } from "./text.js";
import { HOUR_MS, localHour, parseIso, type Range } from "./time.js";
import type { MessagingState } from "./types.js";

// Definitions: see the header of stats.ts ("users").

interface StaffBucket {
  page_id: string;
  hour: string;
  hour_in_integer: string;
  inbox: number;
  comment: number;
  inboxConvs: Set<string>;
  commentConvs: Set<string>;
  privateReplies: number;
  phoneMessages: Set<string>;
  responses: number[];
  orders: number;
}

/** Staff activity per (page, local hour) and over the whole range; see the header for each field. */
export function staffStats(state: MessagingState, pageIds: string[], range: Range, withOrders: boolean) {
  const buckets = new Map<string, Map<string, StaffBucket>>();
  const bucketOf = (userId: string, pageId: string, at: number) => {
    const hourStart = Math.floor(at / HOUR_MS) * HOUR_MS;
    const mine = buckets.get(userId) ?? new Map<string, StaffBucket>();
    buckets.set(userId, mine);
    const key = `${pageId}|${hourStart}`;
    let b = mine.get(key);
    if (!b) {
      b = {
        page_id: pageId,
        hour: localHour(hourStart),
        hour_in_integer: utcHourInteger(hourStart),
        inbox: 0,
        comment: 0,
        inboxConvs: new Set(),
        commentConvs: new Set(),
        privateReplies: 0,
        phoneMessages: new Set(),
        responses: [],
        orders: 0,
      };
      mine.set(key, b);
    }
    return b;
  };
  const phoneEvents: Event[] = [];
  for (const c of state.conversations) {
    if (!pageIds.includes(c.page_id)) continue;
    let waitingSince: number | undefined;
    for (const m of state.messages[c.id] ?? []) {
      const at = parseIso(m.inserted_at);
      const staffId = isFromStaff(m) ? m.from.admin_id : undefined;
      if (!staffId) {
        waitingSince ??= at;
        if (m.has_phone && inside(at, range)) phoneEvents.push({ c, m, at, inbox: isInbox(c), staffId });
        continue;
      }
      if (inside(at, range)) {
        const b = bucketOf(staffId, c.page_id, at);
        if (isInbox(c)) {
          b.inbox += 1;
          b.inboxConvs.add(c.id);
        } else {
          b.comment += 1;
          b.commentConvs.add(c.id);
        }
        if (waitingSince !== undefined) b.responses.push(Math.round((at - waitingSince) / 1000));
      }
      waitingSince = undefined;
    }
  }
  for (const r of state.privateReplies) {
    const at = parseIso(r.inserted_at);
    if (pageIds.includes(r.page_id) && inside(at, range)) bucketOf(r.sender_id, r.page_id, at).privateReplies += 1;
  }
  if (withOrders) {
    for (const c of state.conversations) {
      if (!pageIds.includes(c.page_id)) continue;
      const orderTag = state.tags[c.page_id]?.find((t) => t.text === ORDER_TAG)?.id;
      for (const h of c.tag_histories) {
        const at = parseIso(h.inserted_at);
        if (h.payload.action === "add" && h.payload.tag.id === orderTag && h.payload.editor_id && inside(at, range)) {
          bucketOf(h.payload.editor_id, c.page_id, at).orders += 1;
        }
      }
    }
  }
  for (const e of phoneEvents) {
    const hourKey = `${e.c.page_id}|${Math.floor(e.at / HOUR_MS) * HOUR_MS}`;
    for (const mine of buckets.values()) {
      const b = mine.get(hourKey);
      if (b && (b.inboxConvs.has(e.c.id) || b.commentConvs.has(e.c.id))) b.phoneMessages.add(e.m.id);
    }
  }
  const statistics: Record<string, object[]> = {};
  const users: Record<string, object> = {};
  for (const [userId, mine] of buckets) {
    const list = [...mine.values()].sort((a, b) => a.hour_in_integer.localeCompare(b.hour_in_integer) || a.page_id.localeCompare(b.page_id));
    statistics[userId] = list.map((b) => ({
      page_id: b.page_id,
      hour: b.hour,
      hour_in_integer: b.hour_in_integer,
      ...fields([b], withOrders),
    }));
    const user = state.staff.find((s) => s.id === userId);
    users[userId] = { user_name: user?.name ?? "", user_fb_id: user?.fb_id ?? "", hour: list[list.length - 1]!.hour, ...fields(list, withOrders) };
  }
  return { statistics, users };
}

function fields(list: StaffBucket[], withOrders: boolean) {
  const union = (pick: (b: StaffBucket) => Set<string>) => new Set(list.flatMap((b) => [...pick(b)])).size;
  const sum = (pick: (b: StaffBucket) => number) => list.reduce((total, b) => total + pick(b), 0);
  const responses = list.flatMap((b) => b.responses);
  return {
    average_response_time: responses.length ? Math.round(responses.reduce((a, b) => a + b, 0) / responses.length) : 0,
    comment_count: sum((b) => b.comment),
    inbox_count: sum((b) => b.inbox),
    phone_number_count: sum((b) => b.phoneMessages.size),
    private_reply_count: sum((b) => b.privateReplies),
    unique_comment_count: union((b) => b.commentConvs),
    unique_inbox_count: union((b) => b.inboxConvs),
    ...(withOrders ? { order_count: sum((b) => b.orders) } : {}),
  };
}
