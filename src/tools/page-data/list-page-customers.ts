import { z } from "zod";
import { fullRecord } from "../../format/conversations.js";
import { sanitizeName } from "../../format/text.js";
import { parseRange, recordTime, toUnix } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailInput, limitInput, pageIdInput, sinceInput, untilInput } from "../inputs.js";
import { readPaged } from "./paging.js";

const NAME = "list_page_customers";

export const listPageCustomers = defineTool({
  name: NAME,
  title: "List page customers",
  description:
    "People who wrote to a page, first seen (or updated) in a range (default last 30 days), newest first, with captured phones. Example: new customers this week.",
  toolset: "page_data",
  annotations: READ,
  input: z.object({
    page_id: pageIdInput,
    since: sinceInput,
    until: untilInput,
    order_by: z.enum(["inserted_at", "updated_at"]).default("inserted_at").describe("Field the range applies to"),
    limit: limitInput(100, 20),
    cursor: cursorInput,
    detail: detailInput,
  }),
  output: z.object({
    customers: z.array(z.looseObject({ name: z.string().optional(), psid: z.string().optional() })),
    total: z.number().optional(),
    next_cursor: z.string().optional(),
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const page = await readPaged(
      NAME,
      input.page_id,
      input,
      () => {
        const range = parseRange(input.since, input.until, tz, { defaultDays: 30 });
        return { since: toUnix(range.since), until: toUnix(range.until), order_by: input.order_by };
      },
      async (query) => {
        const { customers, total } = await ctx.messaging.listPageCustomers(input.page_id, query);
        return { rows: customers, total };
      },
    );
    return {
      customers: page.rows.map((c) =>
        input.detail === "full"
          ? fullRecord(c)
          : {
              id: c.id ?? undefined,
              customer_id: c.customer_id ?? undefined,
              psid: c.psid ?? undefined,
              name: sanitizeName(c.name),
              gender: c.gender ?? undefined,
              birthday: typeof c.birthday === "string" ? c.birthday : undefined,
              lives_in: sanitizeName(c.lives_in),
              phone_numbers: c.phone_numbers ?? undefined,
              first_seen: recordTime(c.inserted_at, tz),
              last_seen: recordTime(c.updated_at, tz),
            },
      ),
      total: page.total,
      next_cursor: page.next_cursor,
    };
  },
});
