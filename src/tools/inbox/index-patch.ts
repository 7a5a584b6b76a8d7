import type { Conversation } from "../../clients/schemas/messaging.js";
import { indexedConversation } from "../../shop-index/conversation-rows.js";
import type { ToolContext } from "../define.js";

/**
 * Keeps the shop index in step with a change this server made to a conversation: tags, staff and
 * the read state change without moving its update time, so the next count by tag or assignee
 * would otherwise see the conversation as it was. Never fails the write that was made.
 */
export async function patchIndexed(ctx: ToolContext, pageId: string, conversationId: string, change: Partial<Conversation>): Promise<void> {
  if (!ctx.index) return;
  try {
    await ctx.index.conversations(pageId).patch(conversationId, (held) => indexedConversation({ ...held, ...change } as Conversation));
  } catch (error) {
    ctx.logger.info(`shop index: conversation ${conversationId} not updated after the change (${error instanceof Error ? error.message : String(error)}); the next refresh of its page reads it`);
  }
}
