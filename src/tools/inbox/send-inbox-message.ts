import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { CREATE, defineTool } from "../define.js";
import { idInput, pageIdInput } from "../inputs.js";

export const sentOutput = z.object({ message_id: z.string().optional(), conversation_id: z.string() });

export const messageInput = z.string().max(2000).optional();
export const urlInput = z.url({ protocol: /^https?$/ }).max(2000);

export const sendInboxMessage = defineTool({
  name: "send_inbox_message",
  title: "Send inbox message",
  description:
    "Send a message as the page in an INBOX conversation: text and/or an image or file URL. The platform refuses it when the customer last wrote over 24 h ago. Example: message \"Dạ đơn đã gửi ạ\".",
  toolset: "inbox",
  annotations: CREATE,
  input: z.object({
    page_id: pageIdInput,
    conversation_id: idInput("INBOX conversation id (from list_conversations)"),
    message: messageInput.describe("Text"),
    content_url: urlInput.optional().describe("Image or file URL"),
    attachment_type: z.enum(["PHOTO", "DOCUMENT"]).default("PHOTO").describe("Kind of content_url"),
    file_name: z.string().max(200).optional().describe("DOCUMENT file name"),
    mime_type: z.string().max(100).optional().describe("DOCUMENT MIME type"),
  }),
  output: sentOutput,
  async handler(input, ctx) {
    if (!input.message?.trim() && !input.content_url) {
      throw new InputError("message", "give a message or a content_url", "Pass the text to send, or the URL of an image or file.");
    }
    const sent = await ctx.messaging.sendInboxMessage(input.page_id, input.conversation_id, {
      message: input.message,
      ...(input.content_url
        ? { content_url: input.content_url, attachmentType: input.attachment_type, name: input.file_name, mime_type: input.mime_type }
        : {}),
    });
    return { message_id: sent.id ?? undefined, conversation_id: input.conversation_id };
  },
});
