import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { sanitizeName } from "../../format/text.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { nextTags, requireLive, tagsOf, writeOrder } from "../orders/order-changes.js";
import { orderRefInput, resolveOrder } from "../orders/order-ref.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { orderTags, refId } from "../pos/shop-refs.js";
import { verifiedShape } from "../verify.js";

const names = jsonish(z.array(z.union([z.string().max(80), z.number().int()])).max(20)).optional();

export const tagOrder = defineTool({
  name: "tag_order",
  title: "Tag an order",
  description: 'Add or remove order tags. Example: add ["Giao gấp"].',
  toolset: "fulfillment",
  annotations: OVERWRITE,
  input: z.object({ shop_id: shopIdInput, order_id: orderRefInput, add: names.describe("Names or ids"), remove: names.describe("Names or ids") }),
  output: z.object({ order_id: z.string(), tags: z.array(z.string()).optional().describe("As read back"), ...verifiedShape }),
  async handler(input, ctx) {
    if (!input.add?.length && !input.remove?.length) throw new InputError("add", "nothing to change", "Pass add or remove: tag names or ids.");
    const shopId = await resolveShopId(ctx, input.shop_id);
    const [list, order] = await Promise.all([orderTags(ctx.pos, shopId), resolveOrder(ctx.pos, shopId, input.order_id)]);
    requireLive(order);
    const known = new Map(list.map((t) => [t.id, t.name]));
    const pick = (field: string, values: (string | number)[] | undefined) => (values ?? []).map((v, i) => Number(refId(`${field}[${i}]`, list, v)));
    const written = await writeOrder(ctx.pos, shopId, String(order.id), { tags: nextTags(order, known, pick("add", input.add), pick("remove", input.remove)) });
    return {
      order_id: String(order.id),
      tags: written.record && tagsOf(written.record.tags, known).map((t) => sanitizeName(t.name) ?? String(t.id)),
      not_applied: written.not_applied,
      unverified: written.unverified,
    };
  },
});
