import { z } from "zod";
import type { CallLog } from "../../clients/schemas/messaging.js";
import { sanitizeName } from "../../format/text.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { idInput } from "../inputs.js";
import { PAGE_SIZE, pagedInput, pagedOutput, readPaged, spanQuery } from "./paging.js";

const NAME = "list_call_logs";

const seconds = (from: string | undefined, to: string | undefined) =>
  from && to ? Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000)) : undefined;

function callRow(c: CallLog, tz: string) {
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
}

export const listCallLogs = defineTool({
  name: NAME,
  title: "List call logs",
  description:
    "A page's call-center calls: direction, phone, staff, answered, duration, recording.",
  toolset: "page_data",
  annotations: READ,
  input: z.object({
    ...pagedInput(30, 20),
    subscription_id: idInput("Call-center subscription id"),
  }),
  output: z.object({ calls: z.array(z.looseObject({ phone_number: z.string().optional(), started_at: z.string().optional() })), ...pagedOutput }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const { rows, ...page } = await readPaged(
      NAME,
      input,
      () => ({ id: input.subscription_id, ...spanQuery(input, tz) }),
      (query) => ctx.messaging.listCallLogs(input.page_id, query).then((calls) => ({ rows: calls })),
      (c) => callRow(c, tz),
      PAGE_SIZE,
    );
    return { calls: rows, ...page };
  },
});
