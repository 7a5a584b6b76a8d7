import { localDay, type Range } from "./time.js";
import type { AdDayRecord, CampaignRecord, MessagingState } from "./types.js";

// Definitions: see the header of stats.ts ("Ads").

const SUMMED = [
  "impressions",
  "reach",
  "link_click",
  "spend",
  "messaging_conversation_started_7d",
  "messaging_first_reply",
  "post_comments",
  "purchases",
  "purchases_conversion_value",
] as const;

const ratio = (a: number, b: number, digits: number) => (b === 0 ? null : (a / b).toFixed(digits));

function metrics(days: AdDayRecord[]) {
  const total = Object.fromEntries(SUMMED.map((k) => [k, days.reduce((sum, d) => sum + d[k], 0)])) as Record<(typeof SUMMED)[number], number>;
  const none = days.length === 0;
  return {
    ...Object.fromEntries(SUMMED.map((k) => [k, none ? null : String(total[k])])),
    cpc: none ? null : ratio(total.spend, total.link_click, 2),
    cpm: none ? null : ratio(total.spend * 1000, total.impressions, 2),
    ctr: none ? null : ratio(total.link_click * 100, total.impressions, 2),
    purchase_roas: none ? null : ratio(total.purchases_conversion_value, total.spend, 4),
  };
}

function budgets(state: MessagingState, campaign: CampaignRecord, counted: AdDayRecord[]) {
  const adIds = new Set(state.ads.filter((a) => a.campaign_id === campaign.campaign_id).map((a) => a.ad_id));
  let remaining: number;
  if (campaign.lifetime_budget > 0) {
    const spent = state.adDays.filter((d) => adIds.has(d.ad_id)).reduce((sum, d) => sum + d.spend, 0);
    remaining = campaign.lifetime_budget - spent;
  } else {
    const last = counted.map((d) => d.date).sort().pop();
    remaining = campaign.daily_budget - counted.filter((d) => d.date === last && adIds.has(d.ad_id)).reduce((sum, d) => sum + d.spend, 0);
  }
  return {
    budget_remaining: String(Math.max(0, remaining)),
    daily_budget: String(campaign.daily_budget),
    lifetime_budget: String(campaign.lifetime_budget),
  };
}

/** Delivery days of the page's ads inside the range (by page-local day). */
function countedDays(state: MessagingState, pageId: string, range: Range): AdDayRecord[] {
  const first = localDay(range.from);
  const last = localDay(range.to);
  const adIds = new Set(state.ads.filter((a) => a.page_id === pageId).map((a) => a.ad_id));
  return state.adDays.filter((d) => adIds.has(d.ad_id) && d.date >= first && d.date <= last);
}

export function campaignStats(state: MessagingState, pageId: string, range: Range) {
  const days = countedDays(state, pageId, range);
  return state.campaigns
    .filter((c) => c.page_id === pageId)
    .map((campaign) => {
      const adIds = new Set(state.ads.filter((a) => a.campaign_id === campaign.campaign_id).map((a) => a.ad_id));
      const mine = days.filter((d) => adIds.has(d.ad_id));
      return {
        account_id: campaign.account_id,
        campaign_id: campaign.campaign_id,
        adset_id: null,
        ad_id: null,
        name: campaign.name,
        status: campaign.status,
        currency: campaign.currency,
        ...budgets(state, campaign, days),
        ...metrics(mine),
      };
    });
}

export function adStats(state: MessagingState, pageId: string, range: Range, type: "by_id" | "by_time") {
  const days = countedDays(state, pageId, range);
  const ads = state.ads.filter((a) => a.page_id === pageId);
  if (type === "by_id") {
    return ads.map((ad) => {
      const campaign = state.campaigns.find((c) => c.campaign_id === ad.campaign_id)!;
      return {
        account_id: ad.account_id,
        campaign_id: ad.campaign_id,
        adset_id: ad.adset_id,
        ad_id: ad.ad_id,
        name: ad.name,
        status: ad.status,
        currency: ad.currency,
        ...budgets(state, campaign, days),
        ...metrics(days.filter((d) => d.ad_id === ad.ad_id)),
      };
    });
  }
  const dates = [...new Set(days.map((d) => d.date))].sort();
  return dates.map((date) => ({
    date,
    account_id: ads[0]?.account_id ?? null,
    currency: "VND",
    ...metrics(days.filter((d) => d.date === date)),
  }));
}
