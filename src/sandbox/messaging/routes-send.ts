import { type FormPart, reply, type Router, type SandboxRequest } from "../server.js";
import { badParams, conversationOf, onPage, type RouteContext, userPage } from "./guards.js";
import { isFromStaff, staffSender } from "./messages.js";
import { DAY_MS, HOUR_MS, parseIso } from "./time.js";
import type { Attachment, ConversationRecord, MessageRecord, PageRecord, StaffUser } from "./types.js";
import { openConversation, postMessage } from "./writes.js";

const WINDOW_MS = 24 * HOUR_MS;
const PRIVATE_REPLY_MAX_AGE_MS = 7 * DAY_MS;

interface SendBody {
  action?: unknown;
  message?: unknown;
  content_ids?: unknown;
  filename?: unknown;
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
 * The three send actions share one path. The seed spec puts them under /v1 with the user token
 * (a content_url the service fetches itself); the vendor's OpenAPI under /public_api/v1 with the
 * page token (files uploaded first, sent as content_ids). Both forms are served. (The seed's
 * `/v1pages/...` for the private reply is a typo of the same path, not a route.)
 */
export function registerSendRoutes(router: Router, ctx: RouteContext, prefix: string): void {
  const owner = () => ctx.state.staff.find((s) => s.id === ctx.state.ownerId)!;
  const byUser = (req: SandboxRequest) => send(ctx, req, userPage(ctx, req), owner());
  router.on("POST", `${prefix}/v1/pages/:page_id/conversations/:conversation_id/messages`, byUser);
  onPage(router, ctx, "POST", `${prefix}/public_api/v1/pages/:page_id/conversations/:conversation_id/messages`, (req, page) => {
    const body = (req.body ?? {}) as SendBody;
    const sender = ctx.state.staff.find((s) => s.id === body.sender_id && s.page_ids.includes(page.id)) ?? owner();
    // The OpenAPI's page-token form sends files as uploaded content ids, never as URLs.
    if (body.content_url !== undefined || body.image_data !== undefined) throw badParams("content_url is not a field of this API; upload the file and send content_ids");
    return send(ctx, req, page, sender, contentsOf(ctx, page, body));
  });
  onPage(router, ctx, "POST", `${prefix}/public_api/v1/pages/:page_id/upload_contents`, (req, page) => upload(ctx, req, page));
}

/** POST upload_contents: one multipart `file`; its content id is good for the page's sends. */
function upload(ctx: RouteContext, req: SandboxRequest, page: PageRecord) {
  const parts = (req.body as { multipart?: FormPart[] } | undefined)?.multipart;
  const file = parts?.find((p) => p.name === "file");
  if (!file?.data.length) throw badParams("file is required (multipart/form-data)");
  const type = file.type ?? "application/octet-stream";
  const kind = type.startsWith("image/") ? "PHOTO" : type.startsWith("video/") ? "VIDEO" : "DOCUMENT";
  const id = `ct_${page.id}_${++ctx.state.sequence}`;
  ctx.state.uploads[id] = { page_id: page.id, name: file.filename ?? "file", mime_type: type, size: file.data.length, attachment_type: kind };
  return { id, attachment_type: kind, success: true };
}

/** The attachments of `content_ids` (uploaded to this page); message and content_ids exclude each other. */
function contentsOf(ctx: RouteContext, page: PageRecord, body: SendBody): Attachment[] {
  if (body.content_ids === undefined) return [];
  const ids = Array.isArray(body.content_ids) ? body.content_ids : [];
  if (!ids.length) throw badParams("content_ids must be a list of uploaded content ids");
  if (body.action === "reply_inbox" && text(body.message)) {
    throw reply(500, { success: false, message: "message and content_ids cannot be sent together" });
  }
  return ids.map((id) => {
    const found = ctx.state.uploads[String(id)];
    if (!found || found.page_id !== page.id) throw badParams(`content id ${String(id)} was not uploaded to this page`);
    const url = `https://content.pancake.vn/sandbox/${String(id)}/${found.name}`;
    return found.attachment_type === "DOCUMENT"
      ? { type: "file", url, name: text(body.filename) || found.name, mime_type: found.mime_type }
      : { type: "photo", url };
  });
}

function send(ctx: RouteContext, req: SandboxRequest, page: PageRecord, sender: StaffUser, contents: Attachment[] = []) {
  const c = conversationOf(ctx, page, req.params.conversation_id);
  const body = (req.body ?? {}) as SendBody;
  switch (body.action) {
    case "reply_inbox":
      return replyInbox(ctx, page, c, body, sender, contents);
    case "reply_comment":
      return replyComment(ctx, page, c, body, sender, contents);
    case "private_replies":
      return privateReply(ctx, page, c, body, sender);
    default:
      throw badParams("action must be reply_inbox, reply_comment or private_replies");
  }
}

function replyInbox(ctx: RouteContext, page: PageRecord, c: ConversationRecord, body: SendBody, sender: StaffUser, contents: Attachment[]) {
  if (c.type !== "INBOX") throw badParams("reply_inbox needs an INBOX conversation; use reply_comment for comments");
  const message = text(body.message);
  const url = text(body.content_url);
  if (!message && !url && !contents.length) throw badParams("message, content_url or content_ids is required");
  const now = ctx.clock();
  const last = c.last_customer_interactive_at;
  if (!last || parseIso(last) < now - WINDOW_MS) {
    return refused("(#10) This message is sent outside of allowed window.", { e_code: 10, e_subcode: 2018278 });
  }
  const attachments: Attachment[] = [...contents];
  if (url) {
    attachments.push(
      body.attachmentType === "DOCUMENT"
        ? { type: "file", url, name: text(body.name) || "Document", mime_type: text(body.mime_type) || "application/octet-stream" }
        : { type: "photo", url },
    );
  }
  const created = postMessage(ctx.state, c, { id: `m_sb${++ctx.state.sequence}`, from: staffSender(page, sender), text: message, at: now, attachments });
  return { id: created.id, success: true };
}

function replyComment(ctx: RouteContext, page: PageRecord, c: ConversationRecord, body: SendBody, sender: StaffUser, contents: Attachment[]) {
  if (c.type === "INBOX") throw badParams("reply_comment needs a comment conversation");
  const message = text(body.message);
  const url = text(body.content_url);
  if (!message && !url) throw badParams("the reply needs a message or an image");
  if (url && !text(body.image_data)) throw badParams("image_data is required with content_url");
  const list = ctx.state.messages[c.id] ?? [];
  const parent = findComment(list, body);
  if (!parent) throw badParams("message_id is not a comment of this conversation");
  const created = postMessage(ctx.state, c, {
    id: `${c.id.split("_")[0]}_${900_000_000_000 + ++ctx.state.sequence}`,
    from: staffSender(page, sender),
    text: message,
    at: ctx.clock(),
    attachments: url ? [{ type: "photo", url }] : contents,
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
  const created = postMessage(ctx.state, inbox, { id: `m_sb${++ctx.state.sequence}`, from: staffSender(page, sender), text: message, at: now });
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
  return openConversation(ctx.state, { id, page, customer, type: "INBOX", at: now });
}
