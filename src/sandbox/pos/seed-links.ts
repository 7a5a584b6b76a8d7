import type { Random } from "../random.js";
import type { ShopPage } from "./seed-catalog.js";
import type { PosState } from "./state.js";
import { DAY, ms } from "./time.js";

/** What the inbox knows that orders and customers point to: pages, posts, ads, customers and their threads. */
export interface InboxLinks {
  pages: ShopPage[];
  posts: readonly { id: string; page_id: string; type: string; inserted_at: string }[];
  ads: readonly { ad_id: string; page_id: string }[];
  /** The pages' customers: `customer_id` is the inbox's id of the person, `psid` their page-scoped id. */
  customers: readonly { page_id: string; psid: string; customer_id: string }[];
  conversations: readonly { id: string; page_id: string; type: string; inserted_at: string; from: { id: string } }[];
  /** When each conversation began, before its first message was set at a busy hour of that day (MessagingState.begun). */
  begun: Readonly<Record<string, number>>;
}

/**
 * Ties orders sold through a page to that page's posts, livestreams and ads, as the live POS
 * records them (`page_id`, `post_id`, `is_livestream`, `ad_id`), so questions that cross the two
 * systems ("orders from last night's livestream", "what did this ad sell") have answers. An order
 * of a customer the POS knows by their chat (`psids`: POS customer id -> the psid the chat shows)
 * names the inbox thread it was made from (`conversation_id`), when there was one by then. Uses its
 * own generator: the rest of the data set stays as it was.
 *
 * "By then" is judged on when the thread began as drawn, a day ahead: its first message comes at a
 * busy hour of that day or before, so it is older than the order however the hours fall, and a
 * demo started at another time of day names the same threads (orders' times move with now alone).
 */
export function linkInbox(state: PosState, rng: Random, inbox: InboxLinks | undefined, psids: ReadonlyMap<string, string>): void {
  const pageIds = new Set(state.shop.pages.map((p) => p.id));
  const threads = new Map((inbox?.conversations ?? []).filter((c) => c.type === "INBOX").map((c) => [`${c.page_id}/${c.from.id}`, c]));
  for (const order of state.orders) {
    order.is_livestream = false;
    const page = order.account && pageIds.has(order.account) ? order.account : null;
    if (!page) continue;
    order.page_id = page;
    if (order.customer) order.customer.page_id = page;
    const psid = order.shop_customer_id ? psids.get(order.shop_customer_id) : undefined;
    const thread = psid ? threads.get(`${page}/${psid}`) : undefined;
    const begun = thread ? inbox?.begun[thread.id] : undefined;
    if (thread && begun !== undefined && begun + DAY <= ms(order.inserted_at)) order.conversation_id = thread.id;
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
