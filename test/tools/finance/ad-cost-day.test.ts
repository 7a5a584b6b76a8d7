import { describe, expect, it } from "vitest";
import { recordDate, startOfDay, toDateInZone } from "../../../src/format/time.js";
import { useAcceptingHarness, useHarness } from "../../helpers/harness.js";

// Issue 34: "record 850,000 đ of Facebook ads for yesterday, campaign 'Sale 12.12'" was recorded
// once, but its cash-book entry was dated today and the campaign lived only in the name. The cost
// is dated on its day in the ad cost and in the entry it makes, the campaign is the POS's tag
// (one tag, however many costs), and the answer says how to tie a cost to a page, post or product.

const TZ = "Asia/Ho_Chi_Minh";
const shopDay = (days: number) => toDateInZone(startOfDay(new Date(), TZ, days), TZ);
/** A sandbox record time (UTC, no suffix) as its day in shop time. */
const dayOf = (recordTime: unknown) => toDateInZone(recordDate(recordTime)!, TZ);

const fbAds = (args: Record<string, unknown> = {}) => ({
  cost_date: "yesterday",
  campaign: "Sale 12.12",
  transaction: { name: "Quảng cáo Facebook", status: "in_effect" },
  items: [{ cost: 850_000, source: { key: "Facebook" } }],
  ...args,
});

