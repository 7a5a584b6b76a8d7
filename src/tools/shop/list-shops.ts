import { z } from "zod";
import type { PosShop } from "../../clients/schemas/pos.js";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, READ } from "../define.js";
import { cachedShops } from "../pos/resolve-shop.js";

/** A shop with its linked pages: the tool and the pos://shops resource show the same rows. */
export function shopRow(shop: PosShop) {
  return {
    id: String(shop.id),
    name: sanitizeName(shop.name),
    pages: (shop.pages ?? []).flatMap((p) =>
      p.id == null ? [] : [{ id: String(p.id), name: sanitizeName(p.name), platform: p.platform ?? undefined }],
    ),
  };
}

export const listShops = defineTool({
  name: "list_shops",
  title: "List shops",
  description:
    "POS shops of the api key, with their linked pages.",
  toolset: "shop",
  annotations: READ,
  input: z.object({}),
  output: z.object({
    shops: z.array(
      z.object({
        id: z.string(),
        name: z.string().optional(),
        pages: z.array(z.object({ id: z.string(), name: z.string().optional(), platform: z.string().optional() })).optional(),
      }),
    ),
  }),
  async handler(_input, ctx) {
    return { shops: (await cachedShops(ctx.pos)).map(shopRow) };
  },
});
