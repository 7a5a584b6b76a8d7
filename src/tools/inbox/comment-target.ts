import type { Message } from "../../clients/schemas/messaging.js";
import { sideOf } from "../../format/conversations.js";
import { recordDate } from "../../format/time.js";
import type { ToolContext } from "../define.js";
import { readMessages } from "./list-messages.js";

/** Comment threads are short; this many newest messages nearly always include the comment. */
const SCAN = 60;

/** A private reply answers a comment at most this long after it was written (the spec's rule). */
export const PRIVATE_REPLY_MAX_AGE_MS = 7 * 86_400_000;

/** Whether a comment's time (a record time) is too old for its private reply. */
export const tooOldForPrivateReply = (insertedAt: unknown) => Date.now() - (recordDate(insertedAt)?.getTime() ?? 0) > PRIVATE_REPLY_MAX_AGE_MS;

export interface CommentTarget {
  page_id: string;
  conversation_id: string;
  comment_id?: string;
}

/**
 * The comment a reply answers: the one named, else the thread's first customer comment (the
 * upstream wants its id). Undefined when the thread cannot be read or the comment is not in it.
 */
export async function findComment(ctx: ToolContext, target: CommentTarget, customerId: string): Promise<Message | undefined> {
  const read = await readMessages(ctx.messaging, target.page_id, target.conversation_id, customerId, 0, SCAN).catch((error: unknown) => {
    // The upstream checks the comment too: a failed read only skips the local resolution.
    ctx.logger.debug(`comment of ${target.conversation_id} not readable: ${String(error)}`);
    return undefined;
  });
  if (!read) return undefined;
  const byId = (id: string) => read.messages.find((m) => String(m.id) === id);
  if (target.comment_id) return byId(target.comment_id);
  // Comment threads are keyed by their first comment; else the oldest customer comment, when read.
  const first = read.passed === undefined ? read.messages.find((m) => sideOf(m.from, target.page_id) === "customer") : undefined;
  return byId(target.conversation_id) ?? first;
}

/** The id to send as message_id: the named comment, the resolved one, else the thread's key. */
export const commentIdOf = (target: CommentTarget, comment: Message | undefined): string =>
  target.comment_id ?? (comment ? String(comment.id) : target.conversation_id);

/**
 * The customer's newest comment in a thread that can still have its private reply: theirs, within
 * 7 days, not answered privately yet. Undefined when there is none or the thread cannot be read.
 */
export async function openComment(ctx: ToolContext, pageId: string, conversationId: string, customerId: string): Promise<Message | undefined> {
  const read = await readMessages(ctx.messaging, pageId, conversationId, customerId, 0, SCAN).catch(() => undefined);
  return read?.messages.filter((m) => sideOf(m.from, pageId) === "customer" && !m.private_reply_conversation && !tooOldForPrivateReply(m.inserted_at)).at(-1);
}
