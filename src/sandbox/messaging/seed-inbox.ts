import type { Person } from "../people.js";
import type { Random } from "../random.js";
import { appendMessage, assignUser, buildConversation, buildMessage, customerSender, staffSender } from "./messages.js";
import { CITIES, COMMENT_LINES, CUSTOMER_LINES, ORDER_TAG, RATING_LINES, STAFF_LINES } from "./text.js";
import { awake, busyHourOf, DAY_MS, iso, isoMicro, parseIso } from "./time.js";
import type {
  Attachment,
  ConversationRecord,
  MessageRecord,
  PageCustomerRecord,
  PageRecord,
  PostRecord,
  PrivateReplyRecord,
  StaffUser,
  TagRecord,
} from "./types.js";

export interface InboxSeed {
  conversations: ConversationRecord[];
  messages: Record<string, MessageRecord[]>;
  customers: PageCustomerRecord[];
  privateReplies: PrivateReplyRecord[];
  /** When each conversation began, before its first message was set at a busy hour (MessagingState.begun). */
  begun: Record<string, number>;
}

export interface PageSeedContext {
  rng: Random;
  page: PageRecord;
  /** Active staff of the page. */
  staff: StaffUser[];
  tags: TagRecord[];
  posts: PostRecord[];
  adIds: string[];
  now: number;
  out: InboxSeed;
}

/**
 * The conversations the data set holds begin at most this long ago (those not on a post within 90
 * days, posts within 88): a page customer with none of them first wrote to the page before.
 */
const HISTORY_MS = 91 * DAY_MS;

/**
 * The page's customers: one record per person of the pool. A page customer is created when the
 * person first writes to the page, so seedConversations() dates it at their first conversation;
 * one who has none in the data set wrote first before it (a date here, in the 90 days before it).
 */
export function seedCustomers(ctx: PageSeedContext, pool: Person[]): PageCustomerRecord[] {
  const { rng, page, now } = ctx;
  const history = now - HISTORY_MS;
  return pool.map((person) => {
    // The draws a date within the data set used to take, so every later draw stays as it was.
    const at = busyHourOf(rng, history - rng.int(3600, 90 * 86_400) * 1000, history);
    return {
      id: rng.uuid(),
      customer_id: rng.uuid(),
      page_id: page.id,
      psid: person.psid,
      name: person.name,
      gender: rng.chance(0.9) ? person.gender : null,
      birthday: rng.chance(0.6) ? person.birthday : null,
      lives_in: rng.pick(CITIES),
      phone_numbers: rng.chance(0.2) ? [person.phone] : [],
      inserted_at: iso(at),
      updated_at: iso(at),
      can_inbox: true,
      thread_id: null,
      global_id: person.fbId,
    };
  });
}

/**
 * Conversations of one page with their messages, tags, assignments and private replies. The people
 * of `owed` (psids) have an inbox thread among them: the shop's POS record of each was made from
 * that chat, and the live inbox keeps a thread as long as the record that points to it.
 */
export function seedConversations(
  ctx: PageSeedContext,
  customers: PageCustomerRecord[],
  people: Map<string, Person>,
  count: number,
  owed: ReadonlySet<string>,
): void {
  const { rng, page, posts } = ctx;
  const facebook = page.platform === "facebook";
  const lives = posts.filter((p) => p.type === "livestream");
  // Those owed a thread take the first inbox threads, drawn as from one queue of everyone; the
  // last conversations are inbox threads if the rolls leave some of them without one.
  const owing = customers.filter((c) => owed.has(c.psid));
  const others = customers.filter((c) => !owed.has(c.psid));
  for (let i = 0; i < count; i++) {
    const roll = rng.next();
    let type: ConversationRecord["type"] =
      roll < 0.64 || posts.length === 0
        ? "INBOX"
        : roll < 0.89 || !facebook
          ? "COMMENT"
          : roll < 0.95 && lives.length > 0
            ? "COMMENT_LIVESTREAM"
            : "RATING";
    if (owing.length >= count - i) type = "INBOX";
    const queue = owing.length > 0 ? owing : others;
    if (type === "INBOX" && queue.length === 0) type = "COMMENT";
    const customer = type === "INBOX" ? queue.splice(rng.int(0, queue.length - 1), 1)[0]! : rng.pick(customers);
    seedConversation(ctx, type, customer, people.get(customer.psid)!);
  }
  const first = new Map<string, string>();
  for (const c of ctx.out.conversations) {
    const seen = first.get(c.from.id);
    if (c.page_id === page.id && (seen === undefined || c.inserted_at < seen)) first.set(c.from.id, c.inserted_at);
  }
  for (const customer of customers) {
    const at = first.get(customer.psid);
    customer.inserted_at = at ?? customer.inserted_at;
    // The inbox learns a customer's phone from their chats: without one in the data set, it shows none.
    if (at === undefined) customer.phone_numbers = [];
  }
}

