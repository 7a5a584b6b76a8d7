import { appendMessage, buildConversation, buildMessage, type NewConversation } from "./messages.js";
import { touchCustomer } from "./seed-inbox.js";
import { iso, parseIso } from "./time.js";
import type { AssignUser, Attachment, ConversationRecord, MessageRecord, MessagingChange, MessagingState, TagRecord } from "./types.js";

/*
 * Writes to the inbox after the seed, whoever makes them: the API's routes and the sandbox's
 * simulations of changes made elsewhere (a customer writing in, staff in the web app) go through
 * these, so both move the same fields and tell state.onChange (the webhooks) alike.
 */

export interface MessageDraft {
  id: string;
  from: MessageRecord["from"];
  text: string;
  at: number;
  attachments?: Attachment[];
  parentId?: string;
}

/** Who made a change the histories record: a staff member, or `{id: "", name: "API"}` for the API. */
export interface Editor {
  id: string;
  name: string;
}

export const API_EDITOR: Editor = { id: "", name: "API" };

/** Records a change a write made and tells onChange of it. */
function tell(state: MessagingState, change: MessagingChange): void {
  state.revision = (state.revision ?? 0) + 1;
  state.onChange?.(change);
}

/** Appends a message, never before the conversation's last one, and keeps its page customer in step. */
export function postMessage(state: MessagingState, c: ConversationRecord, draft: MessageDraft): MessageRecord {
  const list = state.messages[c.id] ?? [];
  state.messages[c.id] = list;
  const last = list[list.length - 1];
  const message = buildMessage({ ...draft, conversation: c, at: Math.max(draft.at, last ? parseIso(last.inserted_at) + 1 : 0) });
  appendMessage(list, c, message);
  const customer = state.customers.find((p) => p.page_id === c.page_id && p.psid === c.from.id);
  if (customer) touchCustomer(customer, c);
  tell(state, { type: "message", conversation: c, message });
  tell(state, { type: "conversation", conversation: c });
  return message;
}

/** A new, empty conversation; its first message (postMessage) fills the summary and tells of it. */
export function openConversation(state: MessagingState, n: NewConversation): ConversationRecord {
  const created = buildConversation(n);
  state.conversations.push(created);
  state.messages[created.id] = [];
  return created;
}

/** Adds or removes a tag (nothing when it is already so), recorded in the tag history. */
export function tagConversation(
  state: MessagingState,
  c: ConversationRecord,
  tag: TagRecord,
  action: "add" | "remove",
  editor: Editor,
  at: number,
): void {
  if (c.tags.includes(tag.id) === (action === "add")) return;
  c.tags = action === "add" ? [...c.tags, tag.id] : c.tags.filter((t) => t !== tag.id);
  c.tag_histories.push({
    conversation_id: c.id,
    inserted_at: iso(at),
    payload: { action, editor_id: editor.id, editor_name: editor.name, tag: { id: tag.id, text: tag.text } },
  });
  tell(state, { type: "conversation", conversation: c });
}

/** Sets the assignees, recording who was added and removed. */
export function assignConversation(state: MessagingState, c: ConversationRecord, users: AssignUser[], at: number): void {
  const ids = users.map((u) => u.id);
  const added = users.filter((u) => !c.assignee_ids.includes(u.id));
  const deleted = c.current_assign_users.filter((u) => !ids.includes(u.id));
  c.assignee_ids = ids;
  c.current_assign_users = users;
  if (!added.length && !deleted.length) return;
  c.assignee_histories.push({ conversation_id: c.id, inserted_at: iso(at), payload: { added_users: added, deleted_users: deleted } });
  tell(state, { type: "conversation", conversation: c });
}

/** Marks the conversation read (`seen`) or unread, as staff do in the inbox. */
export function markSeen(state: MessagingState, c: ConversationRecord, seen: boolean): void {
  const unread = seen ? 0 : Math.max(1, c.unread_count);
  if (c.seen === seen && c.unread_count === unread) return;
  c.seen = seen;
  c.unread_count = unread;
  tell(state, { type: "conversation", conversation: c });
}
