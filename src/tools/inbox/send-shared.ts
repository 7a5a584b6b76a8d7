import { z } from "zod";
import { idInput, pageIdInput } from "../inputs.js";

/** Vocabulary of the inbox write tools: what they take and what they answer. */

export const conversationIdInput = idInput("Conversation id");

export const sentOutput = z.object({ message_id: z.string().optional(), conversation_id: z.string() });

export const messageInput = z.string().max(2000);
export const urlInput = z.url({ protocol: /^https?$/ }).max(2000);

/** A comment thread and, optionally, the comment in it (default the thread's first comment). */
export const commentTarget = {
  page_id: pageIdInput,
  conversation_id: idInput("Comment thread id"),
  comment_id: idInput("Default: the first").optional(),
};
