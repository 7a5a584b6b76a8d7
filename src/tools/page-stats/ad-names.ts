import { PancakeError, UpstreamError } from "../../clients/errors.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { AdRecord } from "../../clients/schemas/messaging.js";
import { id } from "../../format/compact.js";
import { byDeadline } from "../../shop-index/row-index.js";
import { cachePer } from "../../state/ttl-cache.js";
import { sanitizeName } from "../../text/sanitize.js";
import type { ToolContext } from "../define.js";
import { eachStatsPage, type PageFailure, statsPages } from "./fan-out.js";

// A page's ads and campaigns by name, as its ad reports give them (get_ad_stats' source): what
// orders and chats grouped by ad or campaign are labelled with, and how an order's ad is tied to
// its campaign. A page whose reports the account cannot read is named, never guessed at.

const PERMISSION_HINT =
  "The ad statistics need an account that can view the page's ad reports on the social platform (ads read access to the ad account) and that selected this page in the ad account settings; grant that, or ask the ad account owner.";

/** One of a page's ad reports over a span (Unix s): per campaign, per ad, or per day. A refusal says what access it needs. */
export async function pageAds(client: MessagingClient, pageId: string, view: "campaigns" | "ads" | "days", span: { since: number; until: number }): Promise<AdRecord[]> {
  try {
    return view === "campaigns"
      ? await client.getCampaignStats(pageId, span)
      : await client.getAdStats(pageId, { ...span, type: view === "ads" ? "by_id" : "by_time" });
  } catch (error) {
    if (error instanceof UpstreamError && (error.status === 403 || /permission/i.test(error.upstreamMessage ?? ""))) {
      const { op, status, code, upstreamMessage, permission } = error;
      throw new UpstreamError({ op, status, code, upstreamMessage, permission, hint: PERMISSION_HINT });
    }
    throw error;
  }
}

export interface AdName {
  page_id: string;
  name?: string | undefined;
  campaign_id?: string | undefined;
  campaign?: string | undefined;
}

export interface AdNames {
  /** By ad id. */
  ads: Map<string, AdName>;
  /** Campaign names by id. */
  campaigns: Map<string, string>;
  /** Pages whose reports could not be read, and why. */
  failed: PageFailure[];
}

/** Ads named for this long back: the span the platform's reports take (get_ad_stats' longest). */
const NAMES_DAYS = 92;

const cache = cachePer<MessagingClient>("ad-names", { ttlMs: 5 * 60_000, maxEntries: 50, maxBytes: 2_000_000 });

type PageNames = { ads: [string, AdName][]; campaigns: [string, string][] };

async function pageNames(client: MessagingClient, pageId: string, until: number): Promise<PageNames> {
  const span = { since: until - NAMES_DAYS * 86_400, until };
  const [ads, campaigns] = await Promise.all([pageAds(client, pageId, "ads", span), pageAds(client, pageId, "campaigns", span)]);
  const campaignNames = new Map(campaigns.flatMap((c) => (id(c.campaign_id) && sanitizeName(c.name) ? [[id(c.campaign_id)!, sanitizeName(c.name)!] as const] : [])));
  return {
    ads: ads.flatMap((a) => {
      const adId = id(a.ad_id);
      if (adId === undefined) return [];
      const campaignId = id(a.campaign_id);
      return [[adId, { page_id: pageId, name: sanitizeName(a.name), campaign_id: campaignId, campaign: campaignId && campaignNames.get(campaignId) }]];
    }),
    campaigns: [...campaignNames],
  };
}

/**
 * The ads and campaigns of `pageIds` (every page the account holds by default) delivered in the
 * last months up to `until` (Unix s, default now), read once a few minutes; by `by` (ms) at the
 * latest: what was read by then (the rest goes on into the cache for the next answer).
 */
export async function adNames(ctx: ToolContext, pageIds: readonly string[] | undefined, by: number, until?: number): Promise<AdNames> {
  const out: AdNames = { ads: new Map(), campaigns: new Map(), failed: [] };
  // A day's names are one entry: the reports are asked for whole days.
  const end = Math.ceil((until ?? Date.now() / 1000) / 86_400) * 86_400;
  const reading = (async () => {
    const pages = statsPages(ctx, pageIds ?? (await ctx.messaging.activePageIds()));
    try {
      const { results, failed } = await eachStatsPage(ctx, pages, "ad names", (pageId) =>
        cache(ctx.messaging).get(`${pageId}/${end}`, (shared) => pageNames(shared, pageId, end)),
      );
      out.failed.push(...failed);
      for (const { value } of results) {
        for (const [adId, name] of value.ads) out.ads.set(adId, name);
        for (const [campaignId, name] of value.campaigns) out.campaigns.set(campaignId, name);
      }
    } catch (error) {
      // Every page refused: each is named with the refusal.
      if (!(error instanceof PancakeError)) throw error;
      out.failed.push(...pages.ids.map((pageId) => ({ page_id: pageId, page_name: pages.name(pageId), error: error.message })));
    }
  })();
  // Names never fail the answer they label: without them (no inbox access) ids stay.
  await byDeadline(reading, by);
  return { ads: new Map(out.ads), campaigns: new Map(out.campaigns), failed: [...out.failed] };
}
