import { z } from "zod";
import { upstreamRecord } from "../../format/orders.js";
import { toUnix } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, limitInput, shopIdInput, sinceInput, untilInput } from "../inputs.js";
import { openRange } from "../pos/open-range.js";
import { pagedList } from "../pos/paging.js";
import { customerIds } from "../pos/customer-ref.js";
import { searchText } from "../pos/phone.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { customerLevels, refId } from "../pos/shop-refs.js";
import { customerRow, customerRowSchema } from "./customer-row.js";

export const searchCustomers = defineTool({
  name: "search_customers",
  title: "Search customers",
  description:
    "POS customers by name, phone (any form) or email, with points, level, orders and spend.",
  toolset: "customers",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    search: z.string().max(200).optional().describe("Name, phone or email"),
    customer_ids: z.array(z.string().max(120)).max(100).optional().describe("Only these (ids, phones or names)"),
    levels: z.array(z.string().max(80)).max(20).optional().describe("Level names or ids"),
    time_field: z.enum(["created", "updated"]).default("created").describe("Field of since/until"),
    since: sinceInput,
    until: untilInput,
    limit: limitInput(100, 20),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({ customers: z.array(customerRowSchema), total: z.number().optional(), next_cursor: z.string().optional() }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const range = openRange(input.since, input.until, tz);
    const field = input.time_field === "created" ? "inserted_at" : "updated_at";
    const dates = { [`start_time_${field}`]: range.since && toUnix(range.since), [`end_time_${field}`]: range.until && toUnix(range.until) };
    const shopId = await resolveShopId(ctx, input.shop_id);
    const levels = await customerLevels(ctx.pos, shopId);
    const selectedLevel = input.levels?.map((l) => refId("levels", levels, l));
    const ids = input.cursor || !input.customer_ids ? undefined : await customerIds(ctx.pos, shopId, "customer_ids", input.customer_ids);
    const page = await pagedList(
      "search_customers",
      input,
      () => ({ search: searchText(input.search), customer_ids: ids?.join(","), selectedLevel, ...dates }),
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
