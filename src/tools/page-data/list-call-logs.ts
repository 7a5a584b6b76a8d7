import { z } from "zod";
import { InputError, UpstreamError } from "../../clients/errors.js";
import { original } from "../../clients/call-signal.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { CallLog } from "../../clients/schemas/messaging.js";
import { num } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ, type ToolContext } from "../define.js";
import { cursorInput, idInput, sinceInput, totalsLimitInput, untilInput } from "../inputs.js";
import { eachPage } from "../page-stats/fan-out.js";
import { pagesLeftOut, pagesLeftOutSchema } from "../pages/coverage.js";
import { pageIdsInput } from "../pages/page-refs.js";
import { addTotals, type CallOutcome, callTotalsSchema, type Counted, countCalls, noCalls, pagesOnce } from "./call-totals.js";
import { cursorPage, PAGE_SIZE, pagedOutput, readPaged, spanQuery } from "./paging.js";

const NAME = "list_call_logs";

/**
 * The call-log endpoint wants the id of the page's call-centre (SIP) package, and nothing in
 * the messaging API lists it: neither the page list (the OpenAPI's Page is id, platform, name,
 * avatar_url; the seed document leaves it "not shown") nor page settings or users. So the ids come
 * from PANCAKE_CALL_CENTER_IDS, or once from the user (subscription_id), and the id that worked
 * for a page is remembered for the next calls.
 */
const SETTING =
  "If the page has a call centre, its package id is shown in the call-centre settings of the Pancake inbox web app (no API lists it): add it to PANCAKE_CALL_CENTER_IDS (page_id=id,...), or pass it once as subscription_id. A page without a call centre has no calls to list.";

/** Kept in the shared client's scope, not a call's view of it (call-signal.ts), so the next call finds it. */
function remembered(view: MessagingClient): Map<string, string> {
  return original(view).state.local("call-packages", () => new Map<string, string>());
}

/**
 * The upstream's word that the page has no call centre at all, as opposed to a wrong package id
 * ("package not found"). The live wording is not documented; these are the forms it takes in the
 * sandbox and in Vietnamese.
 */
const NO_CALL_CENTER = /no call.?cent(?:er|re)|not registered|chưa (?:đăng ký|có) tổng đài/i;

const seconds = (from: string | undefined, to: string | undefined) =>
  from && to ? Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000)) : undefined;

/**
 * The seed document's record (direction, phone_number, created/answered/hangup times) or the
 * vendor OpenAPI's (caller, callee, start_time, duration, status), whichever the answer holds.
 */
function callRow(c: CallLog, tz: string) {
  const extra = c as CallLog & { caller?: unknown; callee?: unknown; start_time?: unknown; duration?: unknown; status?: unknown };
  const started = recordTime(c.created_time ?? extra.start_time, tz);
  const answeredAt = recordTime(c.answered_time, tz);
  const ended = recordTime(c.hangup_time, tz);
  const status = typeof extra.status === "string" ? extra.status : undefined;
  // The customer's number; without it, both ends as the OpenAPI gives them.
  const phone = c.phone_number ?? undefined;
  return {
    direction: c.direction ?? undefined,
    phone_number: phone,
    caller: phone ? undefined : sanitizeName(extra.caller),
    callee: phone ? undefined : sanitizeName(extra.callee),
    employee_name: sanitizeName(c.employee_name),
    status,
    answered: c.answered_time !== undefined ? c.answered_time !== null : status === undefined ? undefined : status !== "missed",
    started_at: started,
    talk_seconds: seconds(answeredAt, ended) ?? num(extra.duration),
    ring_seconds: seconds(started, answeredAt ?? ended),
    record_file: c.record_file ?? undefined,
  };
}

type CallRow = ReturnType<typeof callRow> & { page_id?: string };

/** A call the shop missed: one that came in and nobody answered (an unanswered outbound call is the customer's miss). */
function outcomeOf(c: CallLog): CallOutcome {
  const row = callRow(c, "UTC");
  if (row.answered !== false) return "answered";
  return row.direction === "outbound" ? "unanswered_outgoing" : "missed";
}
const isMissed = (c: CallLog) => outcomeOf(c) === "missed";

/** A missed-calls search reads up to this many pages of 30 per shop page (300 calls, newest first). */
const MISSED_CALLS = 10;

