import { fold } from "../text/fold.js";
import { startOfDay, toDateInZone } from "../format/time.js";
import type { ResourceContext } from "../resources/define.js";
import { completePageId } from "../resources/pages.js";
import { recentConversationIds, rememberConversations } from "../tools/inbox/conversation-lookup.js";
import { pageIdInput } from "../tools/inputs.js";
import { cachedShops } from "../tools/pos/resolve-shop.js";

/** Argument completion for prompts: candidate values for what was typed so far. */
export type Completer = (typed: string, ctx: ResourceContext, args: Record<string, string>) => Promise<string[]>;

const DAYS_OFFERED = 7;

/** `today`, `yesterday` and the last week's days as YYYY-MM-DD in the shop's zone, the words first. */
export const completeDate: Completer = async (typed, ctx) => {
  const now = new Date();
  const days = Array.from({ length: DAYS_OFFERED }, (_, i) => toDateInZone(startOfDay(now, ctx.config.timezone, -i), ctx.config.timezone));
  const want = typed.trim().toLowerCase();
  return ["today", "yesterday", ...days].filter((v) => v.startsWith(want));
};

/** Shop ids (the api keys' shops and any configured by id) whose id starts with, or name contains, what was typed. */
export const completeShopId: Completer = async (typed, ctx) => {
  const configured = Object.keys(ctx.config.posApiKeys).filter((k) => k !== "*");
  const shops = Object.keys(ctx.config.posApiKeys).length === 0 ? [] : await cachedShops(ctx.pos).catch(() => []);
  const named = new Map<string, string>(configured.map((id) => [id, ""]));
  for (const s of shops) named.set(String(s.id), s.name ?? "");
  const want = fold(typed);
  return [...named].filter(([id, name]) => id.startsWith(typed) || (want !== "" && fold(name).includes(want))).map(([id]) => id);
};

/**
 * Conversation ids. With a page_id chosen, that page's conversations: those this process has seen,
 * or, when it has seen none of that page yet, its newest page of conversations, read once and
 * remembered (so later keystrokes read nothing). Without a page, any conversation seen.
 */
export const completeConversationId: Completer = async (typed, ctx, args) => {
  const chosen = args.page_id?.trim();
  if (!chosen) return recentConversationIds(ctx.messaging, typed);
  const pageId = pageIdInput.safeParse(chosen);
  if (!pageId.success) return [];
  if (recentConversationIds(ctx.messaging, "", 1, pageId.data).length === 0) {
    const { conversations } = await ctx.messaging.listConversations(pageId.data, {});
    rememberConversations(ctx.messaging, pageId.data, conversations);
  }
  return recentConversationIds(ctx.messaging, typed, 20, pageId.data);
};

/** A comma list of page ids: completes its last item, keeping the ones before. */
export const completePageIdList: Completer = async (typed, ctx) => {
  const cut = typed.lastIndexOf(",") + 1;
  const before = typed.slice(0, cut);
  const chosen = new Set(before.split(",").map((s) => s.trim()));
  const ids = await completePageId(typed.slice(cut).trim(), ctx);
  return ids.filter((id) => !chosen.has(id)).map((id) => before + id);
};
