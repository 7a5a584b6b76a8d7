import { Random } from "../random.js";
import type { Router } from "../server.js";
import { onPage, requireUser, type RouteContext, userPage } from "./guards.js";

export function registerPageRoutes(router: Router, ctx: RouteContext, prefix: string): void {
  const { state } = ctx;

  // The live answer, not the spec's `{pages}`: see the reference README.
  router.on("GET", `${prefix}/v1/pages`, (req) => {
    requireUser(ctx, req);
    return {
      success: true,
      categorized: {
        activated: state.pages,
        inactivated: state.inactivePages,
        activated_page_ids: state.pages.map((p) => p.id),
        hidden: [],
      },
    };
  });

  router.on("POST", `${prefix}/v1/pages/:page_id/generate_page_access_token`, (req) => {
    const page = userPage(ctx, req, req.params.page_id ?? req.query.get("page_id") ?? "");
    // Deterministic per call so runs repeat; the old token stops working at once.
    const token = `pat_${new Random(0x746f6b656e + ++state.sequence).hex(32)}`;
    page.settings.page_access_token = token;
    return { success: true, page_access_token: token, message: "Generate page access token successfully" };
  });

  onPage(
    router,
    ctx,
    "GET",
    `${prefix}/public_api/v1/pages/:page_id/users`,
    (_req, page) => {
      const members = state.staff.filter((s) => s.page_ids.includes(page.id));
      const active = members.filter((s) => !s.disabled_page_ids.includes(page.id));
      return {
        success: true,
        users: active.map((s) => ({
          id: s.id,
          name: s.name,
          email: s.email,
          fb_id: s.fb_id,
          status: s.status,
          is_online: s.is_online,
          status_in_page: "active",
          page_permissions: { permissions: s.id === state.ownerId ? [100, 71, 81] : [71, 81] },
        })),
        disabled_users: members.filter((s) => s.disabled_page_ids.includes(page.id)).map((s) => ({ id: s.id, name: s.name, fb_id: s.fb_id })),
        round_robin_users: { inbox: active.slice(1, 3).map((s) => s.id), comment: active.slice(1, 2).map((s) => s.id) },
      };
    },
    true,
  );

  onPage(router, ctx, "GET", `${prefix}/public_api/v1/pages/:page_id/tags`, (_req, page) => ({
    success: true,
    tags: state.tags[page.id] ?? [],
  }));
}
