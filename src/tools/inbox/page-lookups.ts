import { InputError } from "../../clients/errors.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { PageUser, Tag } from "../../clients/schemas/messaging.js";
import { bestMatches, nameScore, nearestName } from "../../text/name-match.js";
import { fold } from "../../text/fold.js";
import { sanitizeName } from "../../text/sanitize.js";
import { cachePer } from "../../state/ttl-cache.js";

/**
 * Per-page lists that several tools and resources join against (tag names, staff names). They
 * change rarely, so each is read at most once a minute per page; a write path that changes them
 * does not exist in the API, so no invalidation is needed beyond the TTL.
 */
const TTL_MS = 60_000;

// Page ids come from callers: bounded like every cache (an account has tens of pages, not thousands).
const caches = cachePer<MessagingClient>("page-lists", { ttlMs: TTL_MS, maxEntries: 200, maxBytes: 4_000_000 });
/**
 * Tag names only label rows: a renamed tag showing its old name for a few minutes misleads no one,
 * while re-reading every page's tags each minute cost a big shop's warm repeat one request a page.
 * Filters and list_page_tags, where a tag just made must be found, keep the minute.
 */
const labels = cachePer<MessagingClient>("tag-labels", { ttlMs: 5 * TTL_MS, maxEntries: 200, maxBytes: 4_000_000 });

function ttlCache<T>(what: string, load: (client: MessagingClient, pageId: string) => Promise<T>, per = caches) {
  return (client: MessagingClient, pageId: string): Promise<T> => per(client).get(`${what}:${pageId}`, (shared) => load(shared, pageId));
}

export const cachedTags = ttlCache<Tag[]>("tags", (client, pageId) => client.listTags(pageId));
const labelTags = ttlCache<Tag[]>("tags", (client, pageId) => client.listTags(pageId), labels);

export interface PageStaff {
  active: PageUser[];
  disabled: PageUser[];
}

export const cachedUsers = ttlCache<PageStaff>("users", async (client, pageId) => {
  const users = await client.listUsers(pageId);
  return { active: users.users ?? [], disabled: users.disabled_users ?? [] };
});

/** Tag id -> name, for joining conversation rows; `fresh` where tags were just resolved by name. */
export async function tagNames(client: MessagingClient, pageId: string, fresh = false): Promise<Map<string, string>> {
  return new Map((await (fresh ? cachedTags : labelTags)(client, pageId)).map((t) => [String(t.id), t.text ?? String(t.id)]));
}

/** The tag a page knows by this id or name (accent- and case-insensitive). */
const findTag = (tags: readonly Tag[], text: string) => tags.find((t) => String(t.id) === text) ?? tags.find((t) => fold(t.text ?? "") === fold(text));

/** Tag ids for ids or names (accent- and case-insensitive); an unknown one lists the valid names. */
export async function resolveTagIds(
  client: MessagingClient,
  pageId: string,
  field: string,
  wanted: readonly (string | number)[],
): Promise<string[]> {
  const tags = await cachedTags(client, pageId);
  return wanted.map((value) => {
    const text = String(value).trim();
    const found = findTag(tags, text);
    if (!found) {
      throw new InputError(
        field,
        `no tag ${JSON.stringify(text.slice(0, 60))} on page ${pageId}`,
        `Use a tag id or one of these names: ${tags.map((t) => `${sanitizeName(t.text)} (${t.id})`).join(", ")}.`,
      );
    }
    return String(found.id);
  });
}

/** A page's ids of the tags a filter names (none when it has none of them), or why its tag list could not be read. */
export type PageTagIds = { ids: string[]; error?: undefined } | { ids?: undefined; error: unknown };

/**
 * The tags a filter names on each of several pages. Each page has its own tags (and ids), and a
 * filter keeps conversations with any of the tags: a page holds the ids of those it has, and none
 * where it has none of them (nothing there can match). A tag no page has is an error, naming it
 * and the tags there are; it is not one while a page whose tags could not be read might have it.
 */
