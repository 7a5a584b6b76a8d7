import type { Random } from "../random.js";
import type { ShopPage } from "./seed-catalog.js";
import type { PosState } from "./state.js";

/** What the inbox knows that orders point to: its pages, their posts and their ads. */
export interface InboxLinks {
  pages: ShopPage[];
  posts: readonly { id: string; page_id: string; type: string; inserted_at: string }[];
  ads: readonly { ad_id: string; page_id: string }[];
}

/**
 * Ties orders sold through a page to that page's posts, livestreams and ads, as the live POS
 * records them (`page_id`, `post_id`, `is_livestream`, `ad_id`), so questions that cross the two
 * systems ("orders from last night's livestream", "what did this ad sell") have answers. Uses its
 * own generator: the rest of the data set stays as it was.
 */
export function linkInbox(state: PosState, rng: Random, inbox: InboxLinks | undefined): void {
  const pageIds = new Set(state.shop.pages.map((p) => p.id));
  for (const order of state.orders) {
    order.is_livestream = false;
    const page = order.account && pageIds.has(order.account) ? order.account : null;
    if (!page) continue;
    order.page_id = page;
    if (order.customer) order.customer.page_id = page;
    const posts = inbox?.posts.filter((p) => p.page_id === page && p.inserted_at <= order.inserted_at) ?? [];
    if (posts.length && rng.chance(0.4)) {
      const post = rng.pick(posts);
      order.post_id = post.id;
      order.is_livestream = post.type === "livestream";
    }
    const ads = inbox?.ads.filter((a) => a.page_id === page) ?? [];
    if (order.ad_id && ads.length) order.ad_id = rng.pick(ads).ad_id;
  }
}
