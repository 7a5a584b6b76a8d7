import type { AnyTool } from "../define.js";
import { assignConversation } from "./assign-conversation.js";
import { listConversations } from "./list-conversations.js";
import { listMessages } from "./list-messages.js";
import { listPageTags } from "./list-page-tags.js";
import { markConversation } from "./mark-conversation.js";
import { replyToComment } from "./reply-to-comment.js";
import { sendInboxMessage } from "./send-inbox-message.js";
import { sendPrivateReply } from "./send-private-reply.js";
import { updateConversationTags } from "./update-conversation-tags.js";

export const tools: AnyTool[] = [
  listConversations,
  listMessages,
  sendInboxMessage,
  replyToComment,
  sendPrivateReply,
  updateConversationTags,
  assignConversation,
  markConversation,
  listPageTags,
];
