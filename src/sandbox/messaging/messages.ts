import { iso, isoMicro } from "./time.js";
import type {
  AssignUser,
  Attachment,
  ConversationRecord,
  MessageRecord,
  PageCustomerRecord,
  PageRecord,
  PhoneCapture,
  Sender,
  StaffUser,
} from "./types.js";

/** How messages are built and how a new one changes its conversation, for the seed and the routes alike. */

const PHONE = /(?:\+84|84|0)(?:[\s.]?\d){9}/;

export function html(text: string): string {
  if (text === "") return "<div></div>";
  // Customer text is kept raw on purpose: hostile markup must survive to test sanitizing downstream.
  return `<div>${text.replace(/\n/g, "<br />")}</div>`;
}

export function staffSender(page: PageRecord, user: StaffUser): Sender {
  return { id: page.id, name: page.name, admin_id: user.id, admin_name: user.name, uid: user.id };
}

export function customerSender(conversation: ConversationRecord): Sender {
  return { id: conversation.from.id, name: conversation.from.name };
}

export function isFromStaff(message: MessageRecord): boolean {
  return message.from.admin_id !== undefined;
}

export function assignUser(user: StaffUser): AssignUser {
  return { id: user.id, name: user.name, email: user.email, fb_id: user.fb_id };
}

export interface NewMessage {
  id: string;
  conversation: ConversationRecord;
  from: Sender;
  text: string;
  at: number;
  attachments?: Attachment[];
  parentId?: string | null;
  likeCount?: number | null;
}

export function buildMessage(m: NewMessage): MessageRecord {
  const c = m.conversation;
  const type = c.type === "INBOX" ? "INBOX" : c.type === "RATING" ? "RATING" : "COMMENT";
  const match = PHONE.exec(m.text);
  const phone: PhoneCapture[] = [];
  if (match && !m.from.admin_id) {
    const digits = match[0].replace(/\D/g, "").replace(/^84/, "0");
    phone.push({
      captured: match[0],
      length: match[0].length,
      m_content: m.text,
      m_id: m.id,
      offset: match.index,
      phone_number: digits,
      status: 0,
    });
  }
  const comment = type !== "INBOX";
  return {
    id: m.id,
    conversation_id: c.id,
    page_id: c.page_id,
    type,
    message: html(m.text),
    original_message: m.text,
    from: m.from,
    inserted_at: isoMicro(m.at),
    attachments: m.attachments ?? [],
    has_phone: phone.length > 0,
    phone_info: phone,
    is_removed: false,
    is_hidden: false,
    is_parent: comment && !m.parentId,
    is_parent_hidden: false,
    like_count: comment ? (m.likeCount ?? 0) : null,
    is_livestream_order: c.type === "COMMENT_LIVESTREAM" ? false : null,
    parent_id: m.parentId ?? null,
    private_reply_conversation: null,
  };
}

/** Appends a message and moves the conversation's summary fields the way the live inbox does. */
export function appendMessage(list: MessageRecord[], conversation: ConversationRecord, message: MessageRecord): void {
  list.push(message);
  const c = conversation;
  const at = message.inserted_at.slice(0, 19);
  c.message_count = list.length;
  c.updated_at = at;
  c.snippet = message.original_message.slice(0, 120) || (message.attachments.length ? "[Tệp đính kèm]" : "");
  c.last_sent_by = message.from;
  if (isFromStaff(message)) {
    c.seen = true;
    c.unread_count = 0;
  } else {
    c.last_customer_interactive_at = at;
    c.seen = false;
    c.unread_count += 1;
  }
  if (message.has_phone) {
    c.has_phone = true;
    c.recent_phone_numbers.push(...message.phone_info);
  }
}

export interface NewConversation {
  id: string;
  page: PageRecord;
  customer: PageCustomerRecord;
  type: ConversationRecord["type"];
  at: number;
  postId?: string | null;
}

/** An empty conversation; appendMessage() fills its summary fields. */
export function buildConversation(n: NewConversation): ConversationRecord {
  const { customer, page } = n;
  const inbox = n.type === "INBOX";
  return {
    id: n.id,
    page_id: page.id,
    customer_id: customer.customer_id,
    type: n.type,
    inserted_at: iso(n.at),
    updated_at: iso(n.at),
    tags: [],
    tag_histories: [],
    assignee_histories: [],
    current_assign_users: [],
    assignee_ids: [],
    assignee_group_id: null,
    customers: [
      {
        id: customer.id,
        fb_id: customer.psid,
        name: customer.name,
        avatar_url: `https://pages.fm/api/v1/pages/${page.id}/avatar/${customer.psid}`,
      },
    ],
    from: { id: customer.psid, name: customer.name, email: null },
    from_psid: customer.psid,
    has_phone: false,
    recent_phone_numbers: [],
    post_id: n.postId ?? null,
    ad_ids: [],
    last_sent_by: { id: customer.psid, name: customer.name },
    last_customer_interactive_at: null,
    message_count: 0,
    snippet: "",
    seen: true,
    unread_count: 0,
    read_watermarks: null,
    recent_seen_users: [],
    is_combined: false,
    is_removed: false,
    thread_id: inbox ? `t_${customer.psid}` : null,
    thread_key: inbox ? `t_${page.id}_${customer.psid}` : null,
  };
}