function seedConversation(ctx: PageSeedContext, type: ConversationRecord["type"], customer: PageCustomerRecord, person: Person): void {
  const { rng, page, now, staff } = ctx;
  const commentLike = type === "COMMENT" || type === "COMMENT_LIVESTREAM";
  const post = commentLike
    ? rng.pick(type === "COMMENT_LIVESTREAM" ? ctx.posts.filter((p) => p.type === "livestream") : ctx.posts)
    : undefined;
  // When it began as drawn: the same span before now at any time of day, which its busy hour is not.
  let begun: number;
  let start: number;
  if (post) {
    const posted = parseIso(post.inserted_at);
    begun = posted + rng.int(60, Math.max(61, Math.min(10 * 86_400, Math.floor((now - posted) / 1000) - 120))) * 1000;
    const busy = busyHourOf(rng, begun, now - 120_000);
    start = busy >= posted + 60_000 ? busy : begun;
  } else {
    begun = now - (rng.chance(0.15) ? rng.int(600, 2 * 86_400) : rng.int(600, 90 * 86_400)) * 1000;
    start = busyHourOf(rng, begun, now - 600_000);
  }
  const postFbid = post?.id.split("_")[1] ?? "";
  const commentId = () => `${postFbid}_${rng.int(100_000_000_000, 999_999_999_999)}`;
  const id =
    type === "INBOX" ? `${page.id}_${customer.psid}` : post ? commentId() : `${page.id}_rating_${rng.int(1_000_000, 9_999_999)}`;
  const conversation = buildConversation({ id, page, customer, type, at: start, postId: post?.id ?? null });
  const list: MessageRecord[] = [];
  ctx.out.conversations.push(conversation);
  ctx.out.messages[id] = list;
  ctx.out.begun[id] = begun;

  const assigned = rng.chance(0.65);
  const handler = rng.pick(staff);
  const count = type === "INBOX" ? rng.int(3, 40) : rng.int(3, 15);
  const longest = Math.max(60, Math.floor((now - start) / 1000) - 30) * 1000;
  const drawnSpan = (rng.chance(0.6) ? rng.int(60, 6 * 3600) : rng.int(3600, 5 * 86_400)) * 1000;
  const span = Math.min(longest, drawnSpan);
  const offsets = Array.from({ length: count - 1 }, () => Math.floor(rng.next() * span));
  // Nobody writes at 4 in the morning: such a message comes when the shop opens.
  const times = [start, ...offsets.map((o) => awake(rng, start + o, now - 1000))].sort((a, b) => a - b);
  let wantsPhone = rng.chance(0.3);
  let fromCustomer = true;
  let root: MessageRecord | undefined;
  let previous = start - 1;
  times.forEach((time, index) => {
    if (index > 0) fromCustomer = fromCustomer ? !rng.chance(0.65) : rng.chance(0.6);
    const at = Math.max(previous + 1, time + rng.int(0, 999));
    previous = at;
    const attachments: Attachment[] = [];
    let text: string;
    if (fromCustomer) {
      text = index === 0 && commentLike ? rng.pick(COMMENT_LINES) : index === 0 && type === "RATING" ? rng.pick(RATING_LINES) : rng.pick(CUSTOMER_LINES);
      if (wantsPhone && (index > 0 || commentLike)) {
        text = commentLike ? `${person.phone} ib em giá nhé` : `Số em là ${person.phone} nha shop`;
        wantsPhone = false;
      } else if (rng.chance(0.06)) {
        text = "";
        attachments.push({ type: "photo", url: `https://cdn.sandbox.example/u/${rng.hex(12)}.jpg` });
      }
    } else {
      text = rng.pick(STAFF_LINES);
      if (rng.chance(0.05)) {
        attachments.push(
          rng.chance(0.5)
            ? { type: "photo", url: `https://cdn.sandbox.example/p/${rng.hex(12)}.jpg` }
            : { type: "file", url: `https://cdn.sandbox.example/f/bang-size.pdf`, name: "bang-size.pdf", mime_type: "application/pdf" },
        );
      }
    }
    const sender = fromCustomer ? customerSender(conversation) : staffSender(page, rng.chance(0.8) ? handler : rng.pick(staff));
    const message = buildMessage({
      id: index === 0 && post ? id : post ? commentId() : messageId(rng),
      conversation,
      from: sender,
      text,
      at,
      attachments,
      parentId: root && commentLike ? root.id : null,
      likeCount: commentLike ? rng.int(0, 5) : null,
    });
    root ??= message;
    appendMessage(list, conversation, message);
  });
  // Quiet for three days as drawn, not as placed: whether it is read must not move with the time of day.
  finishConversation(ctx, conversation, list, assigned ? handler : undefined, handler, begun + drawnSpan < now - 3 * DAY_MS);
  touchCustomer(customer, conversation);
  if (root && type === "COMMENT" && page.platform === "facebook" && rng.chance(0.25)) {
    const sent = Math.min(now - 60_000, parseIso(root.inserted_at) + rng.int(60, 7200) * 1000);
    const inboxId = `${page.id}_${customer.psid}`;
    root.private_reply_conversation = inboxId;
    ctx.out.privateReplies.push({
      page_id: page.id,
      post_id: conversation.post_id!,
      comment_id: root.id,
      comment_conversation_id: conversation.id,
      inbox_conversation_id: inboxId,
      message_id: messageId(rng),
      sender_id: handler.id,
      inserted_at: isoMicro(sent),
    });
  }
}

