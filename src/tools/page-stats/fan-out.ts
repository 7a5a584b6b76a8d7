import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { ToolContext } from "../define.js";
import { idInput, jsonish } from "../inputs.js";

export const MAX_PAGES = 20;
/**
 * Pages asked at once. The limit is per page upstream, so pages need not wait for each other:
 * ten at a time keeps a 10-page report at one round trip; the client still keeps each page at
 * 5 calls per second, and the keep-alive pool bounds the sockets.
 */
const FAN_OUT = 10;

/** One or more page ids: an array, a JSON array text, or a comma list. */
export const pageIdsInput = z
  .preprocess(
    (v) => (typeof v === "string" && !v.trim().startsWith("[") ? v.split(",").map((s) => s.trim()) : v),
    jsonish(z.array(idInput("page id")).min(1).max(MAX_PAGES)),
  )
  .describe(`Page ids (list_pages), ≤${MAX_PAGES}`);

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
 * One call per page, a few pages at a time, with progress after each page. A page id the account
 * does not have is named as the `page_ids` entry it came from.
 */
export function eachPage<R>(ctx: Pick<ToolContext, "progress">, pageIds: readonly string[], what: string, fn: (pageId: string) => Promise<R>) {
  let done = 0;
  return mapLimit(pageIds, FAN_OUT, async (pageId) => {
    const result = await fn(pageId).catch((error: unknown) => {
      if (error instanceof InputError && error.field === "page_id") {
        throw new InputError(`page_ids[${pageIds.indexOf(pageId)}]`, error.reason, error.hint);
      }
      throw error;
    });
    await ctx.progress(++done, pageIds.length, `${what}: page ${pageId}`);
    return result;
  });
}
