import { copyOffsetMs, copySuffix, earlier, earlierOrNull, offsetWithin } from "../copies.js";
import type { Person } from "../people.js";
import { Random } from "../random.js";
import { customerSender } from "./messages.js";
import { parseIso } from "./time.js";
import type { ConversationRecord, MessageRecord, MessagingState, PageCustomerRecord, PhoneCapture, Sender } from "./types.js";

/** Where the POS finds copy k of what its records point to in the inbox. */
export interface InboxCopies {
  /** Copy k's id of a conversation; undefined for one not copied. */
  conversationId(id: string, k: number): string | undefined;
  /** The inbox's customer id (`customer_id`) of copy k of a page customer, by the original's. */
  customerId(customerId: string, k: number): string | undefined;
}

/** One copy of a person: who they become in copy k, and the number their chats give in its place. */
interface Twin {
  person: Person;
  copy: Person;
}

/**
 * Copies every page customer and conversation of `pageIds` once per `copies` entry (copies[k - 1]
 * is copy k of each person, by index): the same type, tags, assignees, read state and who wrote
 * last, on the same page, each copy's customer a person of its own (a new psid, name and phone,
 * which replaces the original's in the texts that carry it), times moved back by k's offset. The
 * messages of a copy are built when first read (MessagingState.messages), from the original's as
 * they were copied: at a hundred copies they would take more memory than everything else.
 * Private replies are copied with their comments. Conversations of people outside the pool (the
 * attacker of hostileRecords) are not copied.
 */
