import { z } from "zod";
import { sanitizeName } from "../../text/sanitize.js";
import type { ToolContext } from "../define.js";
import { cachedShops } from "../pos/resolve-shop.js";

// "Across all my pages" means the owner's pages, not the inbox's: a shop sells through a Zalo OA
// the inbox does not serve, and a page deactivated in Pancake still is the owner's. An answer
// over every page names the pages it did not read, and why, so no total looks like the shop's
// when it is not (a page that refused its read is said by the tool itself, failed_pages).

export const pagesLeftOutSchema = z
  .array(z.object({ page_id: z.string(), page_name: z.string().optional(), why: z.string() }))
  .optional()
  .describe("The owner's pages this answer could not read, and why");

export type PageLeftOut = { page_id: string; page_name?: string | undefined; why: string };

const NOT_IN_INBOX = "linked to the POS shop, not connected to the inbox";
const DEACTIVATED = "deactivated in Pancake";
const NO_TOKEN = "linked to the POS shop, no page access token (PANCAKE_PAGE_ACCESS_TOKENS)";

/** The pages the POS shops are linked to, by id with their names; none without the POS, or when it cannot be read. */
async function shopPages(ctx: Pick<ToolContext, "config" | "pos" | "logger">): Promise<Map<string, string | undefined>> {
  if (Object.keys(ctx.config.posApiKeys).length === 0) return new Map();
  const shops = await cachedShops(ctx.pos).catch((error: unknown) => {
    ctx.logger.info(`pages left out: the POS shops could not be read (${error instanceof Error ? error.message : String(error)})`);
    return [];
  });
  return new Map(shops.flatMap((shop) => (shop.pages ?? []).flatMap((p) => (p.id == null ? [] : [[String(p.id), sanitizeName(p.name)] as const]))));
}

/**
 * The owner's pages an answer over `read` leaves out, when `read` is every page the inbox serves
 * (a call that named its pages asked for those alone): the account's deactivated pages and the
 * POS shops' pages the inbox does not have. Undefined when none is left out.
 */
export async function pagesLeftOut(ctx: Pick<ToolContext, "config" | "pos" | "logger" | "messaging">, read: readonly string[]): Promise<PageLeftOut[] | undefined> {
  const account = await ctx.messaging.accountPages();
  const covered = new Set(read);
  if (account.some((p) => p.activated && !covered.has(p.id))) return undefined;
  const shops = await shopPages(ctx);
  const known = new Set(account.map((p) => p.id));
  const left: PageLeftOut[] = [
    ...account.filter((p) => !p.activated && !covered.has(p.id)).map((p) => ({ page_id: p.id, page_name: sanitizeName(p.name), why: DEACTIVATED })),
    ...[...shops]
      .filter(([id]) => !known.has(id) && !covered.has(id))
      .map(([id, name]) => ({ page_id: id, page_name: name, why: ctx.messaging.hasUserToken ? NOT_IN_INBOX : NO_TOKEN })),
  ];
  return left.length ? left : undefined;
}
