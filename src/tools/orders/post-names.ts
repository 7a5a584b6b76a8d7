import type { MessagingClient } from "../../clients/messaging.js";
import type { Post } from "../../clients/schemas/messaging.js";
import { byDeadline } from "../../shop-index/row-index.js";
import { cachePer } from "../../state/ttl-cache.js";
import { sanitizeText } from "../../text/sanitize.js";

// Orders grouped by the post they came from are named by the post's own words, as the page's
// posts list gives them: an id alone tells a seller nothing. The list takes a span and pages of
// 30: a page's posts of the last months, read once and kept a few minutes.

/** How far back a page's posts are read for their words, and in how many calls at most. */
const POSTS_DAYS = 180;
const POSTS_CALLS = 10;
const PAGE_SIZE = 30;
/** A post's words as a group label: its first line, cut. */
const LABEL_CHARS = 80;

const cache = cachePer<MessagingClient>("post-texts", { ttlMs: 5 * 60_000, maxEntries: 50, maxBytes: 2_000_000 });

/** The page a post id names: posts are "<page id>_<post>" (an order may keep only the post's part). */
const pageOf = (postId: string) => (postId.includes("_") ? postId.slice(0, postId.lastIndexOf("_")) : undefined);

async function pageTexts(messaging: MessagingClient, pageId: string): Promise<Record<string, string>> {
  const until = Math.floor(Date.now() / 1000);
  const texts: Record<string, string> = {};
  for (let page = 1; page <= POSTS_CALLS; page++) {
    const { posts, total } = await messaging.listPosts(pageId, { since: until - POSTS_DAYS * 86_400, until, page_number: page, page_size: PAGE_SIZE });
    for (const post of posts) {
      const text = label(post);
      if (text) texts[String(post.id)] = text;
    }
    if (posts.length < PAGE_SIZE || (total !== undefined && page * PAGE_SIZE >= total)) break;
  }
  return texts;
}

const label = (post: Post) => sanitizeText((post.message ?? post.story ?? "").split("\n")[0], { max: LABEL_CHARS });

/**
 * The words of each post among `postIds` that its page's recent posts hold; a post not found (older,
 * of a page this account does not hold) is left unnamed. Never fails the answer it names, nor holds
 * it past `by` (ms): the names read by then, the read going on into the cache for the next answer
 * (at 200 times the demo shop, a posts list answered behind 360 order pages outlasted the call).
 */
export async function postTexts(messaging: MessagingClient, postIds: readonly string[], by: number): Promise<Map<string, string>> {
  const pages = [...new Set(postIds.map(pageOf).filter((p): p is string => p !== undefined))];
  const out = new Map<string, string>();
  const naming = (async () => {
    const known = new Set(await messaging.activePageIds().catch(() => [] as string[]));
    await Promise.all(
      pages
        .filter((pageId) => known.has(pageId))
        .map(async (pageId) => {
          const texts = await cache(messaging)
            .get(pageId, (shared) => pageTexts(shared, pageId))
            .catch(() => ({}) as Record<string, string>);
          for (const id of postIds) if (texts[id]) out.set(id, texts[id]);
        }),
    );
  })();
  await byDeadline(naming, by);
  return new Map(out);
}
