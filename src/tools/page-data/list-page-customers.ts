import { z } from "zod";
import type { PageCustomer } from "../../clients/schemas/messaging.js";
import { sanitizeName } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { pagedInput, pagedOutput, readPaged, spanQuery } from "./paging.js";

const NAME = "list_page_customers";

const customerRow = (c: PageCustomer, tz: string) => ({
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
});

export const listPageCustomers = defineTool({
  name: NAME,
  title: "List page customers",
  description:
    "People who first wrote to a page in a range (default last 30 days), with phones.",
  toolset: "page_data",
  annotations: READ,
  input: z.object({
    ...pagedInput(100, 20),
    order_by: z.enum(["inserted_at", "updated_at"]).default("inserted_at").describe("Range field"),
  }),
  output: z.object({ customers: z.array(z.looseObject({ name: z.string().optional(), psid: z.string().optional() })), ...pagedOutput }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const { rows, ...page } = await readPaged(
      NAME,
      input,
      () => ({ ...spanQuery(input, tz, 30), order_by: input.order_by }),
      (query) => ctx.messaging.listPageCustomers(input.page_id, query).then((r) => ({ rows: r.customers, total: r.total })),
      (c) => customerRow(c, tz),
    );
    return { customers: rows, ...page };
  },
});
