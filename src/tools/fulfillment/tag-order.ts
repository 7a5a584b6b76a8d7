import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { sanitizeName } from "../../format/text.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { orderRefInput, resolveOrder } from "../orders/order-ref.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { orderTags, refId } from "../pos/shop-refs.js";

const names = jsonish(z.array(z.union([z.string().max(80), z.number().int()])).max(20)).optional();

/** An order's tags as {id, name} pairs (the list gives objects, older records bare ids). */
function tagsOf(value: unknown, known: Map<string, string>): { id: number; name: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((tag) => {
    const tagId = typeof tag === "object" && tag !== null ? (tag as { id?: unknown }).id : tag;
    if (tagId === undefined || tagId === null) return [];
    const name = typeof tag === "object" && tag !== null ? (tag as { name?: unknown }).name : undefined;
    return [{ id: Number(tagId), name: String(name ?? known.get(String(tagId)) ?? tagId) }];
  });
}

export const tagOrder = defineTool({
  name: "tag_order",
  title: "Tag an order",
  description: 'Add or remove order tags. Example: add ["Giao gấp"].',
  toolset: "fulfillment",
  annotations: OVERWRITE,
  input: z.object({ shop_id: shopIdInput, order_id: orderRefInput, add: names.describe("Names or ids"), remove: names.describe("Names or ids") }),
  output: z.object({ order_id: z.string(), tags: z.array(z.string()) }),
  async handler(input, ctx) {
    if (!input.add?.length && !input.remove?.length) throw new InputError("add", "nothing to change", "Pass add or remove: tag names or ids.");
    const shopId = await resolveShopId(ctx, input.shop_id);
    const [list, order] = await Promise.all([orderTags(ctx.pos, shopId), resolveOrder(ctx.pos, shopId, input.order_id)]);
    const known = new Map(list.map((t) => [t.id, t.name]));
    const pick = (field: string, values: (string | number)[] | undefined) => (values ?? []).map((v, i) => Number(refId(`${field}[${i}]`, list, v)));
    const add = pick("add", input.add);
    const remove = new Set(pick("remove", input.remove));
    const current = tagsOf(order.tags, known).filter((t) => !remove.has(t.id));
    const next = [...current, ...add.filter((tagId) => !current.some((t) => t.id === tagId)).map((tagId) => ({ id: tagId, name: known.get(String(tagId))! }))];
    const saved = await ctx.pos.updateOrder(shopId, String(order.id), { tags: next });
    const after = saved.tags === undefined ? next : tagsOf(saved.tags, known);
    return { order_id: String(order.id), tags: after.map((t) => sanitizeName(t.name) ?? String(t.id)) };
  },
});
