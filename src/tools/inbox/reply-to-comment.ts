import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { CREATE, defineTool } from "../define.js";
import { jsonish } from "../inputs.js";
import { commentIdOf, findComment } from "./comment-target.js";
import { confirmSend } from "./confirm-send.js";
import { findConversation, requireKind } from "./conversation-lookup.js";
import { commentTarget, messageInput, sentOutput, urlInput } from "./send-shared.js";

export const replyToComment = defineTool({
  name: "reply_to_comment",
  title: "Reply to comment",
  description:
    "Reply publicly under a comment.",
  toolset: "inbox",
  annotations: CREATE,
  input: z.object({
    ...commentTarget,
    message: messageInput.optional().describe("Text"),
    content_url: urlInput.optional().describe("Image URL"),
    image_data: jsonish(z.union([z.string().max(500), z.record(z.string(), z.unknown())]))
      .optional()
      .describe('Needed with content_url: {"width":W,"height":H}'),
  }),
  output: sentOutput,
  confirm: (input, ctx) => confirmSend("Trả lời công khai bình luận này?", input, ctx),
  async handler(input, ctx) {
    if (!input.message?.trim() && !input.content_url) {
      throw new InputError("message", "a reply needs a message or an image", "Pass message, or content_url with image_data.");
    }
    if (input.content_url && input.image_data === undefined) {
      throw new InputError("image_data", "is required with content_url", 'Pass the image size, e.g. {"width":800,"height":600}.');
    }
    const imageData = typeof input.image_data === "object" ? JSON.stringify(input.image_data) : input.image_data;
    // Without comment_id the thread is looked up anyway (for its first comment), so its kind is known.
    const facts = input.comment_id ? undefined : await findConversation(ctx.messaging, input.page_id, input.conversation_id).catch(() => undefined);
    requireKind(ctx.messaging, input.page_id, input.conversation_id, ["COMMENT", "COMMENT_LIVESTREAM"], "Message an inbox thread with send_inbox_message.");
    const comment = facts?.customer_id ? await findComment(ctx, input, facts.customer_id) : undefined;
    const sent = await ctx.messaging.replyToComment(input.page_id, input.conversation_id, {
      message: input.message,
      message_id: commentIdOf(input, comment),
      ...(input.content_url ? { content_url: input.content_url, image_data: imageData } : {}),
    });
    return { message_id: sent.id ?? undefined, conversation_id: input.conversation_id };
  },
});
