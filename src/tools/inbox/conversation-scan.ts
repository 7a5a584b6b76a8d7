import type { ConversationListParams, MessagingClient } from "../../clients/messaging.js";
import type { Conversation } from "../../clients/schemas/messaging.js";
import type { ReadState } from "../../shop-index/row-index.js";
import { rememberConversations } from "./conversation-lookup.js";

/**
 * The upstream cannot search conversations (no endpoint takes a name, a phone or "who wrote
 * last"), so questions like "Lan's conversations" or "who is waiting for a reply" are answered by
 * reading a page's v2 list, newest activity first, and keeping what matches. The walk is bounded
 * in calls per page and in time, and says how far back it got.
 */

/** Upstream pages of 60 read per page at most: the 600 most recently active conversations. */
export const SCAN_CALLS = 10;
/** Time budget of one scan over all its pages; the page-token limit is 5 calls a second per page. */
export const SCAN_MS = 15_000;
const V2_PAGE = 60;

export interface PageScan {
  /** Conversations a list scan kept, in the list's order (an index scan hands each to its visit instead, keeping none). */
  rows: Conversation[];
  /** Conversations looked at. */
  examined: number;
  /** The list's time (upstream text) of the last conversation looked at, the oldest. */
  oldest: string | undefined;
  /** Every conversation the list holds for the query was looked at. */
  complete: boolean;
  /** Answered from the shop index, brought up to date at this time (ms). */
  asOf?: number;
  /** The index's read of the page is not done yet: how far it got. */
  reading?: ReadState;
}

/**
 * Walks one page's list until it ends, `enough` rows are kept, `calls` pages (default SCAN_CALLS)
 * were read or the deadline passed. Every row read is remembered for later message reads and replies.
 */
export async function scanPage(
  client: MessagingClient,
  pageId: string,
  query: ConversationListParams,
  keep: (c: Conversation) => boolean,
  limits: { enough?: number | undefined; calls?: number; deadline: number; stop?: (c: Conversation) => boolean },
): Promise<PageScan> {
  const scan: PageScan = { rows: [], examined: 0, oldest: undefined, complete: false };
  const seen = new Set<string>();
  const timeOf = (c: Conversation) => (query.order_by === "inserted_at" ? c.inserted_at : c.updated_at);
  let after: string | undefined;
  for (let call = 0; call < (limits.calls ?? SCAN_CALLS) && Date.now() < limits.deadline; call++) {
    const { conversations } = await client.listConversations(pageId, { ...query, ...(after ? { last_conversation_id: after } : {}) });
    rememberConversations(client, pageId, conversations);
    let stopped = false;
    for (const c of conversations) {
      // A conversation that moves to the top while the list is read shows up twice.
      if (seen.has(String(c.id))) continue;
      // Sorted unread first: the first read one ends the unread ones.
      if (limits.stop?.(c)) {
        stopped = true;
        break;
      }
      seen.add(String(c.id));
      scan.examined++;
      scan.oldest = timeOf(c) ?? scan.oldest;
      if (keep(c)) scan.rows.push(c);
    }
    const last = conversations[conversations.length - 1];
    if (stopped || conversations.length < V2_PAGE || !last) {
      scan.complete = true;
      break;
    }
    if (limits.enough !== undefined && scan.rows.length >= limits.enough) break;
    after = String(last.id);
  }
  return scan;
}
