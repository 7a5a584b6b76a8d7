import { z } from "zod";
import { fullRecord } from "../../format/conversations.js";
import { sanitizeText } from "../../format/text.js";
import { parseRange, recordTime, toUnix } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailInput, limitInput, pageIdInput, sinceInput, untilInput } from "../inputs.js";
import { readPaged } from "./paging.js";

const NAME = "list_posts";

export const listPosts = defineTool({
  name: NAME,
  title: "List posts",
  description:
    "A page's posts in a range (default last 30 days), newest first, with comment, like and phone counts. Example: type \"livestream\" last week.",
  toolset: "page_data",
  annotations: READ,
  input: z.object({
    page_id: pageIdInput,
    since: sinceInput,
    until: untilInput,
    type: z.enum(["photo", "video", "text", "livestream"]).optional().describe("Post kind"),
    limit: limitInput(30, 10),
    cursor: cursorInput,
    detail: detailInput,
  }),
  output: z.object({
    posts: z.array(z.looseObject({ id: z.string(), comment_count: z.number().optional() })),
    total: z.number().optional(),
    next_cursor: z.string().optional(),
  }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const page = await readPaged(
      NAME,
      input.page_id,
      input,
      () => {
        const range = parseRange(input.since, input.until, tz, { defaultDays: 30 });
        return { since: toUnix(range.since), until: toUnix(range.until), type: input.type };
      },
      async (query) => {
        const { posts, total } = await ctx.messaging.listPosts(input.page_id, query);
        return { rows: posts, total };
      },
    );
    return {
      posts: page.rows.map((p) =>
        input.detail === "full"
          ? fullRecord(p)
          : {
              id: String(p.id),
              type: p.type ?? undefined,
              text: sanitizeText(p.message ?? p.story, { max: 300 }),
              created_at: recordTime(p.inserted_at, tz),
              comment_count: p.comment_count ?? undefined,
              like_count: p.like_count ?? undefined,
              phone_number_count: p.phone_number_count ?? undefined,
              live_video_status: p.live_video_status ?? undefined,
              link: p.link ?? undefined,
            },
      ),
      total: page.total,
      next_cursor: page.next_cursor,
    };
  },
});
