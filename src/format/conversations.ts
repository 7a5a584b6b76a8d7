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
}

/**
 * A conversation as a list shows it. What most rows share is left out rather than repeated on
 * each (a list of 50 runs to thousands of tokens): `seen` and `has_phone` only when they say
 * something (false, true), `unread_count` only above 0, `last_sender` only for staff (a
 * customer's name is customer_name), and `last_customer_message_at` only when staff wrote after
 * it (else it is updated_at, and last_from says "customer").
 */
export function conversationRow(c: Conversation, ctx: RowContext) {
  const customer = c.customers?.[0];
  const lastSide = c.last_sent_by ? sideOf(c.last_sent_by, ctx.pageId) : undefined;
  const updated = recordTime(c.updated_at, ctx.timeZone);
  const customerWrote = recordTime(c.last_customer_interactive_at, ctx.timeZone);
  return {
    id: String(c.id),
    type: c.type ?? undefined,
    customer_name: sanitizeName(customer?.name ?? c.from?.name),
    customer_id: id(c.customer_id ?? customer?.id),
    snippet: sanitizeText(c.snippet, { max: 200 }),
    last_from: lastSide,
    last_sender: lastSide === "page" ? senderName(c.last_sent_by, lastSide) : undefined,
    seen: c.seen === false ? false : undefined,
    unread_count: c.unread_count ? c.unread_count : undefined,
    tags: tagLabels(c.tags, ctx.tags),
    assignees: (c.current_assign_users ?? []).map((u) => sanitizeName(u.name) ?? id(u.id)).filter((n) => n !== undefined),
    has_phone: c.has_phone === true ? true : undefined,
    post_id: id(c.post_id),
    message_count: c.message_count ?? undefined,
    created_at: recordTime(c.inserted_at, ctx.timeZone),
    updated_at: updated,
    last_customer_message_at: customerWrote === updated ? undefined : customerWrote,
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
