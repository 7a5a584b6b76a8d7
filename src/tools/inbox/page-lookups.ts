import { InputError } from "../../clients/errors.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { PageUser, Tag } from "../../clients/schemas/messaging.js";
import { bestMatches, nameScore } from "../../format/name-match.js";
import { fold, sanitizeName } from "../../format/text.js";
import { cachePer } from "../pos/ttl-cache.js";

/**
 * Per-page lists that several tools and resources join against (tag names, staff names). They
 * change rarely, so each is read at most once a minute per page; a write path that changes them
 * does not exist in the API, so no invalidation is needed beyond the TTL.
 */
const TTL_MS = 60_000;

// Page ids come from callers: bounded like every cache (an account has tens of pages, not thousands).
const caches = cachePer<MessagingClient>("page-lists", { ttlMs: TTL_MS, maxEntries: 200, maxBytes: 4_000_000 });

function ttlCache<T>(what: string, load: (client: MessagingClient, pageId: string) => Promise<T>) {
  return (client: MessagingClient, pageId: string): Promise<T> => caches(client).get(`${what}:${pageId}`, (shared) => load(shared, pageId));
}

export const cachedTags = ttlCache<Tag[]>("tags", (client, pageId) => client.listTags(pageId));

export interface PageStaff {
  active: PageUser[];
  disabled: PageUser[];
}

export const cachedUsers = ttlCache<PageStaff>("users", async (client, pageId) => {
  const users = await client.listUsers(pageId);
  return { active: users.users ?? [], disabled: users.disabled_users ?? [] };
});

/** Tag id -> name, for joining conversation rows. */
export async function tagNames(client: MessagingClient, pageId: string): Promise<Map<string, string>> {
  return new Map((await cachedTags(client, pageId)).map((t) => [String(t.id), t.text ?? String(t.id)]));
}

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
    const found = tags.find((t) => String(t.id) === text) ?? tags.find((t) => fold(t.text ?? "") === fold(text));
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

/**
 * The page's active staff for ids, emails or names. A name may be part of one ("Minh" for "Trần
 * Minh Khoa", accents optional) when no other staff member matches it as well.
 */
export async function resolveStaffIds(client: MessagingClient, pageId: string, field: string, wanted: readonly string[]): Promise<PageUser[]> {
  const { active, disabled } = await cachedUsers(client, pageId);
  const exact = (u: PageUser, text: string) => String(u.id) === text || fold(u.email ?? "") === fold(text);
  const label = (u: PageUser) => `${sanitizeName(u.name)} <${sanitizeName(u.email) ?? u.id}>`;
  return wanted.map((value, i) => {
    const text = value.trim();
    const where = wanted.length > 1 ? `${field}[${i}]` : field;
    const byKey = active.filter((u) => exact(u, text));
    const found = byKey.length > 0 ? byKey : bestMatches(active, text, (u) => u.name ?? undefined);
    if (found.length === 1) return found[0]!;
    const valid = `Active staff: ${active.map(label).join(", ")}.`;
    if (found.length > 1) {
      throw new InputError(where, `${JSON.stringify(text)} matches several staff: ${found.map(label).join(", ")}`, "Use more of the name, the email or the id.");
    }
    const gone = disabled.some((u) => exact(u, text) || nameScore(u.name ?? undefined, text) > 0);
    throw new InputError(where, gone ? `${JSON.stringify(text)} is disabled on this page` : `no staff ${JSON.stringify(text)} on page ${pageId}`, valid);
  });
}