const input = z.object({
  page_ids: pageIdsInput,
  since: sinceInput,
  until: untilInput,
  missed: z.boolean().optional().describe("Unanswered incoming calls only"),
  // "How many did we miss" wants the totals, not rows to count: limit 0 asks for them alone.
  limit: totalsLimitInput(30, 20),
  cursor: cursorInput,
  subscription_id: idInput("Call-centre id of the one page").optional(),
});
type Input = z.output<typeof input>;

/** The package id known for a page: given now, configured, or one that worked before. */
function packageOf(input: Input, ctx: ToolContext, pageId: string): string | undefined {
  return (input.page_ids.length === 1 ? input.subscription_id : undefined) ?? ctx.config.callCenterIds[pageId] ?? remembered(ctx.messaging).get(pageId);
}

/**
 * One page's calls, `limit` at a time with a cursor; a first call with since/until also counts
 * every call of the range (call-totals.ts). A refused package id says what to do.
 */
async function pageCalls(input: Input, ctx: ToolContext, pageId: string, id: string | undefined, cursor: string | undefined) {
  const tz = ctx.config.timezone;
  const known = remembered(ctx.messaging);
  const read = pagesOnce((query) => ctx.messaging.listCallLogs(pageId, query));
  const span = spanQuery(input, tz);
  const query = { id: id!, ...span };
  const counting = cursor === undefined && (input.since !== undefined || input.until !== undefined);
  try {
    // limit 0 asks for the totals alone: no row is read for them.
    const listed: Promise<{ rows: CallRow[]; total?: number; next_cursor?: string }> =
      input.limit === 0
        ? Promise.resolve({ rows: [] })
        : readPaged(
            NAME,
            { page_id: pageId, cursor, limit: input.limit },
            () => query,
            (q) => read(q).then((calls) => ({ rows: calls })),
            (c): CallRow => callRow(c, tz),
            // The tool takes several pages, so its cursor names its page inside (checked against page_ids).
            { pageSize: PAGE_SIZE, bound: {}, ...(input.missed ? { keep: isMissed, maxCalls: MISSED_CALLS } : {}) },
          );
    const [page, counted] = await Promise.all([listed, counting ? countCalls(read, query, outcomeOf) : undefined]);
    if (id) known.set(pageId, id);
    // A first call whose list ended holds every match; a complete count knows them too.
    const total = counted?.complete
      ? counted.totals[input.missed ? "missed" : "calls"]
      : input.limit > 0 && cursor === undefined && page.next_cursor === undefined
        ? page.rows.length
        : undefined;
    return { ...page, total, counted };
  } catch (error) {
    // A refusal of the id itself (the upstream answers success:false) says what to do.
    if (error instanceof UpstreamError && error.status === undefined && error.code !== 102 && id) {
      if (known.get(pageId) === id) known.delete(pageId);
      const { op, api, code, upstreamMessage } = error;
      const none = NO_CALL_CENTER.test(upstreamMessage ?? "");
      const hint = none
        ? `Page ${pageId} has no call centre, so it has no calls to list; do not ask for another id.`
        : `Check the call-centre package id ${id} of page ${pageId}. ${SETTING}`;
      throw new UpstreamError({ op, api, code, upstreamMessage, hint });
    }
    throw error;
  }
}

/** What the count says: totals, and when it stopped short, how far back it got. */
function countOut(counted: Counted | undefined, tz: string) {
  if (!counted) return {};
  return { totals: counted.totals, complete: counted.complete, counted_back_to: counted.complete ? undefined : recordTime(counted.oldest, tz) };
}

const UNCOUNTED = "totals (missed among them) need since/until";

