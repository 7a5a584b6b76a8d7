import { z } from "zod";
import type { MessagingClient } from "../../clients/messaging.js";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, READ } from "../define.js";
import { pagesLeftOut, pagesLeftOutSchema } from "./coverage.js";

/** The account's pages as compact rows (also the pancake://pages resource). */
export async function pageRows(client: MessagingClient, includeInactive: boolean) {
  const pages = await client.listPages();
  return pages
    .filter((p) => includeInactive || p.is_activated !== false)
    .map((p) => ({
      id: String(p.id),
      name: sanitizeName(p.name),
      platform: p.platform ?? undefined,
      is_activated: p.is_activated ?? undefined,
    }));
}

export const listPages = defineTool({
  name: "list_pages",
  title: "List pages",
  // What other tools take of a page (an id or a name; omitted, all pages) their page parameters say.
  description: "Social pages of the account: id, name, platform.",
  toolset: "pages",
  annotations: READ,
  input: z.object({
    include_inactive: z.boolean().default(false).describe("Include inactive pages"),
  }),
  output: z.object({
    pages: z.array(
      z.object({
        id: z.string(),
        name: z.string().optional(),
        platform: z.string().optional(),
        is_activated: z.boolean().optional(),
      }),
    ),
    pages_left_out: pagesLeftOutSchema,
  }),
  async handler(input, ctx) {
    const pages = await pageRows(ctx.messaging, input.include_inactive);
    // The shop's pages the inbox does not serve (and, unasked, the inactive ones) are the owner's too: named, not dropped.
    return { pages, pages_left_out: await pagesLeftOut(ctx, pages.map((p) => p.id)) };
  },
});
