import { z } from "zod";
import { InputError, UpstreamError } from "../../clients/errors.js";
import { original } from "../../clients/call-signal.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { CallLog } from "../../clients/schemas/messaging.js";
import { num } from "../../format/compact.js";
import { sanitizeName } from "../../format/text.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { idInput } from "../inputs.js";
import { PAGE_SIZE, pagedInput, pagedOutput, readPaged, spanQuery } from "./paging.js";

const NAME = "list_call_logs";

/**
 * The call-log endpoint wants the id of the page's call-centre (SIP) package, and nothing in
 * the messaging API lists it: neither the page list (the OpenAPI's Page is id, platform, name,
 * avatar_url; the seed document leaves it "not shown") nor page settings or users. So the user
 * has to look it up once; the id that worked for a page is remembered for the next calls.
 */
const LOOK_UP =
  "Ask the user for the id of this page's call-centre (SIP) package, shown in the call-centre settings of the Pancake inbox web app (no API lists it), and pass it as subscription_id; later calls for the page may omit it.";
/** Kept in the shared client's scope, not a call's view of it (call-signal.ts), so the next call finds it. */
function remembered(view: MessagingClient): Map<string, string> {
  return original(view).state.local("call-packages", () => new Map<string, string>());
}

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

export const listCallLogs = defineTool({
  name: NAME,
  title: "List call logs",
  description: "A page's call-centre calls: direction, phone, staff, answered or missed, duration, recording.",
  toolset: "page_data",
  annotations: READ,
  input: z.object({
    ...pagedInput(30, 20),
    subscription_id: idInput("Call-centre (SIP) package id; once per page").optional(),
  }),
  output: z.object({ calls: z.array(z.looseObject({ phone_number: z.string().optional(), started_at: z.string().optional() })), ...pagedOutput }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const known = remembered(ctx.messaging);
    const id = input.subscription_id ?? known.get(input.page_id);
    if (!id && !input.cursor) throw new InputError("subscription_id", `is needed for page ${input.page_id} and not known yet`, LOOK_UP);
    try {
      const { rows, ...page } = await readPaged(
        NAME,
        input,
        () => ({ id: id!, ...spanQuery(input, tz) }),
        (query) => ctx.messaging.listCallLogs(input.page_id, query).then((calls) => ({ rows: calls })),
        (c) => callRow(c, tz),
        PAGE_SIZE,
      );
      if (id) known.set(input.page_id, id);
      return { calls: rows, ...page };
    } catch (error) {
      // A refusal of the id itself (the upstream answers success:false) says what to look up.
      if (error instanceof UpstreamError && error.status === undefined && error.code !== 102 && id) {
        if (known.get(input.page_id) === id) known.delete(input.page_id);
        const { op, api, code, upstreamMessage } = error;
        throw new UpstreamError({ op, api, code, upstreamMessage, hint: `Check subscription_id ${id}. ${LOOK_UP}` });
      }
      throw error;
    }
  },
});