export const listCallLogs = defineTool({
  name: NAME,
  title: "List call logs",
  description:
    "Call-centre calls, newest first: phone, staff, answered, duration, recording; with since/until, totals of the whole range, whatever limit (missed among them). Missed today: since \"today\", missed true.",
  toolset: "page_data",
  annotations: READ,
  input,
  output: z.object({
    calls: z.array(z.looseObject({ phone_number: z.string().optional(), started_at: z.string().optional() })),
    ...pagedOutput,
    totals: callTotalsSchema.optional(),
    complete: z.boolean().optional(),
    counted_back_to: z.string().optional(),
    pages: z.array(z.looseObject({ page_id: z.string(), page_name: z.string().optional() })).optional(),
    truncated: z.boolean().optional(),
    pages_without_call_center: z.array(z.string()).optional(),
    pages_left_out: pagesLeftOutSchema,
    note: z.string().optional(),
  }),
  // Several pages' calls are merged into one answer, which no cursor continues.
  uncursored: (input) => input.cursor === undefined && input.page_ids.length !== 1,
  async handler(input, ctx) {
    if (input.limit === 0 && (input.cursor !== undefined || (input.since === undefined && input.until === undefined))) {
      const field = input.cursor === undefined ? "since" : "cursor";
      throw new InputError("limit", `0 asks for the totals of a range alone: ${field === "since" ? "they need since/until" : "a cursor continues rows"}`, field === "since" ? 'Pass since (e.g. "this week"), or a limit above 0.' : "Drop cursor, or pass a limit above 0.");
    }
    const ids = new Map(input.page_ids.map((pageId) => [pageId, packageOf(input, ctx, pageId)]));
    const continued = input.cursor === undefined ? undefined : cursorPage(NAME, input.cursor);
    if (continued !== undefined && !input.page_ids.includes(continued)) {
      throw new InputError("cursor", `belongs to page ${continued}, not to page_ids`, "Pass the same page_ids as the call that returned it, or omit page_ids.");
    }
    const one = continued ?? (input.page_ids.length === 1 ? input.page_ids[0] : undefined);
    if (one !== undefined) {
      if (!ids.get(one) && !input.cursor) throw new InputError("subscription_id", `no call-centre package id is known for page ${one}`, SETTING);
      const { rows, counted, ...page } = await pageCalls(input, ctx, one, ids.get(one), input.cursor);
      const notes = [
        input.missed && page.next_cursor ? "more missed calls may follow: pass next_cursor" : "",
        !counted && page.total === undefined && !input.cursor ? UNCOUNTED : "",
        counted && !counted.complete ? "counted back to counted_back_to only: narrow since/until" : "",
      ].filter(Boolean);
      return { calls: rows, ...page, ...countOut(counted, ctx.config.timezone), note: notes.length ? notes.join("; ") : undefined };
    }
    if (input.subscription_id) throw new InputError("subscription_id", "belongs to one page", "Name that page alone in page_ids.");
    const withIds = input.page_ids.filter((pageId) => ids.get(pageId));
    const without = input.page_ids.filter((pageId) => !ids.get(pageId)).map((pageId) => ctx.messaging.pageName(pageId) ?? pageId);
    if (withIds.length === 0) throw new InputError("page_ids", "no call-centre package id is known for any of these pages", SETTING);
    const tz = ctx.config.timezone;
    const perPage = await eachPage(ctx, withIds, "call logs", async (pageId) => ({ pageId, ...(await pageCalls(input, ctx, pageId, ids.get(pageId), undefined)) }));
    const all = perPage.flatMap((p) => p.rows.map((row): CallRow => ({ ...row, page_id: p.pageId })));
    all.sort((a, b) => Date.parse(b.started_at ?? "") - Date.parse(a.started_at ?? ""));
    const truncated = all.length > input.limit || perPage.some((p) => p.next_cursor !== undefined);
    const counts = perPage.flatMap((p) => (p.counted ? [p.counted] : []));
    const counted = counts.length === perPage.length;
    const complete = counted && counts.every((c) => c.complete);
    const totals = perPage.map((p) => p.total);
    return {
      calls: all.slice(0, input.limit),
      total: totals.every((t) => t !== undefined) ? totals.reduce((a, b) => a + b, 0) : undefined,
      totals: counted ? counts.reduce((sum, c) => addTotals(sum, c.totals), noCalls()) : undefined,
      complete: counted ? complete : undefined,
      pages: counted
        ? perPage.map((p) => ({ page_id: p.pageId, page_name: ctx.messaging.pageName(p.pageId), ...countOut(p.counted, tz) }))
        : undefined,
      truncated: truncated || undefined,
      pages_without_call_center: without.length ? without : undefined,
      pages_left_out: await pagesLeftOut(ctx, input.page_ids),
      note: [
        truncated ? "more calls than shown: narrow since/until, or name one page for a cursor" : "",
        counted ? (complete ? "" : "pages with complete:false were counted back to counted_back_to only") : UNCOUNTED,
      ]
        .filter(Boolean)
        .join("; ") || undefined,
    };
  },
});
