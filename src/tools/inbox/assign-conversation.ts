import { z } from "zod";
import { sanitizeName } from "../../text/sanitize.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, pageIdInput } from "../inputs.js";
import { patchIndexed } from "./index-patch.js";
import { resolveStaffIds } from "./page-lookups.js";
import { conversationIdInput } from "./send-shared.js";

export const assignConversation = defineTool({
  name: "assign_conversation",
  title: "Assign conversation",
  description:
    "Set a conversation's staff, replacing current ones.",
  toolset: "inbox",
  annotations: OVERWRITE,
  input: z.object({
    page_id: pageIdInput,
    conversation_id: conversationIdInput,
    assignees: jsonish(z.array(z.string().min(1).max(200)).max(20)).describe("Staff ids, names or emails (as get_staff_stats names them); [] unassigns"),
  }),
  output: z.object({
    conversation_id: z.string(),
    assignees: z.array(z.object({ id: z.string(), name: z.string().optional() })),
  }),
  async handler(input, ctx) {
    const staff = await resolveStaffIds(ctx.messaging, input.page_id, "assignees", input.assignees);
    const ids = [...new Set(staff.map((u) => String(u.id)))];
    const updated = await ctx.messaging.assignConversation(input.page_id, input.conversation_id, ids);
    const current = updated.current_assign_users ?? staff;
    await patchIndexed(ctx, input.page_id, input.conversation_id, { current_assign_users: current });
    return {
      conversation_id: input.conversation_id,
      assignees: current.map((u) => ({ id: String(u.id), name: sanitizeName(u.name) })),
    };
  },
});
