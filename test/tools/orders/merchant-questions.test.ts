import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { startOfDay } from "../../../src/format/time.js";
import type { OrderRecord } from "../../../src/sandbox/pos/index.js";
import { startHarness, useHarness } from "../../helpers/harness.js";

// The merchant's questions (issue 34), each in one call within 4,000 result tokens and equal to
// the sandbox's raw records: stock that does not sell, first-time and lapsed buyers, what the
// goods that came back were worth, which posts brought the orders, and every buyer group paged.

const h = useHarness({ sandbox: { ratePerSecond: 100_000 } });
const at = (t: string) => Date.parse(`${t.slice(0, 23)}Z`);
const DAY = 86_400_000;
const voided = (o: OrderRecord) => o.status === 6 || o.status === 7;
const live = () => h.sandbox.pos.orders.filter((o) => !o.is_removed);
const buyer = (o: OrderRecord) => o.shop_customer_id ?? o.customer?.id ?? o.bill_phone_number.replace(/\D/g, "");
const monthStart = () => {
  const tz = h.config.timezone;
  const today = startOfDay(new Date(), tz);
  let day = today;
  for (let i = 0; i < 31 && new Date(day.getTime()).toLocaleDateString("en-CA", { timeZone: tz }).slice(8) !== "01"; i++) day = startOfDay(new Date(), tz, -(i + 1));
  return day.getTime();
};

async function ask(name: string, args: Record<string, unknown>) {
  const r = await h.call(name, args);
  expect(r.isError, r.text).toBe(false);
  expect(countTokens(r.text), `${name} ${JSON.stringify(args)}`).toBeLessThanOrEqual(4_000);
  return r.data;
}

/** Units per variation on the orders created since `since`, canceled and deleted left out. */
function unitsSince(since: number) {
  const units = new Map<string, number>();
  for (const o of live()) {
    if (voided(o) || at(o.inserted_at) < since) continue;
    for (const item of o.items) units.set(item.variation_id, (units.get(item.variation_id) ?? 0) + item.quantity);
  }
  return units;
}

