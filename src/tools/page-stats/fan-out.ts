import { z } from "zod";
import { ConfigError, InputError, type PancakeError, UpstreamError } from "../../clients/errors.js";
import type { ToolContext } from "../define.js";

/**
 * Pages asked at once. The limit is per page upstream, so pages need not wait for each other:
 * ten at a time keeps a 10-page report at one round trip; the client still keeps each page at
 * 5 calls per second, and the keep-alive pool bounds the sockets.
 */
const FAN_OUT = 10;

/** Runs `fn` over items with at most `limit` in flight; results keep the items' order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * One call per page, a few pages at a time, with progress after each page. A page the account
 * turns out not to have is an error of `page_ids` naming that page (its reason does): the ids
 * here are resolved and de-duplicated, so their positions are not those of the caller's list.
 */
export function eachPage<R>(ctx: Pick<ToolContext, "progress">, pageIds: readonly string[], what: string, fn: (pageId: string) => Promise<R>) {
  let done = 0;
  return mapLimit(pageIds, FAN_OUT, async (pageId) => {
    const result = await fn(pageId).catch((error: unknown) => {
      if (error instanceof InputError && error.field === "page_id") throw new InputError("page_ids", error.reason, error.hint);
      throw error;
    });
    await ctx.progress(++done, pageIds.length, `${what}: page ${pageId}`);
    return result;
  });
}

export interface PageFailure {
  page_id: string;
  page_name?: string | undefined;
  error: string;
}

export const failedPagesSchema = z.array(z.object({ page_id: z.string(), page_name: z.string().optional(), error: z.string() })).optional();

/** The pages a statistics call covers (resolved by runTool: named ones, or every page), with their names. */
export interface StatsPages {
  ids: string[];
  name(pageId: string): string | undefined;
}

export const statsPages = (ctx: Pick<ToolContext, "messaging">, ids: readonly string[]): StatsPages => ({
  ids: [...ids],
  name: (pageId) => ctx.messaging.pageName(pageId),
});

/** A page's own refusal (its token, its permissions), as opposed to the service failing. */
const pageRefusal = (error: unknown) =>
  error instanceof ConfigError ||
  (error instanceof UpstreamError &&
    (error.status === 401 || error.status === 403 || error.code === 102 || error.permission !== undefined || /permission/i.test(error.upstreamMessage ?? "")));

/**
 * eachPage over the pages of a statistics call. A page that refuses (no token, no permission) is
 * reported in `failed` and the others still answer, as list_conversations does; when every page
 * refuses, the call fails with the first refusal.
 */
export async function eachStatsPage<R>(
  ctx: Pick<ToolContext, "progress">,
  pages: StatsPages,
  what: string,
  fn: (pageId: string) => Promise<R>,
): Promise<{ results: { pageId: string; value: R }[]; failed: PageFailure[] }> {
  const failed: PageFailure[] = [];
  let first: unknown;
  const settled = await eachPage(ctx, pages.ids, what, async (pageId) => {
    try {
      return { pageId, value: await fn(pageId) };
    } catch (error) {
      if (!pageRefusal(error)) throw error;
      first ??= error;
      failed.push({ page_id: pageId, page_name: pages.name(pageId), error: (error as PancakeError).message });
      return undefined;
    }
  });
  if (failed.length === pages.ids.length) throw first;
  return { results: settled.filter((r) => r !== undefined), failed };
}
