import { z } from "zod";
import { defineTool, READ } from "../define.js";
import { limitInput, shopIdInput } from "../inputs.js";
import { customerId } from "../pos/customer-ref.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { withOrderNumbers } from "../orders/order-ref.js";
import { noteRow } from "./customer-row.js";

export const listCustomerNotes = defineTool({
  name: "list_customer_notes",
  title: "List customer notes",
  description: "Staff notes on a customer, newest first.",
  toolset: "customers",
  annotations: READ,
  input: z.object({ shop_id: shopIdInput, customer_id: z.string().max(120).describe("Customer id, phone or name"), limit: limitInput(200, 50) }),
  output: z.object({
    notes: z.array(z.looseObject({ id: z.string().optional(), staff_text: z.string().optional(), created_at: z.string().optional() })),
    total: z.number(),
    truncated: z.boolean().optional(),
  }),
  async handler(input, ctx) {
    const shopId = await resolveShopId(ctx, input.shop_id);
    const notes = await ctx.pos.listCustomerNotes(shopId, await customerId(ctx.pos, shopId, "customer_id", input.customer_id));
    const newest = [...notes].sort((a, b) => (b.created_at ?? 0) - (a.created_at ?? 0));
    return {
      notes: await withOrderNumbers(ctx.pos, shopId, newest.slice(0, input.limit).map((n) => noteRow(n, ctx.config.timezone))),
      total: notes.length,
      truncated: notes.length > input.limit || undefined,
    };
  },
});
