import { z } from "zod";
import { fullRecord } from "../../format/conversations.js";
import { sanitizeName } from "../../format/text.js";
import { parseRange, recordTime, toUnix } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailInput, idInput, limitInput, pageIdInput, sinceInput, untilInput } from "../inputs.js";
import { readPaged } from "./paging.js";

const NAME = "list_call_logs";

const seconds = (from: string | undefined, to: string | undefined) =>
  from && to ? Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000)) : undefined;

export const listCallLogs = defineTool({
  name: NAME,
  title: "List call logs",
  description:
    "A page's call-center calls, newest first: direction, phone, staff, answered or missed, talk time, recording. Example: missed calls yesterday.",
  toolset: "page_data",
  annotations: READ,
  input: z.object({
    page_id: pageIdInput,
    subscription_id: idInput("Call-center subscription id (inbox call settings)"),
    since: sinceInput,
    until: untilInput,
    limit: limitInput(30, 20),
    cursor: cursorInput,
    detail: detailInput,
  }),
  output: z.object({
    calls: z.array(z.looseObject({ phone_number: z.string().optional(), started_at: z.string().optional() })),
    next_cursor: z.string().optional(),
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const page = await readPaged(
      NAME,
      input.page_id,
      input,
      () => {
        if (input.since === undefined && input.until === undefined) return { id: input.subscription_id };
        const range = parseRange(input.since, input.until, tz);
        return { id: input.subscription_id, since: toUnix(range.since), until: toUnix(range.until) };
      },
      async (query) => ({ rows: await ctx.messaging.listCallLogs(input.page_id, query) }),
    );
    return {
      calls: page.rows.map((c) => {
        if (input.detail === "full") return fullRecord(c);
        const started = recordTime(c.created_time, tz);
        const answered = recordTime(c.answered_time, tz);
        const ended = recordTime(c.hangup_time, tz);
        return {
          direction: c.direction ?? undefined,
          phone_number: c.phone_number ?? undefined,
          employee_name: sanitizeName(c.employee_name),
          answered: c.answered_time != null,
          started_at: started,
          talk_seconds: seconds(answered, ended),
          ring_seconds: seconds(started, answered ?? ended),
          record_file: c.record_file ?? undefined,
        };
      }),
      next_cursor: page.next_cursor,
    };
  },
});
