import { z } from "zod";
import type { Post } from "../../clients/schemas/messaging.js";
import { sanitizeText } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { PAGE_SIZE, pagedInput, pagedOutput, readPaged, spanQuery } from "./paging.js";

const NAME = "list_posts";

const postRow = (p: Post, tz: string) => ({
  id: String(p.id),
  type: p.type ?? undefined,
  text: sanitizeText(p.message ?? p.story, { max: 300 }),
  created_at: recordTime(p.inserted_at, tz),
  comment_count: p.comment_count ?? undefined,
  like_count: p.like_count ?? undefined,
  phone_number_count: p.phone_number_count ?? undefined,
  live_video_status: p.live_video_status ?? undefined,
  link: p.link ?? undefined,
});

export const listPosts = defineTool({
  name: NAME,
  title: "List posts",
  description:
    "A page's posts (default last 30 days) with comment, like and phone counts.",
  toolset: "page_data",
  annotations: READ,
  input: z.object({
    ...pagedInput(30, 10),
    type: z.enum(["photo", "video", "text", "livestream"]).optional().describe("Post kind"),
  }),
  output: z.object({ posts: z.array(z.looseObject({ id: z.string(), comment_count: z.number().optional() })), ...pagedOutput }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const { rows, ...page } = await readPaged(
      NAME,
      input,
      () => ({ ...spanQuery(input, tz, 30), type: input.type }),
      (query) => ctx.messaging.listPosts(input.page_id, query).then((r) => ({ rows: r.posts, total: r.total })),
      (p) => postRow(p, tz),
      { pageSize: PAGE_SIZE },
    );
    return { posts: rows, ...page };
  },
});