describe("record_ad_cost: the cost's day, its campaign and how to tie it", () => {
  const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
  const pos = () => h.sandbox.pos;
  const path = () => `/pos/api/v1/shops/${pos().shop.id}/adv_costs`;
  const entryOf = (adCostId: unknown) => pos().transactions.find((t) => t.advertising_cost_id === adCostId)!;

  it("records 850,000 đ of Facebook ads for yesterday once, dated yesterday in the ad cost and its cash-book entry, tagged with the campaign", async () => {
    const before = h.sandbox.server.count("POST", path());
    const r = await h.call("record_ad_cost", fbAds());
    expect(r.isError, r.text).toBe(false);
    expect(h.sandbox.server.count("POST", path()) - before).toBe(1);

    const yesterday = shopDay(-1);
    const cost = pos().adCosts.at(-1)!;
    expect(String(cost.cost_date).slice(0, 10)).toBe(yesterday);
    const entry = entryOf(cost.id);
    expect(dayOf(entry.time_incurred)).toBe(yesterday);
    expect(entry).toMatchObject({ name: "Quảng cáo Facebook", amount: -850_000, status: 1 });
    const tags = pos().transactionTags.filter((t) => t.name === "Sale 12.12");
    expect(tags).toHaveLength(1);
    expect(entry.tag_ids).toEqual([tags[0]!.id]);

    expect(r.data).toMatchObject({ recorded: true, ad_cost_id: cost.id, transaction_id: entry.id, total_cost: 850_000, tags: ["Sale 12.12"], currency: "VND" });
    expect(r.data.cost_date.slice(0, 10)).toBe(yesterday);
    expect(r.data.time_incurred.slice(0, 10)).toBe(yesterday);
    expect(r.data.not_applied).toBeUndefined();
    expect(r.data.unverified).toBeUndefined();
    // The source alone names a channel: the answer says how to tie the cost to a page, post or product.
    expect(r.data.tie).toMatch(/page, post or product/);
    for (const field of ["account", "post_ids", "product"]) expect(r.data.tie).toContain(field);
    expect(r.text.length).toBeLessThan(4_000 * 3);

    // list_transactions shows the entry on yesterday's date with its ad cost.
    const listed = await h.call("list_transactions", { status: "in_effect", limit: 10 });
    const row = listed.data.transactions.find((t: { id: string }) => t.id === entry.id);
    expect(row).toMatchObject({ ad_cost_id: cost.id, amount: -850_000 });
    expect(row.time_incurred.slice(0, 10)).toBe(yesterday);
  });

  it("keeps one tag for a campaign however many costs carry it (a name given twice, or spaced and cased otherwise)", async () => {
    const first = await h.call("record_ad_cost", fbAds({ cost_date: "2026-12-12", items: [{ cost: 300_000 }] }));
    const second = await h.call("record_ad_cost", fbAds({ cost_date: "2026-12-13", campaign: " sale 12.12", transaction: { name: "QC ngày 2", status: "in_effect", tags: ["Sale 12.12"] }, items: [{ cost: 200_000 }] }));
    expect(second.isError, second.text).toBe(false);
    const tags = pos().transactionTags.filter((t) => t.name.toLowerCase() === "sale 12.12");
    expect(tags).toHaveLength(1);
    for (const r of [first, second]) expect(entryOf(r.data.ad_cost_id).tag_ids).toEqual([tags[0]!.id]);
    expect(second.data.tags).toEqual(["Sale 12.12"]);
    expect(dayOf(entryOf(second.data.ad_cost_id).time_incurred)).toBe("2026-12-13");
    const body = h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path === path()).at(-1)!.body;
    expect(body).toMatchObject({ params: { cost_date: "2026-12-13 00:00:00", transaction: { time_incurred: "2026-12-12 17:00:00", tags: ["Sale 12.12"] } } });
  });

  it("dates a cost given no day today, in both records", async () => {
    const r = await h.call("record_ad_cost", fbAds({ cost_date: undefined, campaign: undefined }));
    expect(r.isError, r.text).toBe(false);
    const today = shopDay(0);
    const cost = pos().adCosts.at(-1)!;
    expect(String(cost.cost_date).slice(0, 10)).toBe(today);
    expect(dayOf(entryOf(cost.id).time_incurred)).toBe(today);
    expect(entryOf(cost.id).tag_ids).toEqual([]);
    expect(r.data.cost_date.slice(0, 10)).toBe(today);
    expect(r.data.tags).toBeUndefined();
  });

  it("says nothing of tying a cost already tied to a page, post or product", async () => {
    const page = pos().shop.pages[0]!;
    const product = pos().products[0]!;
    const r = await h.call("record_ad_cost", fbAds({ items: [{ cost: 1000, source: { key: "Facebook", account: page.id } }, { cost: 2000, post_ids: [`${page.id}_1`] }, { cost: 3000, product: product.id }] }));
    expect(r.isError, r.text).toBe(false);
    expect(r.data.tie).toBeUndefined();
    const some = await h.call("record_ad_cost", fbAds({ items: [{ cost: 1000, product: product.id }, { cost: 2000 }] }));
    expect(some.data.tie).toMatch(/^items 1: tied to a page/);
  });

  it("names the date and the campaign the POS did not keep, read back from the cash book", async () => {
    // The POS answers {success} and files the entry today, untagged: what it holds is what is said.
    const today = new Date().toISOString().slice(0, 19);
    const held = { id: "ignored-1", name: "Quảng cáo Facebook", amount: -850_000, status: 1, advertising_cost_id: "ac-ignored", tag_ids: [], inserted_at: today, time_incurred: today };
    const list = `/pos/api/v1/shops/${pos().shop.id}/transactions`;
    h.sandbox.server.injectFault({ method: "POST", path: path(), kind: "status", status: 200, body: { success: true } });
    h.sandbox.server.injectFault({ method: "GET", path: list, kind: "latency", delayMs: 0 });
    h.sandbox.server.injectFault({ method: "GET", path: list, kind: "status", status: 200, body: { success: true, data: [held], total_entries: 1 } });
    const r = await h.call("record_ad_cost", fbAds());
    expect(r.isError, r.text).toBe(false);
    expect(r.data.transaction_id).toBe("ignored-1");
    expect(r.data.time_incurred.slice(0, 10)).toBe(shopDay(0));
    const missed = Object.fromEntries(r.data.not_applied.map((m: { field: string }) => [m.field, m]));
    expect(Object.keys(missed).sort()).toEqual(["campaign", "cost_date"]);
    expect(missed.cost_date).toMatchObject({ sent: shopDay(-1), holds: shopDay(0) });
    // No tag at all: the empty list is left out of the answer, as every empty value is.
    expect(missed.campaign).toMatchObject({ sent: ["Sale 12.12"], fix: expect.stringContaining("tag") });
    expect(missed.campaign.holds).toBeUndefined();
  });

  it("says the write is unread, never repeats it, when its entry is not found", async () => {
    h.sandbox.server.injectFault({ method: "POST", path: path(), kind: "status", status: 200, body: { success: true } });
    const before = h.sandbox.server.count("POST", path());
    const r = await h.call("record_ad_cost", fbAds({ transaction: { name: "QC không thấy", status: "in_effect" } }));
    expect(r.isError, r.text).toBe(false);
    expect(h.sandbox.server.count("POST", path()) - before).toBe(1);
    expect(r.data.recorded).toBe(true);
    expect(r.data.transaction_id).toBeUndefined();
    expect(r.data.unverified).toMatch(/not among the 100 newest entries.*do not repeat the write/);
  });
});

describe("record_ad_cost's confirmation", () => {
  const { h, asked } = useAcceptingHarness();

  it("asks with the cost's day as a date and the campaign's tag", async () => {
    const count = asked.length;
    const r = await h.call("record_ad_cost", fbAds());
    expect(r.isError, r.text).toBe(false);
    expect(asked).toHaveLength(count + 1);
    expect(asked.at(-1)).toContain(`Ngày: ${shopDay(-1)} 00:00`);
    expect(asked.at(-1)).toContain("Thẻ: Sale 12.12");
  });
});
