import type { Router, SandboxRequest } from "../server.js";
import {
  badParams,
  conversationOf,
  intParam,
  listParam,
  onPage,
  orderParam,
  type RouteContext,
  servedRange,
  timeRange,
  userPage,
} from "./guards.js";
import { assignUser } from "./messages.js";
import { cut, listView, type View, walk } from "../ordering.js";
import { misbehave } from "../quirks.js";
import { inboxLists } from "./lists.js";
import { API_EDITOR, assignConversation, markSeen, tagConversation } from "./writes.js";
import { parseIso, type Range } from "./time.js";
import type { ConversationRecord } from "./types.js";

const V2_PAGE = 60;
const COUNT_FIRST = 60;
const COUNT_STEP = 40;
const MESSAGES_FIRST = 20;
const MESSAGES_STEP = 30;
/** The later v1 list refuses spans longer than one month; taken as 31 days. */
export const MAX_SPAN_SECONDS = 31 * 86_400;

/** `tags=1,2` keeps conversations carrying any of them; `ALL` keeps those with any tag; undefined when none is asked. */
function tagFilter(req: SandboxRequest): ((c: ConversationRecord) => boolean) | undefined {
  const wanted = listParam(req, "tags");
  if (wanted.length === 0) return undefined;
  if (wanted.some((t) => t.toUpperCase() === "ALL")) return (c) => c.tags.length > 0;
  return (c) => c.tags.some((t) => wanted.includes(String(t)));
}

/** The unread ones first, each part in the view's order (the list's unread_first). */
function unreadFirst(view: View<ConversationRecord>): View<ConversationRecord> {
  const unread: ConversationRecord[] = [];
  const read: ConversationRecord[] = [];
  for (let i = 0; i < view.length; i++) {
    const c = view.at(i);
    (c.seen ? read : unread).push(c);
  }
  return listView([...unread, ...read]);
}

/** A list in its order with the rows whose last update falls in `range` (the range_by_update quirk). */
function rangedByUpdate(view: View<ConversationRecord>, range: Range | undefined): View<ConversationRecord> {
  const kept: ConversationRecord[] = [];
  for (let i = 0; i < view.length; i++) {
    const c = view.at(i);
    if (!range || (parseIso(c.updated_at) >= range.from && parseIso(c.updated_at) <= range.to)) kept.push(c);
  }
  return listView(kept);
}

