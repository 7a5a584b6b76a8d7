import type { Router } from "../server.js";
import { intParam, onPage, orderParam, pageSlice, type RouteContext, required, servedRange, timeRange } from "./guards.js";
import { cut } from "../ordering.js";
import { misbehave } from "../quirks.js";
import { inboxLists } from "./lists.js";
import { within } from "./time.js";
import type { MessagingState, PostRecord } from "./types.js";

/** Posts and call logs: one spec variant says page_size at least 30, the other at most 30. */
const FIXED_PAGE_SIZE = { required: true, min: 30, max: 30 };

/**
 * Post counters are derived, so they stay right after replies are sent: comment_count is the
 * number of messages in the post's comment conversations, phone_number_count the number of
 * those conversations that captured a phone number.
 */
export function postWithCounts(state: MessagingState, post: PostRecord) {
  const threads = inboxLists(state).threadsOfPost.get(post.id);
  return {
    ...post,
    comment_count: threads.reduce((sum, c) => sum + c.message_count, 0),
    phone_number_count: threads.filter((c) => c.has_phone).length,
  };
}

export function registerPageDataRoutes(router: Router, ctx: RouteContext, prefix: string): void {
  const { state } = ctx;
  const base = `${prefix}/public_api/v1/pages/:page_id`;

  onPage(router, ctx, "GET", `${base}/page_customers`, (req, page) => {
    const range = timeRange(req)!;
    const pageNumber = intParam(req, "page_number", { required: true, min: 1 })!;
    const pageSize = intParam(req, "page_size", { min: 1, max: 100 }) ?? 20;
    const view = inboxLists(state).customers(page.id, orderParam(req, "inserted_at"), servedRange(req, range));
    const asked = cut(view, (pageNumber - 1) * pageSize, pageNumber * pageSize);
    const { rows, total } = misbehave(req.quirks, { ...asked, later: pageNumber > 1, first: () => cut(view, 0, pageSize).rows });
    return { total, customers: rows, success: true };
  });

  onPage(
    router,
    ctx,
    "GET",
    `${base}/posts`,
    (req, page) => {
      const range = timeRange(req)!;
      const pageNumber = intParam(req, "page_number", { required: true, min: 1 })!;
      const pageSize = intParam(req, "page_size", FIXED_PAGE_SIZE)!;
      const type = req.query.get("type");
      const list = state.posts
        .filter((p) => p.page_id === page.id && within(p.inserted_at, range) && (!type || p.type === type))
        .sort((a, b) => b.inserted_at.localeCompare(a.inserted_at));
      return { success: true, posts: pageSlice(list, pageNumber, pageSize).map((p) => postWithCounts(state, p)), total: list.length };
    },
    true,
  );

  onPage(router, ctx, "GET", `${base}/sip_call_logs`, (req, page) => {
    const id = required(req, "id");
    const pageNumber = intParam(req, "page_number", { required: true, min: 1 })!;
    const pageSize = intParam(req, "page_size", FIXED_PAGE_SIZE)!;
    const range = timeRange(req, true);
    // The live wording is not documented: a page with no call centre and a wrong id are told apart.
    if (state.sipPackages[page.id] === undefined) return { success: false, message: "This page has no call center (SIP) package registered" };
    if (state.sipPackages[page.id] !== id) return { success: false, message: "Call center package not found for this page" };
    const list = state.callLogs.filter((l) => l.page_id === page.id && (!range || within(l.created_time, range)));
    // The vendor's OpenAPI answers `data` (the seed document `call_logs`): the newer form.
    return { data: pageSlice(list, pageNumber, pageSize), success: true };
  });
}
