import { z } from "zod";
import { id } from "../../format/compact.js";
import { tagLabels } from "../../format/conversations.js";
import { fold } from "../../text/fold.js";
import { sanitizeName } from "../../text/sanitize.js";
import { type DateRange, parseRange, toDateInZone, toIsoInZone, toUnix } from "../../format/time.js";
import type { ToolContext } from "../define.js";
import {
  awaitingNotes,
  checkAcrossPages,
  cutShort,
  GROUP_CALLS,
  GROUP_MS,
  type Match,
  pagesOf,
  readPages,
  readingsOf,
  scanConversations,
  tagFilter,
  timeOf,
  within24h,
} from "./conversation-search.js";
import { type GROUP_KEYS, LIMIT_MAX, type ListConversationsInput, PAGED_SPAN_DAYS } from "./list-conversations-input.js";
import { rankGroups, restNote } from "../group-rows.js";
import { OPEN_ORDERS_NOTE } from "./chat-orders.js";
import { orderedNote } from "./chat-sales.js";
import { unix } from "../../shop-index/order-rows.js";
import { postTexts } from "../orders/post-names.js";
import { adNames } from "../page-stats/ad-names.js";
import { readBy } from "../define.js";

/**
 * list_conversations with group_by: "new comment threads per page last week", "conversations by
 * tag". Per page alone over at most a month, the page-number list's `total` counts each page in
 * one call; anything else is counted here over every match (conversation-search.ts, bounded).
 * A grouped answer never looks complete when a page was not read to its end.
 */

type GroupKey = (typeof GROUP_KEYS)[number];

const NO_TAG = "(no tag)";
const UNASSIGNED = "(unassigned)";
const NO_POST = "(no post)";
const NO_AD = "(no ad)";

export const groupsOutput = {
  groups: z.array(z.looseObject({ count: z.number() })).optional(),
  other: z.looseObject({ groups: z.number(), count: z.number() }).optional(),
  /** By day: the days before the newest `limit`, summed. */
  earlier: z.looseObject({ groups: z.number(), count: z.number() }).optional(),
  complete: z.boolean().optional(),
  ask_again_in_s: z.number().optional().describe("Not complete: a read goes on in the background; ask again after this many seconds"),
};

/** One value of a key for a conversation: what tells it apart, and the fields its row shows. */
interface KeyValue {
  id: string;
  fields: Record<string, string>;
}

interface Group {
  fields: Record<string, string>;
  count: number;
  /** conversion_days: the group's chats that led to an order, and those orders (each once) with their amounts. */
  ordered?: number;
  sales?: Map<string, number>;
  /** ordered, conversion_days: who the group's chats are with, and (conversion_days) who of them ordered, each once. */
  people?: Set<string>;
  buyers?: Set<string>;
}

const pageName = (ctx: ToolContext, pageId: string) => ctx.messaging.pageName(pageId) ?? pageId;
const pageFields = (ctx: ToolContext, pageId: string) => ({ page: pageName(ctx, pageId), page_id: pageId });

