import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { Message } from "../../clients/schemas/messaging.js";
import { sideOf } from "../../format/conversations.js";
import { recordTime } from "../../format/time.js";
import { CREATE, defineTool, type ToolContext } from "../define.js";
import { idInput } from "../inputs.js";
import { commentIdOf, findComment, tooOldForPrivateReply } from "./comment-target.js";
import { confirmSend } from "./confirm-send.js";
import { findConversation } from "./conversation-lookup.js";
import { commentTarget, messageInput, sentOutput } from "./send-shared.js";

export const sendPrivateReply = defineTool({
  name: "send_private_reply",
  title: "Send private reply",
  description:
    "Answer a comment with a private inbox message: once per comment, within 7 days of it.",
  toolset: "inbox",
  annotations: CREATE,
  input: z.object({
    ...commentTarget,
    message: messageInput.min(1).describe("Text"),
    post_id: idInput("Post of the comment").optional(),
  }),
  output: sentOutput.extend({
    conversation_id: z.string().optional().describe("The customer's inbox thread the message went to, when the page lists it"),
    comment_conversation_id: z.string(),
  }),
  confirm: (input, ctx) => confirmSend("Nhắn riêng cho người đã bình luận?", input, ctx),
  async handler(input, ctx) {
    if (!input.message.trim()) throw new InputError("message", "is empty", "Pass the text to send.");
    const facts = await findConversation(ctx.messaging, input.page_id, input.conversation_id);
    if (facts.type && facts.type !== "COMMENT" && facts.type !== "COMMENT_LIVESTREAM") {
      throw new InputError("conversation_id", `is a ${facts.type} conversation; private replies are sent from comments`, "Use send_inbox_message for inbox threads.");
    }
    const postId = input.post_id ?? facts.post_id;
    if (!postId) throw new InputError("post_id", "the conversation names no post", "Pass post_id from the conversation row.");
    const comment = facts.customer_id ? await findComment(ctx, input, facts.customer_id) : undefined;
    if (comment) checkComment(ctx, input, comment);
    const fromId = comment?.from?.id;
    const sent = await ctx.messaging.sendPrivateReply(input.page_id, input.conversation_id, {
      post_id: postId,
      message_id: commentIdOf(input, comment),
      ...(fromId != null ? { from_id: String(fromId) } : {}),
      message: input.message,
    });
    // The message lands in the customer's inbox thread, which the answer does not name: the
    // comment records it once sent. Without it, no id is given rather than the comment thread's.
    const after = facts.customer_id ? await findComment(ctx, input, facts.customer_id) : undefined;
    const inbox = after?.private_reply_conversation;
    return { message_id: sent.id ?? undefined, conversation_id: inbox ? String(inbox) : undefined, comment_conversation_id: input.conversation_id };
  },
});

/** The rule checked before sending, when the comment could be read; the upstream checks it again. */
function checkComment(ctx: ToolContext, input: { page_id: string; comment_id?: string }, comment: Message): void {
  const field = input.comment_id ? "comment_id" : "conversation_id";
  if (sideOf(comment.from, input.page_id) === "page") {
    throw new InputError(field, "names a comment written by the page", "Pick the customer's comment id from list_messages.");
  }
  if (comment.private_reply_conversation) {
    const thread = comment.private_reply_conversation;
    throw new InputError(
      field,
      "this comment already had its private reply (one per comment)",
      `Continue in the customer's inbox thread${thread == null ? "" : ` ${thread}`} with send_inbox_message.`,
    );
  }
  const written = recordTime(comment.inserted_at, ctx.config.timezone);
  if (written && tooOldForPrivateReply(comment.inserted_at)) {
    throw new InputError(
      field,
      `the comment was written ${written}, more than 7 days ago; private replies are no longer allowed`,
      "Reply publicly with reply_to_comment, or wait for the customer to message the page.",
    );
  }
}
