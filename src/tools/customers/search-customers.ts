import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { upstreamRecord } from "../../format/orders.js";
import { parseDateInput, toUnix } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, dateInput, detailInput, idInput, limitInput, shopIdInput } from "../inputs.js";
import { pagedList } from "../orders/paging.js";
import { resolveShopId } from "../shop/resolve-shop.js";
import { customerLevels, refId } from "../shop/shop-refs.js";
import { customerRow, customerRowSchema } from "./customer-row.js";

export const searchCustomers = defineTool({
  name: "search_customers",
  title: "Search customers",
  description:
    "Find POS customers by name, phone or email, level, or when they were added or updated; newest first, with points, level, order count and spend. Example: search \"0912345678\".",
  toolset: "customers",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    search: z.string().max(200).optional().describe("Name, phone or email"),
    customer_ids: z.array(idInput("Customer id")).max(100).optional().describe("Only these customers"),
    levels: z.array(z.string().max(80)).max(20).optional().describe("Customer level names or ids"),
    created_since: dateInput.optional().describe("Added on or after"),
    created_until: dateInput.optional().describe("Added on or before"),
    updated_since: dateInput.optional().describe("Updated on or after"),
    updated_until: dateInput.optional().describe("Updated on or before"),
    limit: limitInput(100, 20),
    cursor: cursorInput,
    detail: detailInput,
  }),
  output: z.object({ customers: z.array(customerRowSchema), total: z.number().optional(), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const unix = (field: string, value: string | number | undefined, end = false) =>
      value === undefined ? undefined : toUnix(parseDateInput(field, value, tz, end));
    const dates = {
      start_time_inserted_at: unix("created_since", input.created_since),
      end_time_inserted_at: unix("created_until", input.created_until, true),
      start_time_updated_at: unix("updated_since", input.updated_since),
      end_time_updated_at: unix("updated_until", input.updated_until, true),
    };
    for (const [from, to, field] of [
      [dates.start_time_inserted_at, dates.end_time_inserted_at, "created_until"],
      [dates.start_time_updated_at, dates.end_time_updated_at, "updated_until"],
    ] as const) {
      if (from !== undefined && to !== undefined && to < from) throw new InputError(field, "is before the start of the range");
    }
    const shopId = await resolveShopId(ctx, input.shop_id);
    const levels = await customerLevels(ctx.pos, shopId);
    const selectedLevel = input.levels?.map((l) => refId("levels", levels, l));
    const page = await pagedList(
      "search_customers",
      input,
      () => ({ search: input.search?.trim() || undefined, customer_ids: input.customer_ids?.join(","), selectedLevel, ...dates }),
      (q, page_number, page_size) => ctx.pos.listCustomers(shopId, { ...q, page_number, page_size }),
      ctx.progress,
    );
    const names = new Map(levels.map((l) => [l.id, l.name]));
    return {
      customers: page.rows.map((c) => (input.detail === "full" ? upstreamRecord(c) : customerRow(c, tz, names))),
      total: page.total,
      next_cursor: page.next_cursor,
    };
  },
});
