import { fold } from "../../text/fold.js";
import { sanitizeName } from "../../text/sanitize.js";
import type { ToolContext } from "../define.js";
import type { GROUP_KEYS, ListConversationsInput } from "./list-conversations-input.js";
import { tagIdsByPage, tagNames } from "./page-lookups.js";

/**
 * A count answers every group the call named, 0 where nothing matched: "how many COMMENT and
 * RATING threads" must not drop RATING for having none, nor "per page" a page with no new
 * conversation. Named are the types of `type`, the pages read (those that answered), the tags of
 * `tags`; assignees and days are whatever the conversations hold, so a key among them names
 * nothing. A zero group ranks last: it takes only the room `limit` leaves.
 */

type GroupKey = (typeof GROUP_KEYS)[number];
type Row = Record<string, unknown> & { count: number };

interface Grouped {
  groups?: Row[];
  pages?: { page_id: string; page_name?: string | undefined; error?: string | undefined }[];
}

/** A value the call named: what tells it apart in a group row, and the fields its row shows. */
interface Named {
  match: string;
  fields: Record<string, string>;
}

/** How a group row's value of `key` is told apart, as `named` spells it. */
function matchOf(key: GroupKey, row: Row): string {
  return key === "page" ? String(row.page_id) : key === "type" ? String(row.type) : fold(String(row.tag));
}

async function named(key: GroupKey, input: ListConversationsInput, ctx: ToolContext, pages: NonNullable<Grouped["pages"]>): Promise<Named[] | undefined> {
  switch (key) {
    case "type":
      return input.type?.map((type) => ({ match: type, fields: { type } }));
    case "page":
      return pages.map((p) => ({ match: p.page_id, fields: { page: p.page_name ?? p.page_id, page_id: p.page_id } }));
    case "tag": {
      if (!input.tags?.length) return undefined;
      // A tag is its name across pages, as the count names it (each page has its own ids); a page
      // may lack some (tagIdsByPage).
      const names = new Map<string, string>();
      const byPage = await tagIdsByPage(ctx.messaging, input.page_ids, "tags", input.tags);
      for (const { page_id } of pages) {
        const labels = await tagNames(ctx.messaging, page_id);
        for (const tagId of byPage.get(page_id)?.ids ?? []) {
          const name = sanitizeName(labels.get(String(tagId))) ?? String(tagId);
          names.set(fold(name), name);
        }
      }
      return [...names].map(([match, tag]) => ({ match, fields: { tag } }));
    }
    default:
      return undefined;
  }
}

export async function withNamedGroups<A extends Grouped>(answer: A, input: ListConversationsInput, ctx: ToolContext): Promise<A> {
  const keys = input.group_by ?? [];
  const groups = answer.groups;
  if (!groups || groups.length >= input.limit) return answer;
  const pages = (answer.pages ?? []).filter((p) => p.error === undefined);
  const sets = await Promise.all(keys.map((key) => named(key, input, ctx, pages)));
  if (sets.some((set) => set === undefined)) return answer;
  const combinations = sets.reduce<{ match: string[]; fields: Record<string, string> }[]>(
    (sofar, set) => sofar.flatMap((a) => set!.map((b) => ({ match: [...a.match, b.match], fields: { ...a.fields, ...b.fields } }))),
    [{ match: [], fields: {} }],
  );
  const present = new Set(groups.map((row) => keys.map((key) => matchOf(key, row)).join("\u0000")));
  const label = (fields: Record<string, string>) => Object.values(fields).join(" ");
  const zeros = combinations
    .filter((c) => !present.has(c.match.join("\u0000")))
    .sort((a, b) => label(a.fields).localeCompare(label(b.fields)))
    .map((c): Row => ({ ...c.fields, count: 0 }));
  return zeros.length ? { ...answer, groups: [...groups, ...zeros.slice(0, input.limit - groups.length)] } : answer;
}
