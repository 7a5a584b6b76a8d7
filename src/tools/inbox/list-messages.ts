import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { Message } from "../../clients/schemas/messaging.js";
import { messageRow } from "../../format/conversations.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, idInput, limitInput, pageIdInput } from "../inputs.js";
import { findConversation } from "./conversation-lookup.js";
import { conversationIdInput } from "./send-shared.js";

const NAME = "list_messages";
/** Without a position the list holds the 20 newest; later steps hold 25 or 30 (by variant). */
const FIRST_PAGE = 20;
const SMALLEST_STEP = 25;
const MAX_UPSTREAM_CALLS = 6;

const stateSchema = z.object({ customer: z.string(), passed: z.number().int().min(0) });

export interface MessageWindow {
  /** Oldest first. */
  messages: Message[];
  /** Messages passed from the newest, to continue with older ones; undefined at the start of the thread. */
  passed: number | undefined;
  /** The rest of the first answer: the customer's profile and captured phones (the OpenAPI's MessagesResponse). */
  context: Record<string, unknown>;
}

/**
 * The `limit` messages older than the `passed` newest ones. current_count is a position, so any
 * offset works and the window never skips or repeats a message while the thread is unchanged.
 */
export async function readMessages(
  client: MessagingClient,
  pageId: string,
  conversationId: string,
  customerId: string,
  passed: number,
  limit: number,
  onPage?: (count: number) => Promise<void>,
): Promise<MessageWindow> {
  const newestFirst: Message[] = [];
  const seen = new Set<string>();
  let position = passed;
  let ended = false;
  let context: Record<string, unknown> | undefined;
  for (let call = 0; !ended && newestFirst.length < limit && call < MAX_UPSTREAM_CALLS; call++) {
    const { messages, ...rest } = await client.listMessages(pageId, conversationId, {
      customer_id: customerId,
      ...(position > 0 ? { current_count: position } : {}),
    });
    context ??= rest;
    ended = messages.length < (position > 0 ? SMALLEST_STEP : FIRST_PAGE);
    const batch = [...messages].reverse();
    let used = 0;
    for (const m of batch) {
      if (newestFirst.length >= limit) break;
      used++;
      if (seen.has(String(m.id))) continue;
      seen.add(String(m.id));
      newestFirst.push(m);
    }
    position += used;
    if (used < batch.length) ended = false;
    await onPage?.(newestFirst.length);
  }
  return { messages: newestFirst.reverse(), passed: ended ? undefined : position, context: context ?? {} };
}

export const listMessages = defineTool({
  name: NAME,
  title: "List messages",
  description:
    "A conversation's newest messages, oldest first; next_cursor goes back. Read before replying.",
  toolset: "inbox",
  annotations: READ,
  input: z.object({
    page_id: pageIdInput,
    conversation_id: conversationIdInput,
    customer_id: idInput("Raw record's customer_id; else looked up").optional(),
    limit: limitInput(100, 20),
    cursor: cursorInput,
  }),
  output: z.object({
    conversation_id: z.string(),
    messages: z.array(z.looseObject({ id: z.string(), from: z.string().optional(), text: z.string().optional() })),
    total: z.number().optional(),
    next_cursor: z.string().optional(),
  }),
  async handler(input, ctx) {
    // The cursor is signed together with page_id and conversation_id (cursor.ts): one of another conversation never decodes.
    const state = input.cursor ? decodeCursor(NAME, input, stateSchema) : undefined;
    const customer =
      state?.customer ?? input.customer_id ?? (await findConversation(ctx.messaging, input.page_id, input.conversation_id)).customer_id;
    if (!customer) {
      throw new InputError("customer_id", "the conversation record names no customer", 'Pass customer_id from its list_conversations record (detail "full").');
    }
    const window = await readMessages(ctx.messaging, input.page_id, input.conversation_id, customer, state?.passed ?? 0, input.limit, (n) =>
      ctx.progress(n, input.limit),
    );
    const rowCtx = { pageId: input.page_id, timeZone: ctx.config.timezone };
    return {
      conversation_id: input.conversation_id,
      messages: window.messages.map((m) => messageRow(m, rowCtx)),
      // From the newest back to the thread's first message: every message is here.
      total: state === undefined && window.passed === undefined ? window.messages.length : undefined,
      next_cursor:
        window.passed === undefined ? undefined : encodeCursor(NAME, input, { customer, passed: window.passed }),
    };
  },
});
