import { z } from "zod";
import type { MessagingClient } from "../../clients/messaging.js";
import type { PageUser } from "../../clients/schemas/messaging.js";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, READ } from "../define.js";
import { pageIdInput } from "../inputs.js";
import { cachedUsers } from "../inbox/page-lookups.js";

const row = (u: PageUser, disabled: boolean) => ({
  id: String(u.id),
  name: sanitizeName(u.name),
  email: u.email ?? undefined,
  status: u.status ?? undefined,
  is_online: u.is_online ?? undefined,
  disabled: disabled || undefined,
});

/** The page's staff as compact rows (also served as the pancake://pages/{page_id}/users resource). */
export async function pageUserRows(client: MessagingClient, pageId: string, includeDisabled: boolean) {
  const { active, disabled } = await cachedUsers(client, pageId);
  return [...active.map((u) => row(u, false)), ...(includeDisabled ? disabled.map((u) => row(u, true)) : [])];
}

export const listPageUsers = defineTool({
  name: "list_page_users",
  title: "List page staff",
  description:
    "A page's staff: id, name, email, online. For assign_conversation.",
  toolset: "pages",
  annotations: READ,
  input: z.object({
    page_id: pageIdInput,
    include_disabled: z.boolean().default(false).describe("Include disabled staff"),
  }),
  output: z.object({
    users: z.array(z.looseObject({ id: z.string(), name: z.string().optional(), email: z.string().optional() })),
  }),
  async handler(input, ctx) {
    return { users: await pageUserRows(ctx.messaging, input.page_id, input.include_disabled) };
  },
});
