import { z } from "zod";
import { defineTool, OVERWRITE } from "../define.js";
import { pageIdInput } from "../inputs.js";
import { patchIndexed } from "./index-patch.js";
import { conversationIdInput } from "./send-shared.js";

export const markConversation = defineTool({
  name: "mark_conversation",
  title: "Mark conversation read/unread",
  description: "Mark a conversation read or unread (pending for the team).",
  toolset: "inbox",
  annotations: OVERWRITE,
  input: z.object({
    page_id: pageIdInput,
    conversation_id: conversationIdInput,
    state: z.enum(["read", "unread"]).describe("Read state"),
  }),
  output: z.object({ conversation_id: z.string(), state: z.enum(["read", "unread"]) }),
  async handler(input, ctx) {
    if (input.state === "read") await ctx.messaging.markConversationRead(input.page_id, input.conversation_id);
    else await ctx.messaging.markConversationUnread(input.page_id, input.conversation_id);
    await patchIndexed(ctx, input.page_id, input.conversation_id, input.state === "read" ? { seen: true, unread_count: 0 } : { seen: false });
    return { conversation_id: input.conversation_id, state: input.state };
  },
});
