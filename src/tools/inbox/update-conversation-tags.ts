import { z } from "zod";
import { InputError, PancakeError, UpstreamError } from "../../clients/errors.js";
import { tagLabels } from "../../format/conversations.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, pageIdInput } from "../inputs.js";
import { patchIndexed } from "./index-patch.js";
import { resolveTagIds, tagNames } from "./page-lookups.js";
import { conversationIdInput } from "./send-shared.js";

const tagList = () =>
  jsonish(z.array(z.union([z.string().min(1).max(100), z.number()])).max(20))
    .default([])
    .describe("Tag ids or names");

export const updateConversationTags = defineTool({
  name: "update_conversation_tags",
  title: "Tag conversation",
  description:
    "Add/remove conversation tags; returns the tags.",
  toolset: "inbox",
  annotations: OVERWRITE,
  input: z.object({
    page_id: pageIdInput,
    conversation_id: conversationIdInput,
    add: tagList(),
    remove: tagList(),
  }),
  output: z.object({
    conversation_id: z.string(),
    tags: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  async handler(input, ctx) {
    if (input.add.length === 0 && input.remove.length === 0) {
      throw new InputError("add", "name at least one tag to add or remove", "Pass add and/or remove as lists of tag ids or names.");
    }
    const changes = [
      ...(await resolveTagIds(ctx.messaging, input.page_id, "add", input.add)).map((tag_id) => ({ action: "add" as const, tag_id })),
      ...(await resolveTagIds(ctx.messaging, input.page_id, "remove", input.remove)).map((tag_id) => ({ action: "remove" as const, tag_id })),
    ];
    const names = await tagNames(ctx.messaging, input.page_id, true);
    let current: string[] | undefined;
    const done: string[] = [];
    for (const change of changes) {
      try {
        const result = await ctx.messaging.updateConversationTag(input.page_id, input.conversation_id, change);
        current = (result.data ?? []).map(String);
      } catch (error) {
        if (done.length === 0 || !(error instanceof PancakeError)) throw error;
        // One call per tag: say which changes already took effect so nothing is repeated blindly.
        throw new UpstreamError({
          op: `${change.action} tag ${names.get(change.tag_id) ?? change.tag_id}`,
          upstreamMessage: `${error.message} (already done: ${done.join(", ")})`,
          hint: error.hint,
        });
      }
      done.push(`${change.action} ${names.get(change.tag_id) ?? change.tag_id}`);
    }
    const ids = current ?? [];
    await patchIndexed(ctx, input.page_id, input.conversation_id, { tags: ids });
    const labels = tagLabels(ids, names);
    return { conversation_id: input.conversation_id, tags: ids.map((id, i) => ({ id, name: labels[i] ?? id })) };
  },
});
