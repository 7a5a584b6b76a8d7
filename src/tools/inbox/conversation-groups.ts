import { z } from "zod";
import { id } from "../../format/compact.js";
import { tagLabels } from "../../format/conversations.js";
import { fold, sanitizeName } from "../../format/text.js";
import { toDateInZone, toIsoInZone } from "../../format/time.js";
import type { ToolContext } from "../define.js";
import { awaitingNotes, GROUP_CALLS, GROUP_MS, type Match, pagesOf, scanConversations, timeOf, within24h } from "./conversation-search.js";
import type { ListConversationsInput } from "./list-conversations.js";

/**
 * list_conversations with group_by: "new comment threads per page last week", "conversations by
 * tag". The upstream counts nothing of this (its only total is per page, without a type filter),
 * so every match is read (conversation-search.ts, bounded) and counted here. A grouped answer
 * never looks complete when a page was not read to its end.
 */

export const GROUP_KEYS = ["page", "type", "tag", "assignee", "day"] as const;
type GroupKey = (typeof GROUP_KEYS)[number];

const NO_TAG = "(no tag)";
const UNASSIGNED = "(unassigned)";

export const groupsOutput = {
  groups: z.array(z.looseObject({ count: z.number() })).optional(),
  other: z.object({ groups: z.number(), count: z.number() }).optional(),
  complete: z.boolean().optional(),
};

/** One value of a key for a conversation: what tells it apart, and the fields its row shows. */
interface KeyValue {
  id: string;
  fields: Record<string, string>;
}

interface Group {
  fields: Record<string, string>;
  count: number;
}

function valuesOf(key: GroupKey, { c, r }: Match, ctx: ToolContext, day: (m: Match) => string): KeyValue[] {
  switch (key) {
    case "page":
      return [{ id: r.pageId, fields: { page: ctx.messaging.pageName(r.pageId) ?? r.pageId, page_id: r.pageId } }];
    case "type":
      return [{ id: c.type ?? "", fields: { type: c.type ?? "" } }];
    case "tag": {
      // The same tag has another id on each page: a tag is its name, as get_page_stats sums tags.
      const names = tagLabels(c.tags, r.tags ?? new Map());
      return names.length ? names.map((name) => ({ id: fold(name), fields: { tag: name } })) : [{ id: "", fields: { tag: NO_TAG } }];
    }
    case "assignee": {
      const users = (c.current_assign_users ?? []).flatMap((u) => {
        const userId = id(u.id);
        return userId === undefined ? [] : [{ id: userId, fields: { assignee: sanitizeName(u.name) ?? userId } }];
      });
      return users.length ? users : [{ id: "", fields: { assignee: UNASSIGNED } }];
    }
    case "day":
      return [{ id: day({ c, r }), fields: { day: day({ c, r }) } }];
  }
}

/** Every combination of the keys' values a conversation has (two keys: each pair). */
function combinations(keys: readonly GroupKey[], m: Match, ctx: ToolContext, day: (m: Match) => string): KeyValue[] {
  return keys.reduce<KeyValue[]>(
    (sofar, key) => sofar.flatMap((a) => valuesOf(key, m, ctx, day).map((b) => ({ id: `${a.id}\u0000${b.id}`, fields: { ...a.fields, ...b.fields } }))),
    [{ id: "", fields: {} }],
  );
}

export async function groupConversations(input: ListConversationsInput, ctx: ToolContext) {
  const keys = input.group_by!;
  const tz = ctx.config.timezone;
  const scanned = await scanConversations(input, ctx, true);
  const time = timeOf(input);
  const day = ({ c }: Match) => toDateInZone(new Date(time(c) ?? 0), tz);
  const byId = new Map<string, Group>();
  for (const m of scanned.matches) {
    // A conversation counts once in a group even if its page lists a tag twice.
    for (const value of new Map(combinations(keys, m, ctx, day).map((v) => [v.id, v])).values()) {
      const group = byId.get(value.id) ?? { fields: value.fields, count: 0 };
      group.count++;
      byId.set(value.id, group);
    }
  }
  const label = (g: Group) => Object.values(g.fields).join(" ");
  // Days read in their order; anything else by count, the largest first.
  const groups = [...byId.values()].sort((a, b) =>
    keys[0] === "day" ? a.fields.day!.localeCompare(b.fields.day!) || b.count - a.count : b.count - a.count || label(a).localeCompare(label(b)),
  );
  const shown = groups.slice(0, input.limit);
  const rest = groups.slice(input.limit);
  const { range, complete } = scanned;
  const several = keys.some((k) => k === "tag" || k === "assignee");
  const notes = [
    complete ? "" : `pages with complete:false were counted back to searched_back_to only (${GROUP_CALLS * 60} conversations a page, or ${GROUP_MS / 1000} s); narrow since/until`,
    range || keys.includes("day") ? `range and day are of ${input.time_field === "created" ? "creation" : "the last activity"}` : "",
    several ? "a conversation with several tags or assignees counts under each; total counts it once" : "",
    ...awaitingNotes(scanned),
  ].filter(Boolean);
  return {
    groups: shown.map((g) => ({ ...g.fields, count: g.count })),
    other: rest.length ? { groups: rest.length, count: rest.reduce((t, g) => t + g.count, 0) } : undefined,
    total: scanned.matches.length,
    complete,
    range: range ? { since: toIsoInZone(range.since, tz), until: toIsoInZone(range.until, tz) } : undefined,
    within_24h: within24h(scanned),
    pages: pagesOf(scanned, ctx),
    note: notes.join("; "),
  };
}
