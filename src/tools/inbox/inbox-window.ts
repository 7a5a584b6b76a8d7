import { InputError, isOutsideWindow, PancakeError, UpstreamError } from "../../clients/errors.js";
import { sideOf } from "../../format/conversations.js";
import { normalizePhone } from "../../format/phone.js";
import { recordDate, recordTime } from "../../format/time.js";
import { sanitizeName } from "../../text/sanitize.js";
import type { ToolContext } from "../define.js";
import { chatCustomers } from "../pos/chat-customers.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { type Chat, readChat } from "./chat-profile.js";
import { openComment, PRIVATE_REPLY_MAX_AGE_MS, tooOldForPrivateReply } from "./comment-target.js";
import {
  type ConversationFacts,
  findConversation,
  rememberConversations,
  rememberCustomerMessage,
  rememberedConversations,
} from "./conversation-lookup.js";

/**
 * The platform's messaging window, which the inbox relays: a page may message a customer up to 24
 * hours after the customer's last message; past it the send is refused (e_code 10, e_subcode
 * 2018278, reference README). Comments are not under it: a private reply has its own rule (7 days
 * from the comment, send_private_reply).
 */
const WINDOW_MS = 24 * 3_600_000;
/** Messages read when the record's time is past the window: one call, and the customer's last message is nearly always among them. */
const NEWEST = 20;
/** Comment threads of the customer read for one still open to a private reply. */
const COMMENT_THREADS = 2;

export interface InboxTarget {
  page_id: string;
  conversation_id: string;
}

const atMs = (at: string | undefined) => recordDate(at)?.getTime();
const isOpen = (at: string | undefined) => Date.now() - (atMs(at) ?? 0) <= WINDOW_MS;

/**
 * Refuses a message the platform would refuse as outside its window, before any dialog and before
 * anything is sent. The conversation's record says when the customer last wrote (remembered from a
 * list, else looked up as the dialog looks it up, so a confirmed send reads nothing more); a time
 * past the window is checked in the thread itself, as the customer may have written since the
 * record was read. With no time at all, or no record found, the platform decides (refusedByPlatform).
 */
export async function requireOpenWindow(ctx: ToolContext, target: InboxTarget): Promise<void> {
  const facts = await findConversation(ctx.messaging, target.page_id, target.conversation_id).catch(passOn);
  if (!facts || (facts.type !== undefined && facts.type !== "INBOX") || isOpen(facts.last_customer_at)) return;
  const chat = await readChat(ctx.messaging, target.conversation_id, target.page_id, NEWEST).catch(passOn);
  const written = chat?.messages.filter((m) => sideOf(m.from, target.page_id) === "customer").at(-1)?.inserted_at ?? undefined;
  if (written) rememberCustomerMessage(ctx.messaging, target.page_id, target.conversation_id, written);
  const last = (atMs(written) ?? 0) > (atMs(facts.last_customer_at) ?? 0) ? written : facts.last_customer_at;
  if (last === undefined || isOpen(last)) return;
  throw new InputError(
    "conversation_id",
    `the customer last wrote ${recordTime(last, ctx.config.timezone)}, more than 24 hours ago: the platform refuses inbox messages until they write again, so nothing was sent`,
    await otherWays(ctx, target, facts, chat),
  );
}

/** The platform's own refusal (its clock decides in the end), with the same ways forward as requireOpenWindow's. */
export async function refusedByPlatform(ctx: ToolContext, target: InboxTarget, error: unknown): Promise<unknown> {
  if (!(error instanceof UpstreamError) || !isOutsideWindow(error)) return error;
  const facts = await findConversation(ctx.messaging, target.page_id, target.conversation_id).catch(passOn);
  const chat = await readChat(ctx.messaging, target.conversation_id, target.page_id, NEWEST).catch(passOn);
  const { op, api, status, code, subcode, upstreamMessage } = error;
  const hint = `The customer last wrote more than 24 hours ago, so the platform refuses messages. ${await otherWays(ctx, target, facts, chat)}`;
  const refused = new UpstreamError({ op, api, status, code, subcode, upstreamMessage, hint });
  // Word for word: with a page token, text and file go apart, and the message says if the text went.
  refused.message = error.message;
  return refused;
}