export function registerConversationRoutes(router: Router, ctx: RouteContext, prefix: string): void {
  const conv = `${prefix}/public_api/v1/pages/:page_id/conversations/:conversation_id`;
  const lists = inboxLists(ctx.state);

  // order_by is the vendor OpenAPI's (the seed document has the v2 list by last update only).
  onPage(router, ctx, "GET", `${prefix}/public_api/v2/pages/:page_id/conversations`, (req, page) => {
    const range = timeRange(req, true);
    const orderBy = orderParam(req, "updated_at");
    const types = listParam(req, "type");
    const posts = listParam(req, "post_ids");
    const tags = tagFilter(req);
    const keep = (c: ConversationRecord) =>
      (!tags || tags(c)) && (types.length === 0 || types.includes(c.type)) && (posts.length === 0 || posts.includes(c.post_id ?? ""));
    const served = servedRange(req, range);
    const byUpdate = req.quirks?.rangeByUpdate && orderBy === "inserted_at";
    const newest = byUpdate ? rangedByUpdate(lists.conversations(page.id, orderBy), served) : lists.conversations(page.id, orderBy, served);
    const view = req.query.get("unread_first") === "true" ? unreadFirst(newest) : newest;
    // The page after the cursor (none when the cursor is not in the list), read no further than it.
    const cursor = req.query.get("last_conversation_id");
    const first = () => walk(view, 0, V2_PAGE, keep);
    if (!cursor) return { conversations: first(), success: true };
    const after = lists.conversationById.get(cursor)[0];
    const at = after && keep(after) ? view.indexOf(after) : -1;
    const { rows } = misbehave(req.quirks, { rows: at < 0 ? [] : walk(view, at + 1, V2_PAGE, keep), later: true, first });
    return { conversations: rows, success: true };
  });

  onPage(router, ctx, "GET", `${prefix}/public_api/v1/pages/:page_id/conversations`, (req, page) => {
    const range = timeRange(req)!;
    if (range.to - range.from > MAX_SPAN_SECONDS * 1000 + 999) throw badParams("The time range must not exceed one month");
    const pageNumber = intParam(req, "page_number", { required: true, min: 1 })!;
    const view = lists.conversations(page.id, orderParam(req, "inserted_at"), servedRange(req, range));
    const keep = tagFilter(req);
    const asked = cut(view, (pageNumber - 1) * V2_PAGE, pageNumber * V2_PAGE, { keep });
    const { rows, total } = misbehave(req.quirks, { ...asked, later: pageNumber > 1, first: () => cut(view, 0, V2_PAGE, { keep }).rows });
    return { conversations: rows, success: true, total };
  });

  // The oldest list: under /api/v1, so it takes the user token only (like every /api/v1 route).
  router.on(
    "GET",
    `${prefix}/v1/pages/:page_id/conversations`,
    (req) => {
      const target = userPage(ctx, req);
      const count = intParam(req, "current_count", { min: 0 });
      const from = count === undefined ? 0 : Math.max(0, count - 1);
      const [view, keep] = [lists.conversations(target.id, "updated_at"), tagFilter(req)];
      const { rows } = cut(view, from, from + (count === undefined ? COUNT_FIRST : COUNT_STEP), { keep });
      const first = () => cut(view, 0, COUNT_FIRST, { keep }).rows;
      return { success: true, conversations: misbehave(req.quirks, { rows, later: (count ?? 0) > 0, first }).rows };
    },
    { rateKey: (req) => req.params.page_id },
  );

  onPage(router, ctx, "GET", `${conv}/messages`, (req, page) => {
    const c = conversationOf(ctx, page, req.params.conversation_id);
    const count = intParam(req, "current_count", { min: 0 });
    const newestFirst = [...(ctx.state.messages[c.id] ?? [])].reverse();
    const slice = count === undefined ? newestFirst.slice(0, MESSAGES_FIRST) : newestFirst.slice(count, count + MESSAGES_STEP);
    // The OpenAPI's MessagesResponse: the customer's profile with the ids and phones the inbox
    // holds (the page customer's numbers, and those caught in this conversation's messages).
    const profile = lists.pageCustomer.get(`${page.id}/${c.from.id}`)[0];
    const caught = [...new Set(c.recent_phone_numbers.map((p) => p.phone_number))];
    return {
      success: true,
      conversation_id: c.id,
      messages: slice.reverse(),
      conv_from: c.from,
      customers: c.customers.map((x) => ({
        ...x,
        customer_id: c.customer_id,
        global_id: profile?.global_id ?? null,
        recent_phone_numbers: (profile?.phone_numbers ?? []).map((phone_number) => ({ phone_number })),
        shop_customer_addresses: profile?.shop_customer_addresses ?? [],
      })),
      recent_phone_numbers: profile?.phone_numbers ?? [],
      conv_phone_numbers: caught,
      can_inbox: c.type === "INBOX",
    };
  });

  onPage(router, ctx, "POST", `${conv}/tags`, (req, page) => {
    const c = conversationOf(ctx, page, req.params.conversation_id);
    const body = (req.body ?? {}) as { action?: unknown; tag_id?: unknown };
    if (body.action !== "add" && body.action !== "remove") throw badParams("action must be add or remove");
    const tag = ctx.state.tags[page.id]?.find((t) => String(t.id) === String(body.tag_id ?? ""));
    if (!tag) throw badParams("tag_id is not a tag of this page");
    const now = ctx.clock();
    tagConversation(ctx.state, c, tag, body.action, API_EDITOR, now);
    return { data: c.tags, success: true, timestamp: Math.floor(now / 1000) };
  });

  // The seed's earlier GET form of the same operation is not served: the OpenAPI documents POST.
  onPage(router, ctx, "POST", `${conv}/assign`, (req, page) => {
    const c = conversationOf(ctx, page, req.params.conversation_id);
    const fromBody = (req.body as { assignee_ids?: unknown } | undefined)?.assignee_ids;
    if (!Array.isArray(fromBody)) throw badParams("assignee_ids is required");
    const users = fromBody.map(String).map((id) => {
      const user = ctx.state.staff.find((s) => s.id === id && s.page_ids.includes(page.id) && !s.disabled_page_ids.includes(page.id));
      if (!user) throw badParams(`assignee ${id} is not an active user of this page`);
      return assignUser(user);
    });
    assignConversation(ctx.state, c, users, ctx.clock());
    return { ...c, success: true };
  });

  onPage(router, ctx, "POST", `${conv}/read`, (req, page) => {
    markSeen(ctx.state, conversationOf(ctx, page, req.params.conversation_id), true);
    return { success: true };
  });
  onPage(router, ctx, "POST", `${conv}/unread`, (req, page) => {
    markSeen(ctx.state, conversationOf(ctx, page, req.params.conversation_id), false);
    return { success: true };
  });
}
