import { z } from "zod";
import { CREATE, defineTool } from "../define.js";
import { shopIdInput } from "../inputs.js";
import { customerId } from "../pos/customer-ref.js";
import { orderRefInput, resolveOrder } from "../orders/order-ref.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { noteRow } from "./customer-row.js";

export const addCustomerNote = defineTool({
  name: "add_customer_note",
  title: "Add a customer note",
  description: "Add a staff note to a customer, optionally about an order or conversation.",
  toolset: "customers",
  annotations: CREATE,
  input: z.object({
    shop_id: shopIdInput,
    customer_id: z.string().max(120).describe("Customer id, phone or name"),
    message: z.string().min(1).max(5000).describe("Text"),
    order_id: orderRefInput.optional(),
    conversation_id: z.string().max(128).optional().describe("Related conversation"),
    page_id: z.string().max(64).optional().describe("Page of the conversation"),
    image_urls: z.array(z.url().max(1000)).max(10).optional().describe("Image links"),
  }),
  output: z.object({ id: z.string().optional(), note: z.looseObject({}) }),
  async handler(input, ctx) {
    const { shop_id, customer_id, image_urls, order_id, ...fields } = input;
    const shopId = await resolveShopId(ctx, shop_id);
    const customer = await customerId(ctx.pos, shopId, "customer_id", customer_id);
    // The OpenAPI takes the order's numeric id.
    const order = order_id === undefined ? undefined : Number((await resolveOrder(ctx.pos, shopId, order_id)).id);
    const body: Record<string, unknown> = Object.fromEntries(Object.entries({ ...fields, order_id: order }).filter(([, v]) => v !== undefined));
    if (image_urls) body.images = image_urls.map((url) => ({ url, preview_url: url }));
    const note = await ctx.pos.createCustomerNote(shopId, customer, body);
    // A bare {success: true} answer carries no record: show the note as sent.
    const row = noteRow({ ...body, ...note }, ctx.config.timezone);
    return { id: row.id, note: row };
  },
});
