import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/types.js";
import { at, isSale, shopDay } from "../../helpers/chat-sales.js";
import { useHarness } from "../../helpers/harness.js";

// Issue 40, "how much did we spend on ads in November, and what did the orders from ads bring in?":
// before, the spend was in get_ad_stats (one page's report answers 403) and the revenue in
// search_orders grouped by ad, each group a bare ad id no campaign could be tied to (4 calls).
// Now each campaign's and ad's row carries what the shop's POS counts from it beside its spend, and
// orders grouped by ad or campaign carry their names. Figures are checked against the raw records.

const h = useHarness({ sandbox: { ratePerSecond: 100_000 } });

const SPAN = { since: "last 30 days" };
const ms = () => h.sandbox.messaging;

interface Sale {
  orders: number;
  revenue: number;
}

/** The POS's sales created in the last 30 days (whole days of the shop's calendar), per ad id. */
function salesByAd(): Map<string, Sale> {
  const since = shopDay(-29);
  const until = shopDay(1);
  const out = new Map<string, Sale>();
  for (const o of h.sandbox.pos.orders as OrderRecord[]) {
    if (!o.ad_id || !isSale(o) || at(o.inserted_at) < since || at(o.inserted_at) >= until) continue;
    const sale = out.get(o.ad_id) ?? { orders: 0, revenue: 0 };
    sale.orders++;
    sale.revenue += o.total_price_after_sub_discount;
    out.set(o.ad_id, sale);
  }
  return out;
}

/** Per campaign: its ads' sales. */
function salesByCampaign(): Map<string, Sale> {
  const out = new Map<string, Sale>();
  for (const [adId, sale] of salesByAd()) {
    const ad = ms().ads.find((a) => a.ad_id === adId);
    if (!ad) continue;
    const s = out.get(ad.campaign_id) ?? { orders: 0, revenue: 0 };
    s.orders += sale.orders;
    s.revenue += sale.revenue;
    out.set(ad.campaign_id, s);
  }
  return out;
}

type Row = Record<string, unknown> & { spend: number; pos_orders?: number; pos_revenue?: number; pos_roas?: number };

describe("get_ad_stats: the POS's orders and revenue beside the spend", () => {
  it("per campaign, in one call, with the page whose report answers 403 named and its spend not guessed", async () => {
    const r = await h.call("get_ad_stats", { view: "campaigns", ...SPAN });
    expect(r.isError, r.text).toBe(false);
    const want = salesByCampaign();
    expect(want.size).toBeGreaterThan(2);
    const rows = r.data.rows as Row[];
    for (const row of rows) {
      const sale = want.get(String(row.campaign_id));
      expect({ orders: row.pos_orders, revenue: row.pos_revenue }, String(row.name)).toEqual({ orders: sale?.orders, revenue: sale?.revenue });
      if (sale) expect(row.pos_roas).toBe(Number((sale.revenue / row.spend).toFixed(4)));
    }
    const sold = [...want.values()];
    expect(r.data.totals.pos_orders).toBe(sold.reduce((t, s) => t + s.orders, 0));
    expect(r.data.totals.pos_revenue).toBe(sold.reduce((t, s) => t + s.revenue, 0));
    // The headline equals the rows it sums.
    expect(r.data.totals.spend).toBe(rows.reduce((t, row) => t + row.spend, 0));
    const denied = ms().pages.find((p) => p.id === ms().adsDeniedPageId)!;
    expect(r.data.failed_pages).toEqual([expect.objectContaining({ page_id: denied.id, error: expect.stringMatching(/403/) })]);
    expect(rows.some((row) => row.page_id === denied.id)).toBe(false);
    expect(r.data.note).toMatch(/pos_orders, pos_revenue: the shop's POS sales .*canceled and deleted orders are none/);
    expect(countTokens(r.text)).toBeLessThan(2_000);
  });

  it("per ad", async () => {
    const r = await h.call("get_ad_stats", { view: "ads", ...SPAN, limit: 100 });
    const want = salesByAd();
    for (const row of r.data.rows as Row[]) {
      const sale = want.get(String(row.ad_id));
      expect({ orders: row.pos_orders, revenue: row.pos_revenue }, String(row.ad_id)).toEqual({ orders: sale?.orders, revenue: sale?.revenue });
    }
    expect((r.data.rows as Row[]).filter((row) => row.pos_orders).length).toBeGreaterThan(5);
  });

  it("counts the sales of ads whose page's report cannot be read apart, never guessing their spend", async () => {
    const page = ms().pages.find((p) => p.name.startsWith("Mây Kids"))!;
    h.sandbox.server.injectFault({ path: `/pages/${page.id}/statistics/pages_campaigns`, kind: "status", status: 403, body: { success: false, message: "no permission" } });
    const r = await h.call("get_ad_stats", { view: "campaigns", ...SPAN });
    expect(r.isError, r.text).toBe(false);
    expect((r.data.failed_pages as { page_id: string }[]).map((f) => f.page_id)).toContain(page.id);
    const theirs = ms().ads.filter((a) => a.page_id === page.id).map((a) => a.ad_id);
    const other = [...salesByAd()].filter(([ad]) => theirs.includes(ad)).map(([, s]) => s);
    expect(other.length).toBeGreaterThan(0);
    expect(r.data.pos_other_ads).toEqual({ orders: other.reduce((t, s) => t + s.orders, 0), revenue: other.reduce((t, s) => t + s.revenue, 0) });
    expect(r.data.note).toMatch(/pos_other_ads: sales from ads no row names .*failed_pages/);
    expect((r.data.rows as Row[]).some((row) => row.page_id === page.id)).toBe(false);
  });
});

describe("search_orders grouped by ad or campaign: named", () => {
  it("names each ad and its campaign (the issue's probe: 2/2 with the chats' one)", async () => {
    const r = await h.call("search_orders", { group_by: ["ad"], ...SPAN });
    expect(r.isError, r.text).toBe(false);
    const groups = r.data.groups as { ad: string; ad_name?: string; campaign?: string; orders: number }[];
    const want = salesByAd();
    expect(groups.length).toBe(want.size);
    for (const g of groups) {
      const ad = ms().ads.find((a) => a.ad_id === g.ad)!;
      const campaign = ms().campaigns.find((c) => c.campaign_id === ad.campaign_id)!;
      expect({ ad_name: g.ad_name, campaign: g.campaign, orders: g.orders }).toEqual({ ad_name: ad.name, campaign: campaign.name, orders: want.get(g.ad)!.orders });
    }
  });

  it("groups by campaign, named, counted as the raw records count", async () => {
    const r = await h.call("search_orders", { group_by: ["campaign"], ...SPAN });
    expect(r.isError, r.text).toBe(false);
    const want = salesByCampaign();
    const groups = r.data.groups as { campaign: string; campaign_id: string; orders: number; amount: number }[];
    expect(new Map(groups.map((g) => [g.campaign_id, { orders: g.orders, revenue: g.amount }]))).toEqual(want);
    for (const g of groups) expect(g.campaign).toBe(ms().campaigns.find((c) => c.campaign_id === g.campaign_id)!.name);
  });
});
