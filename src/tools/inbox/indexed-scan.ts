import type { ConversationListParams } from "../../clients/messaging.js";
import type { Conversation } from "../../clients/schemas/messaging.js";
import { recordDate } from "../../format/time.js";
import { IndexFull, type IndexView, type Need } from "../../shop-index/row-index.js";
import { OPEN } from "../../shop-index/spans.js";
import { readBy, type ToolContext } from "../define.js";
import type { PageScan } from "./conversation-scan.js";

/**
 * A page's scan answered from the shop index: every conversation the v2 list would serve for the
 * query, not only the latest few hundred. The index is brought up to date first (a request a page
 * when warm). `build` false uses it only when it already holds the span asked (a customer search
 * is answered from the latest conversations rather than wait for a first read of a big page).
 * Tags, assignment and read state change without moving a conversation's update time, so the
 * index never answers for them: undefined then, and the caller reads the list. A first read of a
 * big page outlasts the call: it answers by the call's deadline with what was read, not complete.
 * `visit` takes each match as it is found (in no order), none kept: a page may hold tens of
 * thousands; `ready` is what `keep` needs first (the shop's orders brought up to date), awaited once
 * the page is.
 */
export async function indexedScan(
  ctx: ToolContext,
  pageId: string,
  query: ConversationListParams,
  keep: (c: Conversation) => boolean,
  build: boolean,
  then: { visit: (c: Conversation) => void; ready?: Promise<unknown> | undefined },
): Promise<PageScan | undefined> {
  if (!ctx.index || query.tags !== undefined || query.unread_first) return undefined;
  const field = query.order_by === "inserted_at" ? "inserted_at" : "updated_at";
  // The chats begun in a span are read by creation: those active since its start are many more (a month's new chats are about 60% of those active since, at 100x the demo).
  const need: Need = field === "inserted_at" && query.since !== undefined ? { inserted: [query.since, query.until ?? OPEN] } : (query.since ?? null);
  const index = ctx.index.conversations(pageId);
  if (!build && !(await index.holds(need))) return undefined;
  let view: IndexView<Conversation>;
  try {
    view = await index.view(ctx.messaging, need, (done, total) => ctx.progress(done, total, `conversations of page ${pageId} read: ${done}`), readBy(ctx));
  } catch (error) {
    if (error instanceof IndexFull) return undefined;
    throw error;
  }
  await then.ready;
  const types = query.type?.length ? new Set<string>(query.type) : undefined;
  const posts = query.post_ids?.length ? new Set(query.post_ids) : undefined;
  const [from, to] = [query.since === undefined ? undefined : query.since * 1000, query.until === undefined ? undefined : query.until * 1000 + 999];
  const listed = (c: Conversation) => {
    if (types && !types.has(String(c.type))) return false;
    if (posts && !posts.has(String(c.post_id ?? ""))) return false;
    const at = recordDate(c[field])?.getTime();
    return from === undefined || (at !== undefined && at >= from && at <= (to ?? Number.POSITIVE_INFINITY));
  };
  let examined = 0;
  const range = { by: field === "inserted_at" ? "inserted" : "updated", from: query.since, to: query.until } as const;
  for (const c of view.select(range)) {
    if (!listed(c)) continue;
    examined++;
    if (keep(c)) then.visit(c);
  }
  // A read not done yet: what it read so far, every conversation active (begun, read by creation) since back_to.
  const back = view.partial?.backTo;
  const oldest = back === undefined ? undefined : new Date(back * 1000).toISOString().slice(0, 19);
  return { rows: [], examined, oldest, complete: !view.partial, asOf: view.asOf, reading: view.partial };
}