function valuesOf(key: GroupKey, m: Match, ctx: ToolContext, day: (m: Match) => string): KeyValue[] {
  const { c } = m;
  switch (key) {
    case "page":
      return [{ id: m.pageId, fields: pageFields(ctx, m.pageId) }];
    case "type":
      return [{ id: c.type ?? "", fields: { type: c.type ?? "" } }];
    case "tag": {
      // The same tag has another id on each page: a tag is its name, as get_page_stats sums tags.
      const names = tagLabels(c.tags, m.tags);
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
      return [{ id: day(m), fields: { day: day(m) } }];
    case "post": {
      // A post, and an ad, is of one page: its row names it (the "no post" row is of every page).
      const post = id(c.post_id);
      return [{ id: post ?? "", fields: post ? { post, page: pageName(ctx, m.pageId) } : { post: NO_POST } }];
    }
    case "ad": {
      // The ads that brought the chat (several: it counts under each).
      const ads = [...new Set(((c as { ad_ids?: unknown }).ad_ids as unknown[] | undefined ?? []).map(id).filter((a): a is string => a !== undefined))];
      return ads.length ? ads.map((ad) => ({ id: ad, fields: { ad, page: pageName(ctx, m.pageId) } })) : [{ id: "", fields: { ad: NO_AD } }];
    }
  }
}

/** Every combination of the keys' values a conversation has (two keys: each pair). */
function combinations(keys: readonly GroupKey[], m: Match, ctx: ToolContext, day: (m: Match) => string): KeyValue[] {
  return keys.reduce<KeyValue[]>(
    (sofar, key) => sofar.flatMap((a) => valuesOf(key, m, ctx, day).map((b) => ({ id: `${a.id}\u0000${b.id}`, fields: { ...a.fields, ...b.fields } }))),
    [{ id: "", fields: {} }],
  );
}

/**
 * Days in time order, the newest `limit` listed and the earlier summed in `earlier`; anything else
 * by count, the largest first, the rest summed in `other` (group-rows.ts, as search_orders ranks).
 */
function ranked(groups: Group[], keys: readonly GroupKey[], input: Pick<ListConversationsInput, "limit" | "ascending">) {
  const labelled = groups.map((g) => ({ labels: Object.values(g.fields), figures: { count: g.count, ...peopleFigures(g), ...salesFigures(g) }, fields: g.fields }));
  const { top, rest } = rankGroups(labelled, { figure: "count", limit: input.limit, inTimeOrder: keys[0] === "day", ascending: input.ascending });
  const rows = {
    groups: top.map((g) => ({ ...g.fields, ...conversion(g.figures) })),
    ...(rest ? { [rest.label]: { groups: rest.groups, ...conversion(rest.figures) } } : {}),
  };
  return { rows, note: restNote(rest, LIMIT_MAX) };
}

/** A group's sales figures (conversion_days): the chats that led to an order, and those orders once each. */
const salesFigures = (g: Pick<Group, "ordered" | "sales">): Record<string, number> =>
  g.sales ? { ordered: g.ordered ?? 0, orders: g.sales.size, amount: [...g.sales.values()].reduce((a, b) => a + b, 0) } : {};

/** A group's people (ordered, conversion_days): the persons its chats are with, and with conversion_days those who ordered, each once. */
const peopleFigures = (g: Pick<Group, "people" | "buyers">): Record<string, number> => ({
  ...(g.people ? { people: g.people.size } : {}),
  ...(g.buyers ? { people_ordered: g.buyers.size } : {}),
});

/** Post groups named by the post's words, ad groups by the ad's and its campaign's names (its page's ad report). */
async function nameGroups(rows: Record<string, unknown>[] | undefined, keys: readonly GroupKey[], input: ListConversationsInput, ctx: ToolContext): Promise<void> {
  if (!rows?.length) return;
  const ids = (key: string, none: string) => rows.map((r) => r[key]).filter((v): v is string => typeof v === "string" && v !== none);
  const [posts, ads] = await Promise.all([
    keys.includes("post") ? postTexts(ctx.messaging, ids("post", NO_POST), readBy(ctx)) : undefined,
    keys.includes("ad") ? adNames(ctx, input.page_ids, readBy(ctx)) : undefined,
  ]);
  rows.forEach((row, i) => {
    const ad = typeof row.ad === "string" ? ads?.ads.get(row.ad) : undefined;
    const names = { post_text: typeof row.post === "string" ? posts?.get(row.post) : undefined, ad_name: ad?.name, campaign: ad?.campaign };
    // The names beside the ids they name, before the figures.
    const labels = Object.fromEntries(Object.entries(row).filter(([k]) => !FIGURE_KEYS.has(k)));
    rows[i] = { ...labels, ...names, ...row };
  });
}

const FIGURE_KEYS = new Set(["count", "people", "ordered", "people_ordered", "rate_pct", "orders", "amount"]);

/** A row's count (and people), and with conversion_days its sales and the share of its chats that ordered. */
const conversion = (f: Record<string, number>): Partial<Record<"people" | "ordered" | "people_ordered" | "rate_pct" | "orders" | "amount", number>> & { count: number } => {
  const counted = { count: f.count ?? 0, people: f.people };
  return f.ordered === undefined
    ? counted
    : { ...counted, ordered: f.ordered, people_ordered: f.people_ordered, rate_pct: f.count ? Math.round((f.ordered / f.count) * 1000) / 10 : 0, orders: f.orders ?? 0, amount: f.amount ?? 0 };
};

/** Which orders an ad group's are: another basis than get_ad_stats' pos_orders, said where either is given. */
const AD_BASIS_NOTE =
  "ad: the ads that brought the chat (its ad_ids), its orders those joined to the chat's customer; get_ad_stats' pos_orders count instead the orders the POS attributes to an ad (the order's ad_id)";

/** What people count, once an answer. */
const PEOPLE_NOTE = "count: chats; people: the persons they are with, each once (one person's chats on several pages too)";

/** What conversion_days counted, once an answer. */
const conversionNote = (window: string) =>
  `ordered: chats whose customer placed an order ${window} (a sale: canceled and deleted orders are none), joined by the order's link to the chat, the customer's social id on the order or a phone the inbox caught of them, never by name; rate_pct = ordered / count (chats); people_ordered: the persons who ordered; orders, amount (goods after discounts, excl. shipping): those orders, each once a group (one linked to chats of two groups counts in both)`;

const rangeOut = (range: DateRange | undefined, tz: string) => (range ? { since: toIsoInZone(range.since, tz), until: toIsoInZone(range.until, tz) } : undefined);
const timeNote = (input: ListConversationsInput) =>
  `range and day are of ${input.time_field === "created" ? "creation" : input.time_field === "customer" ? "the customer's last message" : "the last activity"}`;
const FAILED_NOTE = "pages with an error are not counted";

export async function groupConversations(input: ListConversationsInput, ctx: ToolContext) {
  checkAcrossPages(input, true);
  return (await countedPerPage(input, ctx)) ?? countedHere(input, ctx);
}

/** Every match read and counted here. */
async function countedHere(input: ListConversationsInput, ctx: ToolContext) {
  // conversion_days alone counts every match as one group: the totals.
  const keys = input.group_by ?? [];
  const tz = ctx.config.timezone;
  const time = timeOf(input);
  const day = ({ c }: Match) => toDateInZone(new Date(time(c) ?? 0), tz);
  const converting = input.conversion_days !== undefined;
  const byId = new Map<string, Group>();
  const all: Pick<Group, "ordered" | "sales"> = { ordered: 0, sales: new Map() };
  // People are counted where sales are joined (ordered, conversion_days): the join knows who a chat is with across pages.
  const counting = input.ordered !== undefined || converting;
  const everyone: Pick<Group, "people" | "buyers"> = { people: new Set(), ...(converting ? { buyers: new Set() } : {}) };
  const tallyPeople = (g: Pick<Group, "people" | "buyers">, m: Match) => {
    if (m.person === undefined) return;
    g.people?.add(m.person);
    if (m.bought) g.buyers?.add(m.person);
  };
  // Chats begun too recently for their whole window: they may order yet.
  let open = 0;
  const openFrom = Date.now() / 1000 - (input.conversion_days ?? 0) * 86_400;
  // Each match counted as the scan finds it: none is kept.
  const scanned = await scanConversations(input, ctx, true, (m) => {
    const bought = converting ? m.bought : undefined;
    if (converting && (unix(m.c.inserted_at) ?? 0) > openFrom) open++;
    if (bought) {
      all.ordered!++;
      for (const [order, amount] of bought.each) all.sales!.set(order, amount);
    }
    tallyPeople(everyone, m);
    // A conversation counts once in a group even if its page lists a tag twice.
    for (const value of new Map(combinations(keys, m, ctx, day).map((v) => [v.id, v])).values()) {
      const group = byId.get(value.id) ?? {
        fields: value.fields,
        count: 0,
        ...(converting ? { ordered: 0, sales: new Map<string, number>(), buyers: new Set<string>() } : {}),
        ...(counting ? { people: new Set<string>() } : {}),
      };
      group.count++;
      tallyPeople(group, m);
      if (bought) {
        group.ordered!++;
        for (const [order, amount] of bought.each) group.sales!.set(order, amount);
      }
      byId.set(value.id, group);
    }
  });
  // All time, the groups count every match: the rows' span (the last days) is not theirs to show.
  const range = scanned.allTime ? undefined : scanned.range;
  const { complete } = scanned;
  // "Which page had the fewest": a page with none is the answer, so fewest first lists it at 0.
  if (input.ascending && keys.join() === "page") {
    // Keyed as combinations() keys a page's group.
    for (const pageId of input.page_ids) if (!byId.has(`\u0000${pageId}`)) byId.set(`\u0000${pageId}`, { fields: pageFields(ctx, pageId), count: 0 });
  }
  const { rows, note } = ranked([...byId.values()], keys, input);
  await nameGroups(rows.groups, keys, input, ctx);
  const several = keys.some((k) => k === "tag" || k === "assignee" || k === "ad");
  const readings = readingsOf(scanned, ctx);
  const notes = [
    ...readings.notes,
    cutShort(scanned)
      ? `pages with complete:false were counted back to searched_back_to only (${GROUP_CALLS * 60} conversations a page, or ${GROUP_MS / 1000} s); narrow since/until`
      : "",
    scanned.results.some((r) => r.error) ? FAILED_NOTE : "",
    range || keys.includes("day") ? timeNote(input) : "",
    several ? "a conversation with several tags or assignees (or ads) counts under each; total counts it once" : "",
    keys.includes("ad") && scanned.sales ? AD_BASIS_NOTE : "",
    ...awaitingNotes(scanned, input, true),
    scanned.orders ? OPEN_ORDERS_NOTE : "",
    scanned.sales ? (converting ? conversionNote(scanned.sales.window) : orderedNote(input.ordered, scanned.sales.window)) : "",
    counting ? PEOPLE_NOTE : "",
    open ? `${open} of the chats began less than ${input.conversion_days} days ago: their window is still open` : "",
    note,
  ].filter(Boolean);
  const totals = conversion({ count: scanned.matched, ...(counting ? peopleFigures(everyone) : {}), ...salesFigures(converting ? all : {}) });
  return {
    ...(keys.length ? rows : {}),
    total: totals.count,
    people: totals.people,
    ...(converting ? { ordered: totals.ordered, people_ordered: totals.people_ordered, rate_pct: totals.rate_pct, orders: totals.orders, amount: totals.amount, currency: scanned.sales?.currency } : {}),
    complete,
    ask_again_in_s: readings.askAgainIn,
    as_of: scanned.asOf === undefined ? undefined : toIsoInZone(new Date(scanned.asOf), tz),
    range: rangeOut(range, tz),
    within_24h: within24h(scanned),
    pages: pagesOf(scanned, ctx),
    note: notes.join("; "),
  };
}

/**
 * Conversations per page of a range the page-number list takes, and no filter but tags: its
 * `total` counts each page in one call, however many conversations it has. Undefined when that
 * list cannot say (a longer range, a filter it lacks, or an answer without a total).
 */
async function countedPerPage(input: ListConversationsInput, ctx: ToolContext) {
  // The page-number list ranges on creation or the last activity only: the customer's last message is read.
  const filtered =
    input.time_field === "customer" ||
    input.type ||
    input.post_id ||
    input.customer ||
    input.awaiting_reply ||
    input.waiting_minutes !== undefined ||
    input.with_open_orders ||
    input.ordered !== undefined ||
    input.conversion_days !== undefined;
  const ranged = input.since !== undefined || input.until !== undefined;
  if (input.group_by?.join() !== "page" || filtered || !ranged) return undefined;
  const tz = ctx.config.timezone;
  const range = parseRange(input.since, input.until, tz);
  if (range.until.getTime() - range.since.getTime() > PAGED_SPAN_DAYS * 86_400_000) return undefined;
  const order_by = input.time_field === "created" ? "inserted_at" : "updated_at";
  const tagged = await tagFilter(input, ctx);
  const results = await readPages(ctx, input.page_ids, async (pageId) => {
    const tags = tagged(pageId);
    // A page with none of the named tags has none of their conversations.
    if (tags === null) return 0;
    const query = { since: toUnix(range.since), until: toUnix(range.until), page_number: 1, order_by, tags } as const;
    return (await ctx.messaging.listConversationsPaged(pageId, query)).total;
  });
  if (results.some((r) => !r.error && r.value === undefined)) return undefined;
  // Fewest first, a page with none is the answer: listed at 0.
  const counted = results.filter((r) => r.value !== undefined && (r.value > 0 || (input.ascending === true && !r.error)));
  const { rows, note } = ranked(
    counted.map((r) => ({ fields: pageFields(ctx, r.pageId), count: r.value! })),
    ["page"],
    input,
  );
  return {
    ...rows,
    total: counted.reduce((t, r) => t + r.value!, 0),
    complete: results.every((r) => !r.error),
    range: rangeOut(range, tz),
    pages: results.map((r) => ({ page_id: r.pageId, page_name: ctx.messaging.pageName(r.pageId), matched: r.value ?? 0, complete: !r.error, error: r.error?.message })),
    note: [timeNote(input), results.some((r) => r.error) ? FAILED_NOTE : "", note].filter(Boolean).join("; "),
  };
}
