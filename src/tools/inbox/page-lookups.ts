import { InputError } from "../../clients/errors.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { PageUser, Tag } from "../../clients/schemas/messaging.js";
import { fold, sanitizeName } from "../../format/text.js";
import { cachePer } from "../pos/ttl-cache.js";

/**
 * Per-page lists that several tools and resources join against (tag names, staff names). They
 * change rarely, so each is read at most once a minute per page; a write path that changes them
 * does not exist in the API, so no invalidation is needed beyond the TTL.
 */
const TTL_MS = 60_000;

// Page ids come from callers: bounded like every cache (an account has tens of pages, not thousands).
const caches = cachePer<MessagingClient>(TTL_MS, { maxEntries: 200, maxBytes: 4_000_000 });

function ttlCache<T>(what: string, load: (client: MessagingClient, pageId: string) => Promise<T>) {
  return (client: MessagingClient, pageId: string): Promise<T> => caches(client).get(`${what}:${pageId}`, () => load(client, pageId));
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

/** Staff ids for ids, names or emails of the page's active users. */
export async function resolveStaffIds(client: MessagingClient, pageId: string, field: string, wanted: readonly string[]): Promise<PageUser[]> {
  const { active, disabled } = await cachedUsers(client, pageId);
  const matches = (u: PageUser, text: string) =>
    String(u.id) === text || fold(u.email ?? "") === fold(text) || fold(u.name ?? "") === fold(text);
  return wanted.map((value) => {
    const text = value.trim();
    const found = active.filter((u) => matches(u, text));
    if (found.length === 1) return found[0]!;
    const valid = `Active staff: ${active.map((u) => `${sanitizeName(u.name)} <${sanitizeName(u.email) ?? u.id}>`).join(", ")}.`;
    if (found.length > 1) throw new InputError(field, `${JSON.stringify(text)} matches several staff`, `Use the id or email. ${valid}`);
    const gone = disabled.some((u) => matches(u, text));
    throw new InputError(field, gone ? `${JSON.stringify(text)} is disabled on this page` : `no staff ${JSON.stringify(text)} on page ${pageId}`, valid);
  });
}
