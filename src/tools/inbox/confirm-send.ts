import { type Confirmation, shown } from "../confirm.js";
import type { ToolContext } from "../define.js";
import { findConversation } from "./conversation-lookup.js";

interface Send {
  page_id: string;
  conversation_id: string;
  message?: string | undefined;
  content_url?: string | undefined;
}

/**
 * The dialog before a message reaches a customer: to whom (the customer's and the page's names,
 * when they can be read), the exact text (editable) and any attachment.
 */
export async function confirmSend(action: string, input: Send, ctx: ToolContext): Promise<Confirmation> {
  const facts = await findConversation(ctx.messaging, input.page_id, input.conversation_id).catch(() => undefined);
  return {
    action,
    details: [
      ["Khách", shown(facts?.customer_name)],
      ["Trang", shown(ctx.messaging.pageName(input.page_id)) ?? input.page_id],
      ["Hội thoại", input.conversation_id],
      ["Nội dung", input.message],
      ["Đính kèm", input.content_url],
    ],
    editable: { field: "message", label: "Nội dung (có thể sửa trước khi gửi)" },
  };
}
