import type { Router } from "../server.js";
import type { RouteContext } from "./guards.js";
import { registerConversationRoutes } from "./routes-conversations.js";
import { registerPageDataRoutes } from "./routes-page-data.js";
import { registerPageRoutes } from "./routes-pages.js";
import { registerSendRoutes } from "./routes-send.js";
import { registerStatsRoutes } from "./routes-stats.js";
import type { MessagingState } from "./types.js";

export { postWithCounts } from "./routes-page-data.js";
export { MAX_SPAN_SECONDS } from "./routes-conversations.js";
export { MAIN_PAGE_COUNT, seedMessaging } from "./seed.js";
export { ORDER_TAG } from "./text.js";
export * from "./types.js";

/**
 * Serves the messaging API below `prefix` ("/api"). The sandbox clock starts at state.now when
 * the routes are registered and runs in real time, so the 24-hour window and the 7-day
 * private-reply rule behave as they would live.
 */
export function registerMessaging(router: Router, state: MessagingState, prefix: string): RouteContext {
  const started = Date.now();
  const ctx: RouteContext = { state, clock: () => state.now.getTime() + (Date.now() - started) };
  registerPageRoutes(router, ctx, prefix);
  registerConversationRoutes(router, ctx, prefix);
  registerSendRoutes(router, ctx, prefix);
  registerPageDataRoutes(router, ctx, prefix);
  registerStatsRoutes(router, ctx, prefix);
  return ctx;
}