/** A failed read only leaves a fact unknown; anything else is a bug and goes on. */
function passOn(error: unknown): undefined {
  if (error instanceof PancakeError) return undefined;
  throw error;
}

/**
 * What the user can do instead, and only that: no tool sends a message tag, so none is offered.
 * A private reply to a recent comment of the customer, the phone the chat captured or their POS
 * record holds, or waiting for them to write.
 */
async function otherWays(ctx: ToolContext, target: InboxTarget, facts: ConversationFacts | undefined, chat: Chat | undefined): Promise<string> {
  const ways: string[] = [];
  const comment = facts && (await commentToAnswer(ctx, target.page_id, facts));
  if (comment) {
    ways.push(
      `answer their comment of ${recordTime(comment.inserted_at, ctx.config.timezone)} privately: send_private_reply with conversation_id ${comment.conversation_id} and comment_id ${comment.id} (once per comment, within 7 days of it)`,
    );
  }
  const phones = await phonesOnRecord(ctx, facts, chat);
  if (phones) ways.push(`call or text them at ${phones.numbers.join(", ")} (${phones.from})`);
  ways.push("wait for them to write again");
  return `Instead, ${ways.join("; or ")}.`;
}

/**
 * The customer's newest comment on the page's posts that can still have its private reply: looked
 * for in their comment threads updated within 7 days (an older thread holds no comment young
 * enough), those remembered, else one page of the page's recent comment threads.
 */
async function commentToAnswer(ctx: ToolContext, pageId: string, person: ConversationFacts) {
  const theirs = (f: ConversationFacts) =>
    (f.type === "COMMENT" || f.type === "COMMENT_LIVESTREAM") &&
    ((person.customer_id !== undefined && f.customer_id === person.customer_id) || (person.psid !== undefined && f.psid === person.psid)) &&
    !tooOldForPrivateReply(f.updated_at);
  let threads = rememberedConversations(ctx.messaging, pageId, theirs);
  if (threads.length === 0) {
    const until = Math.floor(Date.now() / 1000);
    const recent = await ctx.messaging
      .listConversations(pageId, { type: ["COMMENT", "COMMENT_LIVESTREAM"], since: until - PRIVATE_REPLY_MAX_AGE_MS / 1000, until })
      .catch(passOn);
    rememberConversations(ctx.messaging, pageId, recent?.conversations ?? []);
    threads = rememberedConversations(ctx.messaging, pageId, theirs);
  }
  for (const { id, facts } of threads.slice(0, COMMENT_THREADS)) {
    const comment = facts.customer_id === undefined ? undefined : await openComment(ctx, pageId, id, facts.customer_id);
    if (comment) return { conversation_id: id, id: String(comment.id), inserted_at: comment.inserted_at };
  }
  return undefined;
}

/** Phones captured in the chat, else those of the POS customer the chat surely belongs to. */
async function phonesOnRecord(ctx: ToolContext, facts: ConversationFacts | undefined, chat: Chat | undefined) {
  const captured = chat?.phones ?? (facts?.phones ?? []).map((p) => normalizePhone(p)).filter((p): p is string => p !== undefined);
  if (captured.length) return { numbers: captured.slice(0, 3), from: "captured in the chat" };
  if (!chat || Object.keys(ctx.config.posApiKeys).length === 0) return undefined;
  try {
    const { matches } = await chatCustomers(ctx.pos, await resolveShopId(ctx, undefined), chat);
    const sure = matches.find((m) => m.confident);
    const numbers = (sure?.customer.phone_numbers ?? []).map((p) => normalizePhone(String(p ?? ""))).filter((p): p is string => p !== undefined);
    return numbers.length ? { numbers: numbers.slice(0, 3), from: `on their POS record, ${sanitizeName(sure!.customer.name) ?? sure!.customer.id}` } : undefined;
  } catch (error) {
    return passOn(error);
  }
}
