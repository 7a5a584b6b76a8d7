import { z } from "zod";
import type { MessagingClient } from "../../clients/messaging.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";
import { defineTool, READ } from "../define.js";
import { pageIdInput } from "../inputs.js";
import { cachedTags } from "./page-lookups.js";

/** The page's tags as compact rows (also served as the pancake://pages/{page_id}/tags resource). */
export async function pageTagRows(client: MessagingClient, pageId: string) {
  return (await cachedTags(client, pageId)).map((t) => ({
    id: String(t.id),
    name: sanitizeName(t.text) ?? String(t.id),
    color: t.color ?? undefined,
    description: sanitizeText(t.description, { max: 200 }),
  }));
}

export const listPageTags = defineTool({
  name: "list_page_tags",
  title: "List page tags",
  description: "A page's conversation tags: id, name, color.",
  toolset: "inbox",
  annotations: READ,
  input: z.object({ page_id: pageIdInput }),
  output: z.object({
    tags: z.array(z.object({ id: z.string(), name: z.string(), color: z.string().optional(), description: z.string().optional() })),
  }),
  async handler(input, ctx) {
    return { tags: await pageTagRows(ctx.messaging, input.page_id) };
  },
});