export async function tagIdsByPage(
  client: MessagingClient,
  pageIds: readonly string[],
  field: string,
  wanted: readonly (string | number)[],
): Promise<Map<string, PageTagIds>> {
  const lists = await Promise.allSettled(pageIds.map((pageId) => cachedTags(client, pageId)));
  const read = lists.flatMap((list) => (list.status === "fulfilled" ? [list.value] : []));
  const texts = wanted.map((value) => String(value).trim());
  const missing = read.length === pageIds.length ? texts.find((text) => !read.some((tags) => findTag(tags, text))) : undefined;
  if (missing !== undefined) {
    const names = [...new Set(read.flat().flatMap((t) => sanitizeName(t.text) ?? []))];
    const where = pageIds.length === 1 ? `page ${pageIds[0]}` : `any of the ${pageIds.length} pages`;
    throw new InputError(field, `no tag ${JSON.stringify(missing.slice(0, 60))} on ${where}`, `Use one of these names: ${names.join(", ")}.`);
  }
  return new Map(
    pageIds.map((pageId, i): [string, PageTagIds] => {
      const list = lists[i]!;
      if (list.status === "rejected") return [pageId, { error: list.reason }];
      return [pageId, { ids: [...new Set(texts.flatMap((text) => findTag(list.value, text)?.id ?? []).map(String))] }];
    }),
  );
}

/**
 * Staff of the page (or of every page given: staff ids are the account's, not a page's) for ids,
 * emails or names. A name may be part of one ("Minh" for "Trần Minh Khoa", accents optional)
 * when no other staff member matches it as well. Only active staff, unless `formerToo` (a
 * statistic of past work may name someone who has left).
 */
export async function resolveStaffIds(
  client: MessagingClient,
  pageIds: string | readonly string[],
  field: string,
  wanted: readonly string[],
  options: { formerToo?: boolean } = {},
): Promise<PageUser[]> {
  const pages = typeof pageIds === "string" ? [pageIds] : pageIds;
  const lists = await Promise.all(pages.map((pageId) => cachedUsers(client, pageId)));
  const unique = (users: PageUser[]) => [...new Map(users.map((u) => [String(u.id), u])).values()];
  const active = unique(lists.flatMap((l) => l.active));
  const activeIds = new Set(active.map((u) => String(u.id)));
  const disabled = unique(lists.flatMap((l) => l.disabled)).filter((u) => !activeIds.has(String(u.id)));
  const pool = options.formerToo ? [...active, ...disabled] : active;
  const where = (thisOne: string) => (pages.length === 1 ? thisOne : "these pages");
  const exact = (u: PageUser, text: string) => String(u.id) === text || fold(u.email ?? "") === fold(text);
  const label = (u: PageUser) => `${sanitizeName(u.name)} <${sanitizeName(u.email) ?? u.id}>`;
  return wanted.map((value, i) => {
    const text = value.trim();
    const at = wanted.length > 1 ? `${field}[${i}]` : field;
    const byKey = pool.filter((u) => exact(u, text));
    const found = byKey.length > 0 ? byKey : bestMatches(pool, text, (u) => u.name ?? undefined);
    if (found.length === 1) return found[0]!;
    const near = found.length === 0 ? nearestName(active, text, (u) => u.name ?? undefined) : undefined;
    const valid = `${near ? `Did you mean ${label(near)}? ` : ""}Active staff: ${active.map(label).join(", ")}.`;
    if (found.length > 1) {
      throw new InputError(at, `${JSON.stringify(text)} matches several staff: ${found.map(label).join(", ")}`, "Use more of the name, the email or the id.");
    }
    const gone = disabled.some((u) => exact(u, text) || nameScore(u.name ?? undefined, text) > 0);
    const reason = gone ? `${JSON.stringify(text)} is disabled on ${where("this page")}` : `no staff ${JSON.stringify(text)} on ${where(`page ${pages[0]}`)}`;
    throw new InputError(at, reason, valid);
  });
}