describe("the merchant's questions, one call each", () => {
  it("which variants have stock but sold nothing in the last 30 days", async () => {
    const since = startOfDay(new Date(), h.config.timezone, -29).getTime();
    const units = unitsSince(since);
    const unsold = h.sandbox.pos.variations.filter((v) => !units.has(v.id)).map((v) => v.id).sort();
    expect(unsold.length).toBeGreaterThan(0);
    const r = await ask("search_products", { max_sold: 0, sold_since: "last 30 days", limit: 50 });
    expect((r.variations as { variation_id: string }[]).map((v) => v.variation_id).sort()).toEqual(unsold);
    expect(r.total).toBe(unsold.length);
    for (const v of r.variations as { sold: number; stock_available: number }[]) expect(v.sold).toBe(0);
  });

  it("the best sellers of the last 30 days, and how long their stock lasts at that pace", async () => {
    const since = startOfDay(new Date(), h.config.timezone, -29).getTime();
    const units = unitsSince(since);
    const r = await ask("search_products", { sort_by: "sold", limit: 5 });
    const rows = r.variations as { variation_id: string; sold: number; stock_available: number; days_of_cover?: number }[];
    const best = [...units.values()].sort((a, b) => b - a).slice(0, 5);
    expect(rows.map((v) => v.sold)).toEqual(best);
    const days = (Date.now() - since) / DAY;
    for (const v of rows) {
      expect(v.sold).toBe(units.get(v.variation_id));
      expect(v.days_of_cover).toBeCloseTo(v.stock_available / (v.sold / days), 0);
    }
  });

  it("how many customers bought for the first time this month, and who has not ordered in 30 days", async () => {
    const month = monthStart();
    const first = new Map<string, number>();
    const last = new Map<string, number>();
    for (const o of live()) {
      if (voided(o)) continue;
      const key = buyer(o);
      first.set(key, Math.min(first.get(key) ?? Number.POSITIVE_INFINITY, at(o.inserted_at)));
      last.set(key, Math.max(last.get(key) ?? 0, at(o.inserted_at)));
    }
    const fresh = [...first].filter(([, t]) => t >= month).length;
    expect(fresh).toBeGreaterThan(0);
    const r = await ask("search_orders", { group_by: ["customer"], since: "this month", buyers: "new", limit: 0 });
    expect(r.group_count).toBe(fresh);
    const since = startOfDay(new Date(), h.config.timezone, -30).getTime();
    const lapsed = [...last].filter(([, t]) => t < since).length;
    const gone = await ask("search_orders", { group_by: ["customer"], since: "30 days ago", buyers: "lapsed", limit: 0 });
    expect(gone.group_count).toBe(lapsed);
  });

  it("how much the goods that came back this month were worth, returned and partly returned alike", async () => {
    const month = monthStart();
    const reached = (o: OrderRecord, status: number) => o.status_history.find((s) => s.status === status)?.updated_at;
    const back = live().filter((o) => (o.status === 5 || o.status === 15) && at(reached(o, 5) ?? reached(o, o.status) ?? "1970-01-01") >= month);
    expect(back.some((o) => o.status === 15)).toBe(true);
    // A partly returned order's returned lines, at its amount's share of its lines' value.
    const value = (o: OrderRecord) => {
      if (o.status === 5) return o.total_price_after_sub_discount;
      const unit = (i: OrderRecord["items"][number]) => i.variation_info.retail_price - i.discount_each_product;
      const whole = o.items.reduce((n, i) => n + i.quantity * unit(i), 0);
      const returned = o.items.reduce((n, i) => n + i.returned_count * unit(i), 0);
      return Math.round((o.total_price_after_sub_discount * returned) / whole);
    };
    const r = await ask("search_orders", { statuses: ["returned", "partly_returned"], time_field: "returned", since: "this month", group_by: ["status"] });
    expect(r.total).toBe(back.length);
    const groups = r.groups as { status: string; orders: number; returned_amount: number }[];
    for (const [status, code] of [["returned", 5], ["partly_returned", 15]] as const) {
      const these = back.filter((o) => o.status === code);
      const group = groups.find((g) => g.status === status)!;
      expect(group.orders, status).toBe(these.length);
      expect(Math.abs(group.returned_amount - these.reduce((n, o) => n + value(o), 0)), status).toBeLessThanOrEqual(these.length);
    }
  });

  it("which posts brought in the most orders this month, named by the post", async () => {
    const month = monthStart();
    const counts = new Map<string, number>();
    for (const o of live()) if (!voided(o) && o.post_id && at(o.inserted_at) >= month) counts.set(o.post_id, (counts.get(o.post_id) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3);
    const r = await ask("search_orders", { group_by: ["post"], since: "this month", limit: 4 });
    const posts = (r.groups as { post: string; orders: number; post_text?: string }[]).filter((g) => g.post !== "(none)" && g.post !== "other");
    expect(posts.slice(0, 3).map((g) => g.orders)).toEqual(top.map(([, n]) => n));
    for (const g of posts) {
      const post = h.sandbox.messaging.posts.find((p) => p.id === g.post);
      if (post) expect(g.post_text).toBe(post.message.split("\n")[0]!.slice(0, 80).trim());
    }
  });

  it("answers the posts' counts within the call's budget when their words are slow to come", async () => {
    const slow = await startHarness({ sandbox: { ratePerSecond: 100_000 }, config: { callBudgetSeconds: 5 } });
    try {
      slow.sandbox.server.injectFault({ method: "GET", path: /\/posts$/, kind: "latency", delayMs: 8_000, times: 10 });
      const t0 = Date.now();
      const r = await slow.call("search_orders", { group_by: ["post"], since: "this month", limit: 4 });
      // By the budget (a margin for a loaded machine's timers), the same counts, the posts by id.
      expect(Date.now() - t0).toBeLessThan(5_000 + 2_000);
      expect(r.isError, r.text).toBe(false);
      const named = await ask("search_orders", { group_by: ["post"], since: "this month", limit: 4 });
      const counts = (data: Record<string, unknown>) => (data.groups as { post: string; orders: number }[]).map((g) => [g.post, g.orders]);
      expect(counts(r.data)).toEqual(counts(named));
      expect((r.data.groups as { post_text?: string }[]).every((g) => g.post_text === undefined)).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it("names every repeat customer, page after page, with no group twice", async () => {
    const since = startOfDay(new Date(), h.config.timezone, -59).getTime();
    const orders = new Map<string, number>();
    for (const o of live()) if (!voided(o) && at(o.inserted_at) >= since) orders.set(buyer(o), (orders.get(buyer(o)) ?? 0) + 1);
    const repeat = [...orders].filter(([, n]) => n >= 2).length;
    expect(repeat).toBeGreaterThan(20);
    const seen: string[] = [];
    let cursor: string | undefined;
    let data = await ask("search_orders", { group_by: ["customer"], since: "last 60 days", min_orders: 2, limit: 20 });
    for (let calls = 1; ; calls++) {
      seen.push(...(data.groups as { customer: string; customer_id?: string; phone?: string; groups?: number }[]).filter((g) => g.groups === undefined).map((g) => g.customer_id ?? g.phone ?? g.customer));
      cursor = data.next_cursor;
      if (!cursor) break;
      expect(calls).toBeLessThan(10);
      data = await ask("search_orders", { cursor });
    }
    expect(seen).toHaveLength(repeat);
    expect(new Set(seen).size).toBe(repeat);
  });
});
