import { reply, type Router, type SandboxRequest } from "../server.js";
import { badParams, conversationOf, onPage, type RouteContext, userPage } from "./guards.js";
import { appendMessage, buildConversation, buildMessage, isFromStaff, staffSender } from "./messages.js";
import { touchCustomer } from "./seed-inbox.js";
import { DAY_MS, HOUR_MS, parseIso } from "./time.js";
import type { Attachment, ConversationRecord, MessageRecord, PageRecord, StaffUser } from "./types.js";

const WINDOW_MS = 24 * HOUR_MS;
const PRIVATE_REPLY_MAX_AGE_MS = 7 * DAY_MS;

interface SendBody {
  action?: unknown;
  message?: unknown;
  message_id?: unknown;
  parent_id?: unknown;
  post_id?: unknown;
  content_url?: unknown;
  image_data?: unknown;
  attachmentType?: unknown;
  name?: unknown;
  mime_type?: unknown;
  sender_id?: unknown;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const refused = (message: string, extra: Record<string, unknown> = {}) => ({ success: false, message, ...extra });

/**
 * The three send actions share one path. The spec puts them under /v1 with the user token (and
 * states the private reply as `/v1pages/...`); the vendor's OpenAPI puts them under
 * /public_api/v1 with the page token. All three forms are served.
 */
export function registerSendRoutes(router: Router, ctx: RouteContext, prefix: string): void {
  const owner = () => ctx.state.staff.find((s) => s.id === ctx.state.ownerId)!;
  const byUser = (req: SandboxRequest) => send(ctx, req, userPage(ctx, req), owner());
  router.on("POST", `${prefix}/v1/pages/:page_id/conversations/:conversation_id/messages`, byUser);
  router.on("POST", `${prefix}/v1pages/:page_id/conversations/:conversation_id/messages`, byUser);
  onPage(router, ctx, "POST", `${prefix}/public_api/v1/pages/:page_id/conversations/:conversation_id/messages`, (req, page) => {
    const senderId = (req.body as SendBody | undefined)?.sender_id;
    const sender = ctx.state.staff.find((s) => s.id === senderId && s.page_ids.includes(page.id)) ?? owner();
    return send(ctx, req, page, sender);
  });
}

function send(ctx: RouteContext, req: SandboxRequest, page: PageRecord, sender: StaffUser) {
  const c = conversationOf(ctx, page, req.params.conversation_id);
  const body = (req.body ?? {}) as SendBody;
  switch (body.action) {
    case "reply_inbox":
      return replyInbox(ctx, page, c, body, sender);
    case "reply_comment":
      return replyComment(ctx, page, c, body, sender);
    case "private_replies":
      return privateReply(ctx, page, c, body, sender);
    default:
      throw badParams("action must be reply_inbox, reply_comment or private_replies");
  }
}

function replyInbox(ctx: RouteContext, page: PageRecord, c: ConversationRecord, body: SendBody, sender: StaffUser) {
  if (c.type !== "INBOX") throw badParams("reply_inbox needs an INBOX conversation; use reply_comment for comments");
  const message = text(body.message);
  const url = text(body.content_url);
  if (!message && !url) throw badParams("message or content_url is required");
  const now = ctx.clock();
  const last = c.last_customer_interactive_at;
  if (!last || parseIso(last) < now - WINDOW_MS) {
    return refused("(#10) This message is sent outside of allowed window.", { e_code: 10, e_subcode: 2018278 });
  }
  const attachments: Attachment[] = [];
  if (url) {
    attachments.push(
      body.attachmentType === "DOCUMENT"
        ? { type: "file", url, name: text(body.name) || "Document", mime_type: text(body.mime_type) || "application/octet-stream" }
        : { type: "photo", url },
    );
  }
  const created = add(ctx, c, { id: `m_sb${++ctx.state.sequence}`, from: staffSender(page, sender), text: message, at: now, attachments });
  return { id: created.id, success: true };
}

function replyComment(ctx: RouteContext, page: PageRecord, c: ConversationRecord, body: SendBody, sender: StaffUser) {
  if (c.type === "INBOX") throw badParams("reply_comment needs a comment conversation");
  const message = text(body.message);
  const url = text(body.content_url);
  if (!message && !url) throw badParams("the reply needs a message or an image");
  if (url && !text(body.image_data)) throw badParams("image_data is required with content_url");
  const list = ctx.state.messages[c.id] ?? [];
  const parent = findComment(list, body);
  if (!parent) throw badParams("message_id is not a comment of this conversation");
  const created = add(ctx, c, {
    id: `${c.id.split("_")[0]}_${900_000_000_000 + ++ctx.state.sequence}`,
    from: staffSender(page, sender),
    text: message,
    at: ctx.clock(),
    attachments: url ? [{ type: "photo", url }] : [],
    parentId: parent.parent_id ?? parent.id,
  });
  return { id: created.id, success: true };
}

function privateReply(ctx: RouteContext, page: PageRecord, c: ConversationRecord, body: SendBody, sender: StaffUser) {
  const message = text(body.message);
  if (!text(body.post_id)) throw badParams("post_id is required");
  if (!message) throw badParams("message is required");
  if (c.type !== "COMMENT" && c.type !== "COMMENT_LIVESTREAM") throw badParams("private replies are sent from comments");
  if (c.post_id !== body.post_id) throw badParams("post_id is not the post of this conversation");
  const list = ctx.state.messages[c.id] ?? [];
  const comment = findComment(list, body);
  if (!comment || isFromStaff(comment)) throw badParams("message_id is not a customer comment of this conversation");
  const now = ctx.clock();
  if (comment.private_reply_conversation) {
    return refused("A private reply was already sent for this comment; only one private reply per comment is allowed.");
  }
  if (parseIso(comment.inserted_at) < now - PRIVATE_REPLY_MAX_AGE_MS) {
    return refused("This comment is more than 7 days old; a private reply can no longer be sent.");
  }
  const inbox = inboxOf(ctx, page, c, now);
  const created = add(ctx, inbox, { id: `m_sb${++ctx.state.sequence}`, from: staffSender(page, sender), text: message, at: now });
  comment.private_reply_conversation = inbox.id;
  ctx.state.privateReplies.push({
    page_id: page.id,
    post_id: text(body.post_id),
    comment_id: comment.id,
    comment_conversation_id: c.id,
    inbox_conversation_id: inbox.id,
    message_id: created.id,
    sender_id: sender.id,
    inserted_at: created.inserted_at,
  });
  return { id: created.id, success: true };
}

/** The comment named by message_id (the earliest variant: parent_id), which the vendor requires. */
function findComment(list: MessageRecord[], body: SendBody): MessageRecord | undefined {
  const id = text(body.message_id) || text(body.parent_id);
  if (!id) throw badParams("message_id is required");
  return list.find((m) => m.id === id);
}

/** The commenter's inbox thread, opened by the private reply when there is none yet. */
function inboxOf(ctx: RouteContext, page: PageRecord, comment: ConversationRecord, now: number): ConversationRecord {
  const id = `${page.id}_${comment.from.id}`;
  const existing = ctx.state.conversations.find((c) => c.id === id);
  if (existing) return existing;
  const customer = ctx.state.customers.find((p) => p.page_id === page.id && p.psid === comment.from.id);
  if (!customer) throw reply(404, { success: false, error: "not_found", message: "Customer not found" });
  const created = buildConversation({ id, page, customer, type: "INBOX", at: now });
  ctx.state.conversations.push(created);
  ctx.state.messages[id] = [];
  return created;
}

function add(
  ctx: RouteContext,
  c: ConversationRecord,
  m: { id: string; from: MessageRecord["from"]; text: string; at: number; attachments?: Attachment[]; parentId?: string },
): MessageRecord {
  const list = ctx.state.messages[c.id] ?? [];
  ctx.state.messages[c.id] = list;
  const message = buildMessage({ ...m, conversation: c, at: Math.max(m.at, lastTime(list) + 1) });
  appendMessage(list, c, message);
  const customer = ctx.state.customers.find((p) => p.page_id === c.page_id && p.psid === c.from.id);
  if (customer) touchCustomer(customer, c);
  return message;
}

function lastTime(list: MessageRecord[]): number {
  const last = list[list.length - 1];
  return last ? parseIso(last.inserted_at) : 0;
}
