import { z } from "zod";
import { cursorInput, dateInput, detailRowsInput, idInput, jsonish, limitInput, sinceInput, untilInput } from "../inputs.js";
import { pageIdsInput } from "../pages/page-refs.js";
import { ascendingInput } from "../rank.js";

// list_conversations' parameters, in a module of their own: the tool (list-conversations.ts) hands
// a call to its search (conversation-search.ts) or its grouping (conversation-groups.ts), which
// read them, so none of the three imports another back.

export const GROUP_KEYS = ["page", "type", "tag", "assignee", "day", "post", "ad"] as const;

/** The longest span the page-number list (the one with a total) takes: "one month", which the service counts as 31 days. */
export const PAGED_SPAN_DAYS = 31;

/** list_conversations' largest limit: 50 rows are about 5,900 tokens, more crowd a model's context for little gain. */
export const LIMIT_MAX = 50;

const tagsInput = jsonish(z.array(z.union([z.string().max(100), z.number()])).max(20))
  .optional()
  .describe('Tag ids or names; ["ALL"]: any tagged');

export const listConversationsInput = z.object({
  page_ids: pageIdsInput,
  customer: z.string().trim().min(1).max(100).optional().describe("Name, phone or POS customer id"),
  awaiting_reply: z.boolean().optional().describe("Customer wrote last, longest wait first (rows: last 7 days unless since or waiting_minutes)"),
  waiting_minutes: z.number().int().min(0).optional().describe("Awaiting reply ≥ N minutes"),
  // A boolean, as unread: false is refused by the tool (list-conversations.ts).
  with_open_orders: z.boolean().optional().describe("Customer has an undelivered order (rows show it)"),
  ordered: z.boolean().optional().describe("Customer bought (true) or never did (false)"),
  ordered_since: dateInput.optional().describe('From a date, or "chat" (its start)'),
  conversion_days: z.number().int().min(1).max(365).optional().describe("Per group: chats ordering within N days of starting, rate, value"),
  type: jsonish(z.array(z.enum(["INBOX", "COMMENT", "COMMENT_LIVESTREAM", "RATING"])).max(4))
    .optional()
    .describe("Only these"),
  tags: tagsInput,
  post_id: idInput("Only this post's comments").optional(),
  unread_first: z.boolean().optional().describe("Unread first"),
  // A boolean, as every function-calling dialect takes: false is refused by the tool (list-conversations.ts).
  unread: z.boolean().optional().describe("true: only unread ones"),
  since: sinceInput,
  until: untilInput,
  time_field: z
    .enum(["updated", "created", "customer"])
    .optional()
    .describe("since/until of: updated = last activity (default), customer = their last message"),
  group_by: jsonish(z.array(z.enum(GROUP_KEYS)).min(1).max(2)).optional().describe("Counts per group over every match, no rows"),
  ascending: ascendingInput,
  with_total: z.boolean().optional().describe(`Count matches (one page, ≤${PAGED_SPAN_DAYS} days)`),
  limit: limitInput(LIMIT_MAX, 20),
  cursor: cursorInput,
  detail: detailRowsInput,
});
export type ListConversationsInput = z.output<typeof listConversationsInput>;
