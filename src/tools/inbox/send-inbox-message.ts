import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { InboxMessage } from "../../clients/messaging.js";
import { CREATE, defineTool, type ToolContext } from "../define.js";
import { idInput, pageIdInput } from "../inputs.js";
import { confirmSend } from "./confirm-send.js";
import { requireKind } from "./conversation-lookup.js";
import { refusedByPlatform, requireOpenWindow } from "./inbox-window.js";
import { messageInput, sentOutput, urlInput } from "./send-shared.js";

const DOCUMENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv",
  txt: "text/plain",
  zip: "application/zip",
};

/** The send fields of a file URL: a known document extension makes it a DOCUMENT, anything else a PHOTO. */
export function attachmentOf(url: string): Pick<InboxMessage, "content_url" | "attachmentType" | "name" | "mime_type"> {
  const name = new URL(url).pathname.split("/").pop() ?? "";
  const mime = DOCUMENT_TYPES[name.split(".").pop()?.toLowerCase() ?? ""];
  return mime ? { content_url: url, attachmentType: "DOCUMENT", name, mime_type: mime } : { content_url: url, attachmentType: "PHOTO" };
}

export const sendInboxMessage = defineTool({
  name: "send_inbox_message",
  title: "Send inbox message",
  description:
    "Message the customer in an INBOX conversation; refused over 24 h after their last message.",
  toolset: "inbox",
  annotations: CREATE,
  input: z.object({
    page_id: pageIdInput,
    conversation_id: idInput("INBOX conversation id"),
    message: messageInput.optional().describe("Text"),
    content_url: urlInput.optional().describe("Image or document URL"),
  }),
  output: sentOutput,
  async confirm(input, ctx) {
    await requireSendable(input, ctx);
    return confirmSend("Gửi tin nhắn này cho khách?", input, ctx);
  },
  async handler(input, ctx) {
    // Again after the dialog (free then: the conversation is remembered), and alone without one.
    await requireSendable(input, ctx);
    const sent = await ctx.messaging
      .sendInboxMessage(input.page_id, input.conversation_id, { message: input.message, ...(input.content_url ? attachmentOf(input.content_url) : {}) })
      .catch(async (error: unknown) => {
        throw await refusedByPlatform(ctx, input, error);
      });
    return { message_id: sent.id ?? undefined, conversation_id: input.conversation_id };
  },
});

/** What is refused before the user is asked, and before anything is sent. */
async function requireSendable(input: { page_id: string; conversation_id: string; message?: string | undefined; content_url?: string | undefined }, ctx: ToolContext) {
  if (!input.message?.trim() && !input.content_url) {
    throw new InputError("message", "give a message or a content_url", "Pass the text to send, or the URL of an image or file.");
  }
  // The window's check looks the conversation up, so its kind is known after it.
  await requireOpenWindow(ctx, input);
  requireKind(ctx.messaging, input.page_id, input.conversation_id, ["INBOX"], "Answer a comment with reply_to_comment (public) or send_private_reply (to the commenter's inbox).");
}
