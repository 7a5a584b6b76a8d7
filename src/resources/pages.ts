import { compact } from "../format/compact.js";
import { fold } from "../text/fold.js";
import { pageTagRows } from "../tools/inbox/list-page-tags.js";
import { pageRows } from "../tools/pages/list-pages.js";
import { pageUserRows } from "../tools/pages/list-page-users.js";
import { pageIdInput } from "../tools/inputs.js";
import { defineResource, type ResourceContext, type ResourceDefinition } from "./define.js";

/**
 * The activated pages with their names from the client's page list, read at most once a minute:
 * completion asks on every keystroke and a resource list on every refresh, so neither reads the
 * upstream each time (the pancake://pages resource itself reads it fresh, like list_pages).
 */
async function knownPages(ctx: ResourceContext): Promise<{ id: string; name: string | undefined }[]> {
  return (await ctx.messaging.activePageIds()).map((id) => ({ id, name: ctx.messaging.pageName(id) }));
}

/** Page ids whose id or name starts with (or, folded, contains) what was typed. */
export async function completePageId(typed: string, ctx: ResourceContext): Promise<string[]> {
  const pages = await knownPages(ctx);
  const want = fold(typed);
  return pages.filter((p) => p.id.startsWith(typed) || (want !== "" && fold(p.name ?? "").includes(want))).map((p) => p.id);
}

/** A page id or name resolved like a tool's page_id, so a resource URI cannot steer the upstream path. */
const pageIdOf = (params: Record<string, string>, ctx: ResourceContext) => ctx.messaging.resolvePage(pageIdInput.parse(params.page_id));

function perPage(what: "tags" | "users", title: string, description: string, read: (ctx: ResourceContext, pageId: string) => Promise<unknown>) {
  return defineResource({
    name: `page-${what}`,
    title,
    description,
    uri: `pancake://pages/{page_id}/${what}`,
    complete: { page_id: completePageId },
    async list(ctx) {
      const pages = await knownPages(ctx);
      return pages.map((p) => ({ uri: `pancake://pages/${p.id}/${what}`, name: `${p.name ?? p.id} ${what}` }));
    },
    async read(params, ctx) {
      const pageId = await pageIdOf(params, ctx);
      return compact({ page_id: pageId, [what]: await read(ctx, pageId) });
    },
  });
}

export const pageResources: ResourceDefinition[] = [
  defineResource({
    name: "pages",
    title: "Pages",
    description: "The account's activated pages: id, name, platform.",
    uri: "pancake://pages",
    async read(_params, ctx) {
      return compact({ pages: await pageRows(ctx.messaging, false) });
    },
  }),
  perPage("tags", "Page tags", "Tags a page can put on conversations: id, name, color.", (ctx, pageId) =>
    pageTagRows(ctx.messaging, pageId),
  ),
  perPage("users", "Page staff", "Staff of a page: id, name, email, status.", (ctx, pageId) => pageUserRows(ctx.messaging, pageId, false)),
];