/** Assignment and tag histories, read state and ad origin, once the messages are in place. */
function finishConversation(
  ctx: PageSeedContext,
  c: ConversationRecord,
  list: MessageRecord[],
  assignee: StaffUser | undefined,
  editor: StaffUser,
  quiet: boolean,
): void {
  const { rng, staff, tags, now } = ctx;
  const start = parseIso(c.inserted_at);
  const moment = () => parseIso(rng.pick(list).inserted_at);
  if (assignee) {
    const previous = staff.find((s) => s.id !== assignee.id);
    if (previous && rng.chance(0.15)) {
      c.assignee_histories.push({ conversation_id: c.id, inserted_at: iso(start + 30_000), payload: { added_users: [assignUser(previous)], deleted_users: [] } });
      c.assignee_histories.push({
        conversation_id: c.id,
        inserted_at: iso(start + 90_000),
        payload: { added_users: [assignUser(assignee)], deleted_users: [assignUser(previous)] },
      });
    } else {
      c.assignee_histories.push({ conversation_id: c.id, inserted_at: iso(start + 30_000), payload: { added_users: [assignUser(assignee)], deleted_users: [] } });
    }
    c.assignee_ids = [assignee.id];
    c.current_assign_users = [assignUser(assignee)];
  }
  const tagEvent = (tag: TagRecord, action: "add" | "remove", at: number) =>
    c.tag_histories.push({
      conversation_id: c.id,
      inserted_at: iso(at),
      payload: { action, editor_id: editor.id, editor_name: editor.name, tag: { id: tag.id, text: tag.text } },
    });
  const orderTag = tags.find((t) => t.text === ORDER_TAG)!;
  const chosen = new Set<TagRecord>();
  if (c.has_phone && rng.chance(0.5)) chosen.add(orderTag);
  if (rng.chance(0.4)) chosen.add(rng.pick(tags));
  for (const tag of chosen) {
    tagEvent(tag, "add", moment());
    c.tags.push(tag.id);
  }
  if (rng.chance(0.2)) {
    const dropped = rng.pick(tags.filter((t) => !chosen.has(t)));
    const first = moment();
    tagEvent(dropped, "add", first);
    tagEvent(dropped, "remove", Math.min(now - 1000, first + rng.int(60, 86_400) * 1000));
  }
  c.tag_histories.sort((a, b) => a.inserted_at.localeCompare(b.inserted_at));
  const last = list[list.length - 1]!;
  if (!c.seen && (quiet || rng.chance(0.4))) {
    c.seen = true;
    c.unread_count = 0;
  }
  if (c.seen) {
    c.read_watermarks = [{ message_id: last.id, psid: c.from.id, watermark: parseIso(last.inserted_at) }];
    c.recent_seen_users = [{ fb_id: editor.fb_id, fb_name: editor.name, seen_at: last.inserted_at }];
  }
  if (c.type === "INBOX" && ctx.adIds.length > 0 && rng.chance(0.2)) c.ad_ids = [rng.pick(ctx.adIds)];
}

/** Inbox message ids look like the live `m_` ids; two random integers are cheaper than hex. */
export function messageId(rng: Random): string {
  return `m_${rng.int(100_000_000, 999_999_999)}${rng.int(100_000_000, 999_999_999)}`;
}

/** Keeps the customer record consistent with what their conversations show. */
export function touchCustomer(customer: PageCustomerRecord, c: ConversationRecord): void {
  if (c.updated_at > customer.updated_at) customer.updated_at = c.updated_at;
  for (const p of c.recent_phone_numbers) {
    if (!customer.phone_numbers.includes(p.phone_number)) customer.phone_numbers.push(p.phone_number);
  }
  if (c.type === "INBOX") customer.thread_id = c.thread_id;
}