export function scaleInbox(state: MessagingState, pageIds: readonly string[], people: readonly Person[], copies: readonly Person[][]): InboxCopies {
  const byPsid = new Map(people.map((p, i) => [p.psid, i]));
  const onPages = (pageId: string) => pageIds.includes(pageId);
  const customers = state.customers.filter((c) => onPages(c.page_id) && byPsid.has(c.psid));
  const conversations = state.conversations.filter((c) => onPages(c.page_id) && byPsid.has(c.from.id));
  const replies = state.privateReplies.filter((r) => onPages(r.page_id));
  const postTimes = new Map(state.posts.map((p) => [p.id, parseIso(p.inserted_at)]));
  const conversationIds = new Map<string, string[]>();
  const threads = new Map<string, CopiedThread>();
  const customerIds = new Map<string, string[]>();
  copies.forEach((copy, index) => {
    const k = index + 1;
    const twinOf = (psid: string): Twin => {
      const i = byPsid.get(psid)!;
      return { person: people[i]!, copy: copy[i]! };
    };
    const rng = new Random(0x696e626f + k * 7919);
    const pageCustomers = new Map<string, PageCustomerRecord>();
    for (const original of customers) {
      const twin = copyCustomer(original, twinOf(original.psid), rng, copyOffsetMs(k));
      pageCustomers.set(`${original.page_id}/${original.psid}`, twin);
      state.customers.push(twin);
      push(customerIds, original.customer_id, twin.customer_id);
    }
    const offsets = new Map<string, number>();
    const firstSeen = new Map<PageCustomerRecord, string>();
    for (const original of conversations) {
      const posted = original.post_id === null ? undefined : postTimes.get(original.post_id);
      // A comment stays after its post: it moves back no further than the time between them.
      const offset = posted === undefined ? copyOffsetMs(k) : offsetWithin(k, parseIso(original.inserted_at) - posted - 1000);
      const customer = pageCustomers.get(`${original.page_id}/${original.from.id}`)!;
      const twin = twinOf(original.from.id);
      const c = copyConversation(original, k, offset, twin, customer);
      state.conversations.push(c);
      threads.set(c.id, { original, copy: c, k, offset, twin, count: state.messages[original.id]?.length ?? 0 });
      if (state.begun[original.id] !== undefined) state.begun[c.id] = state.begun[original.id]! - offset;
      offsets.set(original.id, offset);
      push(conversationIds, original.id, c.id);
      if (c.updated_at > customer.updated_at) customer.updated_at = c.updated_at;
      const first = firstSeen.get(customer);
      if (first === undefined || c.inserted_at < first) firstSeen.set(customer, c.inserted_at);
    }
    // A page customer is created by their first conversation there, as the seed dates them.
    for (const [customer, at] of firstSeen) customer.inserted_at = at;
    for (const r of replies) {
      const offset = offsets.get(r.comment_conversation_id);
      if (offset === undefined) continue;
      const commenter = conversations.find((c) => c.id === r.comment_conversation_id)!.from.id;
      state.privateReplies.push({
        ...r,
        comment_id: r.comment_id + copySuffix(k),
        comment_conversation_id: r.comment_conversation_id + copySuffix(k),
        inbox_conversation_id: `${r.page_id}_${twinOf(commenter).copy.psid}`,
        message_id: r.message_id + copySuffix(k),
        inserted_at: earlier(r.inserted_at, offset),
      });
    }
  });
  if (threads.size) state.messages = messagesOfCopies(state.messages, threads);
  return {
    conversationId: (id, k) => conversationIds.get(id)?.[k - 1],
    customerId: (id, k) => customerIds.get(id)?.[k - 1],
  };
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Copy k of a page customer; its dates are set again from its conversations' (scaleInbox). */
function copyCustomer(c: PageCustomerRecord, twin: Twin, rng: Random, offset: number): PageCustomerRecord {
  const { copy } = twin;
  return {
    ...c,
    id: rng.uuid(),
    customer_id: rng.uuid(),
    psid: copy.psid,
    name: copy.name,
    phone_numbers: c.phone_numbers.map((p) => swapPhone(p, twin)),
    inserted_at: earlier(c.inserted_at, offset),
    updated_at: earlier(c.updated_at, offset),
    thread_id: c.thread_id === null ? null : `t_${copy.psid}`,
    global_id: c.global_id ? copy.fbId : c.global_id,
    ...(c.shop_customer_addresses
      ? { shop_customer_addresses: c.shop_customer_addresses.map((a) => ({ ...a, full_name: copy.name, phone_number: a.phone_number && swapPhone(a.phone_number, twin) })) }
      : {}),
  };
}

/** The copy's number where a text gives the original person's. */
const swapPhone = (text: string, { person, copy }: Twin) => text.replaceAll(person.phone, copy.phone);

const messageIdOf = (id: string, k: number) => id + copySuffix(k);

function copyCapture(p: PhoneCapture, k: number, twin: Twin): PhoneCapture {
  return {
    ...p,
    captured: swapPhone(p.captured, twin),
    m_content: swapPhone(p.m_content, twin),
    m_id: messageIdOf(p.m_id, k),
    phone_number: swapPhone(p.phone_number, twin),
  };
}

/** The sender as copy k shows them: the customer is the copy's, staff are the same. */
const senderOf = (from: Sender, original: ConversationRecord, copy: ConversationRecord): Sender =>
  from.admin_id === undefined && from.id === original.from.id ? { ...from, id: copy.from.id, name: copy.from.name } : from;

function copyConversation(c: ConversationRecord, k: number, offset: number, twin: Twin, customer: PageCustomerRecord): ConversationRecord {
  const psid = twin.copy.psid;
  const inbox = c.type === "INBOX";
  // An inbox thread's id is the page's and the customer's (`<page>_<psid>`); others take the suffix.
  const id = inbox && c.id === `${c.page_id}_${c.from.id}` ? `${c.page_id}_${psid}` : messageIdOf(c.id, k);
  const copy: ConversationRecord = {
    ...c,
    id,
    customer_id: customer.customer_id,
    inserted_at: earlier(c.inserted_at, offset),
    updated_at: earlier(c.updated_at, offset),
    tags: [...c.tags],
    tag_histories: c.tag_histories.map((h) => ({ ...h, conversation_id: id, inserted_at: earlier(h.inserted_at, offset) })),
    assignee_histories: c.assignee_histories.map((h) => ({ ...h, conversation_id: id, inserted_at: earlier(h.inserted_at, offset) })),
    current_assign_users: [...c.current_assign_users],
    assignee_ids: [...c.assignee_ids],
    customers: c.customers.map((x) => ({
      ...x,
      id: customer.id,
      fb_id: psid,
      name: twin.copy.name,
      avatar_url: `https://pages.fm/api/v1/pages/${c.page_id}/avatar/${psid}`,
    })),
    from: { ...c.from, id: psid, name: twin.copy.name },
    from_psid: c.from_psid === null ? null : psid,
    recent_phone_numbers: c.recent_phone_numbers.map((p) => copyCapture(p, k, twin)),
    ad_ids: [...c.ad_ids],
    last_customer_interactive_at: earlierOrNull(c.last_customer_interactive_at, offset),
    snippet: swapPhone(c.snippet, twin),
    read_watermarks:
      c.read_watermarks?.map((w) => ({ ...w, message_id: messageIdOf(w.message_id, k), psid: w.psid === c.from.id ? psid : w.psid, watermark: w.watermark - offset })) ?? null,
    recent_seen_users: c.recent_seen_users.map((u) => ({ ...u, seen_at: earlier(u.seen_at, offset) })),
    thread_id: c.thread_id === null ? null : `t_${psid}`,
    thread_key: c.thread_key === null ? null : `t_${c.page_id}_${psid}`,
  };
  copy.last_sent_by = senderOf(c.last_sent_by, c, copy);
  return copy;
}

/** What copy k of a conversation builds its messages from: the original's first `count`, as they were copied. */
interface CopiedThread {
  original: ConversationRecord;
  copy: ConversationRecord;
  k: number;
  offset: number;
  twin: Twin;
  count: number;
}

/**
 * `messages` with the copies' messages built from the originals' each time they are read, until a
 * write assigns a copy's list (postMessage): from then on it is held as any conversation's. Built
 * rather than held, they cost nothing until read and nothing after (at 1000 copies a closure per
 * copy alone was 370 MB, and the statistics, which read every message, would have held them all).
 */
function messagesOfCopies(messages: Record<string, MessageRecord[]>, threads: Map<string, CopiedThread>): Record<string, MessageRecord[]> {
  const build = (t: CopiedThread) => {
    const source = messages[t.original.id] ?? [];
    // One sender record for all the customer's messages: a hundred copies hold hundreds of thousands.
    const customer = senderOf(customerSender(t.original), t.original, t.copy);
    return source.slice(0, t.count).map((m) => copyMessage(m, t.original, t.copy, t.k, t.offset, t.twin, customer));
  };
  const derived = (key: string | symbol) => (typeof key === "string" && !Object.hasOwn(messages, key) ? threads.get(key) : undefined);
  return new Proxy(messages, {
    get: (target, key, receiver) => {
      const t = derived(key);
      return t ? build(t) : Reflect.get(target, key, receiver);
    },
    set: (target, key, value) => {
      if (typeof key === "string") threads.delete(key);
      return Reflect.set(target, key, value);
    },
    has: (target, key) => derived(key) !== undefined || Reflect.has(target, key),
    ownKeys: (target) => [...Reflect.ownKeys(target), ...threads.keys()],
    getOwnPropertyDescriptor: (target, key) => {
      const t = derived(key);
      return t ? { value: build(t), writable: true, enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
}

function copyMessage(
  m: MessageRecord,
  original: ConversationRecord,
  copy: ConversationRecord,
  k: number,
  offset: number,
  twin: Twin,
  customer: Sender,
): MessageRecord {
  const phone = m.has_phone;
  const fromCustomer = m.from.admin_id === undefined && m.from.id === original.from.id && m.from.name === original.from.name;
  return {
    ...m,
    id: messageIdOf(m.id, k),
    conversation_id: copy.id,
    from: fromCustomer ? customer : senderOf(m.from, original, copy),
    inserted_at: earlier(m.inserted_at, offset),
    message: phone ? swapPhone(m.message, twin) : m.message,
    original_message: phone ? swapPhone(m.original_message, twin) : m.original_message,
    // Records are not changed in place once written: what has nothing to change is shared.
    phone_info: m.phone_info.length ? m.phone_info.map((p) => copyCapture(p, k, twin)) : m.phone_info,
    parent_id: m.parent_id === null ? null : messageIdOf(m.parent_id, k),
    private_reply_conversation: m.private_reply_conversation === null ? null : `${copy.page_id}_${twin.copy.psid}`,
  };
}
