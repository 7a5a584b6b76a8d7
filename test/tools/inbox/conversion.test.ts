import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { ConversationRecord } from "../../../src/sandbox/messaging/index.js";
import { at, salesOf, shopDay } from "../../helpers/chat-sales.js";
import { useHarness } from "../../helpers/harness.js";

// Issue 40: "what share of last month's chats became orders, per page / post / ad / staff member",
// the figure sellers manage their staff and ads by, in one call: list_conversations conversion_days.
// The truth is counted from the raw records: the chats created in the span, each one's sales
// (linked by the order's link to the chat, the customer's id on the platform or a captured phone)
// created from the chat's start to N days after, each order once a group.

const h = useHarness({ sandbox: { ratePerSecond: 100_000 } });

const DAYS = 7;
const SPAN = { time_field: "created", since: "last 30 days" } as const;
const SHOP_OFFSET_MS = 7 * 3_600_000;
const second = (t: string) => Math.floor(at(t) / 1000);

interface Figures {
  count: number;
  ordered: number;
  orders: number;
  amount: number;
  rate_pct: number;
}

/** The chats of every active page created in the last 30 days (the shop's calendar). */
function chats(): ConversationRecord[] {
  const active = new Set(h.sandbox.messaging.pages.map((p) => p.id));
  const since = shopDay(-29);
  return h.sandbox.messaging.conversations.filter((c) => active.has(c.page_id) && !c.is_removed && at(c.inserted_at) >= since);
}

/** Each group's figures, its chats labelled by `labels` (several: the chat counts under each). */
function expected(labels: (c: ConversationRecord) => string[]): Map<string, Figures> {
  const groups = new Map<string, { count: number; ordered: number; orders: Map<number, number> }>();
  for (const c of chats()) {
    const start = second(c.inserted_at);
    const sales = salesOf(h.sandbox, c).filter((s) => second(s.order.inserted_at) >= start && second(s.order.inserted_at) <= start + DAYS * 86_400);
    for (const label of new Set(labels(c))) {
      const g = groups.get(label) ?? { count: 0, ordered: 0, orders: new Map() };
      g.count++;
      if (sales.length) g.ordered++;
      for (const s of sales) g.orders.set(s.order.id, s.order.total_price_after_sub_discount);
      groups.set(label, g);
    }
  }
  return new Map(
    [...groups].map(([label, g]) => [
      label,
      {
        count: g.count,
        ordered: g.ordered,
        orders: g.orders.size,
        amount: [...g.orders.values()].reduce((a, b) => a + b, 0),
        rate_pct: Math.round((g.ordered / g.count) * 1000) / 10,
      },
    ]),
  );
}

type Group = Figures & Record<string, unknown>;
const figures = ({ count, ordered, orders, amount, rate_pct }: Group): Figures => ({ count, ordered, orders, amount, rate_pct });

async function grouped(key: string, label: (g: Group) => string): Promise<{ groups: Map<string, Figures>; data: Record<string, unknown>; text: string }> {
  const r = await h.call("list_conversations", { ...SPAN, conversion_days: DAYS, group_by: [key], limit: 50 });
  expect(r.isError, r.text).toBe(false);
  expect(r.data.complete).toBe(true);
  expect(r.data.other).toBeUndefined();
  return { groups: new Map((r.data.groups as Group[]).map((g) => [label(g), figures(g)])), data: r.data, text: r.text };
}

describe("list_conversations conversion_days: chats that led to an order", () => {
  it("per page, with the totals counting each order once", async () => {
    const { groups, data, text } = await grouped("page", (g) => String(g.page_id));
    const want = expected((c) => [c.page_id]);
    expect(groups).toEqual(want);
    const all = expected(() => ["all"]).get("all")!;
    expect({ count: data.total, ordered: data.ordered, orders: data.orders, amount: data.amount, rate_pct: data.rate_pct }).toEqual(all);
    // Sales happen: the figure is not a row of zeros.
    expect(all.ordered).toBeGreaterThan(3);
    expect(data.currency).toBe("VND");
    expect(data.note).toMatch(/within 7 days of the chat's start/);
    expect(countTokens(text)).toBeLessThan(2_000);
  });

  it("per assignee, per post and per ad (its name and campaign's beside it)", async () => {
    const staff = await grouped("assignee", (g) => String(g.assignee));
    expect(staff.groups).toEqual(expected((c) => (c.current_assign_users.length ? c.current_assign_users.map((u) => u.name) : ["(unassigned)"])));

    const posts = await grouped("post", (g) => String(g.post));
    expect(posts.groups).toEqual(expected((c) => [c.post_id ?? "(no post)"]));
    const named = (posts.data.groups as Group[]).find((g) => g.post !== "(no post)")!;
    const post = h.sandbox.messaging.posts.find((p) => p.id === named.post)!;
    expect(String(post.message ?? "")).toContain(String(named.post_text));

    const ads = await grouped("ad", (g) => String(g.ad));
    expect(ads.groups).toEqual(expected((c) => (c.ad_ids.length ? c.ad_ids : ["(no ad)"])));
    for (const g of (ads.data.groups as Group[]).filter((x) => x.ad !== "(no ad)")) {
      const ad = h.sandbox.messaging.ads.find((a) => a.ad_id === g.ad)!;
      const campaign = h.sandbox.messaging.campaigns.find((c) => c.campaign_id === ad.campaign_id)!;
      expect({ ad_name: g.ad_name, campaign: g.campaign }).toEqual({ ad_name: ad.name, campaign: campaign.name });
    }
  });

  it("per day of creation, in the shop's calendar", async () => {
    const days = await grouped("day", (g) => String(g.day));
    const day = (c: ConversationRecord) => new Date(at(c.inserted_at) + SHOP_OFFSET_MS).toISOString().slice(0, 10);
    expect(days.groups).toEqual(expected((c) => [day(c)]));
  });

  it("without group_by, the totals alone", async () => {
    const r = await h.call("list_conversations", { ...SPAN, conversion_days: DAYS });
    expect(r.data.groups).toBeUndefined();
    const all = expected(() => ["all"]).get("all")!;
    expect({ count: r.data.total, ordered: r.data.ordered, orders: r.data.orders, amount: r.data.amount, rate_pct: r.data.rate_pct }).toEqual(all);
  });
});
