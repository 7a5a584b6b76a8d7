import type { Conversation, Message } from "../clients/schemas/messaging.js";
import { id } from "./compact.js";
import { sanitizeDeep, sanitizeName, sanitizeText } from "../text/sanitize.js";
import { recordTime } from "./time.js";

/**
 * Compact rows of the inbox: conversations and messages. Shared by the inbox tools, the
 * statistics tools and the prompts, so every surface shows the same fields under the same names.
 * Whose words a text is stays visible: `from` says "page" or "customer".
 */

export type Side = "page" | "customer";

interface Sender {
  id?: unknown;
  name?: string | null;
  admin_id?: unknown;
  admin_name?: string | null;
}

/** Staff replies carry admin_id (or the page's own id as sender); everything else is the customer. */
export function sideOf(sender: Sender | null | undefined, pageId: string): Side {
  return sender && (sender.admin_id != null || id(sender.id) === pageId) ? "page" : "customer";
}

function senderName(sender: Sender | null | undefined, side: Side): string | undefined {
  return sanitizeName(side === "page" ? (sender?.admin_name ?? sender?.name) : sender?.name);
}

/** Tag ids (the spec) or tag objects (the vendor's OpenAPI) to names, via the page's tag list. */
export function tagLabels(tags: readonly unknown[] | null | undefined, names: ReadonlyMap<string, string>): string[] {
  return (tags ?? []).flatMap((tag) => {
    const record = typeof tag === "object" && tag !== null ? (tag as { id?: unknown; text?: unknown }) : undefined;
    const tagId = id(record ? record.id : tag);
    if (tagId === undefined) return [];
    const label = names.get(tagId) ?? (typeof record?.text === "string" ? record.text : undefined);
    return [sanitizeName(label) ?? tagId];
  });
}

export interface RowContext {
  pageId: string;
  timeZone: string;
  /** Tag id -> name of the page. */
  tags: ReadonlyMap<string, string>;
  /** Awaiting a reply: how long the customer has waited, which says who wrote last and when. */
  waitingMinutes?: number;
  /**
   * Read from the shop index, whose read state may be stale (it changes without moving the update
   * time the index refreshes by, and this server cannot see staff read a chat): left out.
   */
  indexed?: boolean;
}

/**
 * A conversation as a list shows it: what a seller reads (who, what type, the last words and
 * whose they are, tags, assignees, unread, when it began, since when), about 120 tokens, so a list
 * of 50 stays near 6,000. Every row says when the conversation began and when the customer last
 * wrote (issue 21: "new threads" and "unanswered since" are read off rows), the latter only where
 * it is not the row's last activity already: staff wrote after it (`last_customer_message_at`), or
 * the customer is awaiting a reply (`waiting_minutes`, the wait began then, in place of last_from
 * and updated_at). Left out: what only raw access uses (the inbox's customer_id, which models
 * confuse with the POS customer id, where the conversation id finds the chat's customer; a post id
 * on an inbox thread; the message count), and what repeats another field or the usual value:
 * `unread` only when something is (the count, or true when marked unread), `has_phone` only when
 * true, `last_sender` only for staff (a customer's name is customer_name).
 */
export function conversationRow(c: Conversation, ctx: RowContext) {
  const customer = c.customers?.[0];
  const lastSide = c.last_sent_by ? sideOf(c.last_sent_by, ctx.pageId) : undefined;
  const waiting = ctx.waitingMinutes;
  return {
    id: String(c.id),
    type: c.type ?? undefined,
    customer_name: sanitizeName(customer?.name ?? c.from?.name),
    snippet: sanitizeText(c.snippet, { max: 200 }),
    last_from: waiting === undefined ? lastSide : undefined,
    last_sender: lastSide === "page" ? senderName(c.last_sent_by, lastSide) : undefined,
    unread: ctx.indexed ? undefined : c.unread_count ? c.unread_count : c.seen === false ? true : undefined,
    tags: tagLabels(c.tags, ctx.tags),
    assignees: (c.current_assign_users ?? []).map((u) => sanitizeName(u.name) ?? id(u.id)).filter((n) => n !== undefined),
    has_phone: c.has_phone === true ? true : undefined,
    post_id: c.type === "INBOX" ? undefined : id(c.post_id),
    created_at: recordTime(c.inserted_at, ctx.timeZone),
    updated_at: waiting === undefined ? recordTime(c.updated_at, ctx.timeZone) : undefined,
    // When the customer last wrote: where staff wrote after it, and where the customer awaits a reply (the wait began then).
    last_customer_message_at: waiting !== undefined || lastSide === "page" ? recordTime(c.last_customer_interactive_at, ctx.timeZone) : undefined,
    waiting_minutes: waiting,
  };
}

export type ConversationRow = ReturnType<typeof conversationRow>;

interface AttachmentLike {
  type?: unknown;
  url?: unknown;
  file_url?: unknown;
  name?: unknown;
  payload?: { url?: unknown } | null;
}

export function attachmentSummary(attachments: readonly unknown[] | null | undefined) {
  return (attachments ?? []).map((raw) => {
    const a = (raw ?? {}) as AttachmentLike;
    const url = [a.url, a.file_url, a.payload?.url].find((v) => typeof v === "string");
    return { type: typeof a.type === "string" ? a.type : undefined, url: url as string | undefined, name: sanitizeName(a.name) };
  });
}

/** `original_message` is the plain text; the HTML `message` is converted only when it is missing. */
export function messageText(m: Message, max = 2000): string | undefined {
  return m.original_message ? sanitizeText(m.original_message, { max }) : sanitizeText(m.message, { html: true, max });
}

export function messageRow(m: Message, ctx: Omit<RowContext, "tags">) {
  const from = sideOf(m.from, ctx.pageId);
  return {
    id: String(m.id),
    from,
    sender: senderName(m.from, from),
    text: messageText(m),
    attachments: attachmentSummary(m.attachments),
    time: recordTime(m.inserted_at, ctx.timeZone),
    parent_id: id(m.parent_id),
    has_phone: m.has_phone || undefined,
    is_hidden: m.is_hidden || undefined,
    is_removed: m.is_removed || undefined,
    private_replied: m.private_reply_conversation ? true : undefined,
  };
}

export type MessageRow = ReturnType<typeof messageRow>;

/**
 * A messaging record returned as is for `detail: "full"`. Its nulls are dropped by the output
 * contract's compaction, so it fits the loose row schemas; the schemas' parse made its id text.
 */
export function fullRecord(record: object): Record<string, unknown> & { id: string } {
  return sanitizeDeep(record) as Record<string, unknown> & { id: string };
}
