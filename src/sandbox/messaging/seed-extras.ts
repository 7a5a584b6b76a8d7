import type { Random } from "../random.js";
import { POST_LINES } from "./text.js";
import { busyHourOf, DAY_MS, iso, LOCAL_OFFSET_MS, localIso } from "./time.js";
import type {
  AdDayRecord,
  AdRecord,
  CallLogRecord,
  CampaignRecord,
  PageRecord,
  PostRecord,
  StaffUser,
} from "./types.js";

/** Posts of one page, oldest first; page 0 also runs livestreams. */
export function seedPosts(rng: Random, page: PageRecord, count: number, staff: StaffUser[], now: number): PostRecord[] {
  const posts: PostRecord[] = [];
  for (let i = 0; i < count; i++) {
    const at = now - Math.round(((count - i) / count) * 88 * DAY_MS) + rng.int(0, 3_600_000);
    const live = page.platform === "facebook" && i % 7 === 3;
    const type = live ? "livestream" : rng.pick(["photo", "photo", "video", "text"] as const);
    const fbid = `${1_000_000_000_000 + i * 7919 + rng.int(0, 7000)}`;
    const author = rng.pick(staff);
    posts.push({
      id: `${page.id}_${fbid}`,
      page_id: page.id,
      from: { id: page.id, name: page.name },
      message: live ? "Livestream xả kho tối nay 20h" : rng.pick(POST_LINES),
      story: null,
      type,
      status_type: live ? "added_video" : type === "text" ? "mobile_status_update" : "added_photos",
      inserted_at: iso(at),
      like_count: rng.int(5, 900),
      link: `https://www.facebook.com/${page.id}/posts/${fbid}`,
      privacy: "EVERYONE",
      attachments: type === "photo" ? [{ type: "photo", url: `https://cdn.sandbox.example/posts/${fbid}.jpg` }] : [],
      admin_creator: { id: author.id, name: author.name },
      live_video_status: live ? "VOD" : null,
      delete_comment: false,
      hide_comment: false,
      ignore_comment: false,
      is_removed: false,
    });
  }
  return posts;
}

/** The page's call-centre number (the other end of every call). */
const HOTLINE = "02873001234";

/** Calls a day over the last week and the 53 days before it, at the hours a shop is busy. */
export interface CallVolume {
  lastWeek: number;
  before: number;
}

export function seedCallLogs(
  rng: Random,
  page: PageRecord,
  phones: string[],
  staff: StaffUser[],
  now: number,
  volume: CallVolume,
): CallLogRecord[] {
  const logs: CallLogRecord[] = [];
  const times: number[] = [];
  for (let day = 0; day < 60; day++) {
    const perDay = day < 7 ? volume.lastWeek : volume.before;
    // A call of today's after now comes on an earlier day: the same calls at any time of day.
    for (let n = rng.int(Math.ceil(perDay / 2), Math.floor(perDay * 1.5)); n > 0; n--) times.push(busyHourOf(rng, now - day * DAY_MS, now - 15 * 60_000));
  }
  for (const created of times) {
    const direction = rng.chance(0.5) ? "outbound" : "inbound";
    // Staff busy in a chat miss a call now and then; a customer called back often does not pick up.
    const answered = rng.chance(direction === "inbound" ? 0.7 : 0.75) ? created + rng.int(4, 25) * 1000 : null;
    const hangup = answered === null ? created + rng.int(15, 45) * 1000 : answered + rng.int(20, 600) * 1000;
    const id = rng.uuid();
    const clientType = rng.chance(0.7) ? "web" : "mobile";
    const clientHangup = rng.chance(0.5);
    const phone = rng.pick(phones);
    logs.push({
      id,
      call_id: id,
      caller: direction === "inbound" ? phone : HOTLINE,
      callee: direction === "inbound" ? HOTLINE : phone,
      start_time: iso(created),
      duration: answered === null ? 0 : Math.round((hangup - answered) / 1000),
      status: answered === null ? "missed" : "completed",
      page_id: page.id,
      type: "call",
      direction,
      client_type: clientType,
      client_hangup: clientHangup,
      created_time: iso(created),
      answered_time: answered === null ? null : iso(answered),
      hangup_time: iso(hangup),
      phone_number: phone,
      employee_name: rng.pick(staff).name,
      record_file: answered === null ? null : `https://records.sandbox.example/${id}.mp3`,
    });
  }
  return logs.sort((a, b) => b.created_time.localeCompare(a.created_time));
}

export interface AdSeed {
  campaigns: CampaignRecord[];
  ads: AdRecord[];
  adDays: AdDayRecord[];
}

/** Delivery figures that grow with spend; a budget scales them together (purchases stay as drawn). */
const VOLUME = ["impressions", "reach", "link_click", "spend", "messaging_conversation_started_7d", "messaging_first_reply"] as const;

/**
 * A campaign's delivery paced to its budget, as the platform spends it: a daily budget 75 to
 * 100% spent a day (the best day fully; today in proportion to the hours gone), a lifetime budget
 * 90% spent before the campaign was paused. Each day keeps the shape of its draws, scaled.
 */
function paceToBudget(campaign: CampaignRecord, days: AdDayRecord[], now: number): void {
  const spendOf = new Map<string, number>();
  for (const d of days) spendOf.set(d.date, (spendOf.get(d.date) ?? 0) + d.spend);
  const best = Math.max(...spendOf.values());
  const today = localIso(now).slice(0, 10);
  const dayGone = (now - Date.parse(`${today}T00:00:00Z`) + LOCAL_OFFSET_MS) / DAY_MS;
  const lifetimeScale = (0.9 * campaign.lifetime_budget) / [...spendOf.values()].reduce((a, b) => a + b, 0);
  for (const d of days) {
    const drawn = spendOf.get(d.date)!;
    const scale =
      campaign.lifetime_budget > 0
        ? lifetimeScale
        : (campaign.daily_budget * (0.75 + (0.25 * drawn) / best) * (d.date === today ? dayGone : 1)) / drawn;
    for (const k of VOLUME) d[k] = Math.floor(d[k] * scale);
  }
}

/** Two campaigns of three ads per page, delivering daily over the last 45 days within their budgets. */
export function seedAds(rng: Random, page: PageRecord, now: number): AdSeed {
  const out: AdSeed = { campaigns: [], ads: [], adDays: [] };
  const account = `act_${rng.int(100_000_000, 999_999_999)}`;
  const names = ["Tin nhắn - Váy hè", "Chuyển đổi - Áo sơ mi"];
  names.forEach((campaignName, c) => {
    const campaignId = `2385${rng.int(10_000_000, 99_999_999)}${c}`;
    const paused = c === 1;
    out.campaigns.push({
      account_id: account,
      campaign_id: campaignId,
      page_id: page.id,
      name: campaignName,
      status: paused ? "PAUSED" : "ACTIVE",
      currency: "VND",
      daily_budget: paused ? 0 : 500_000,
      lifetime_budget: paused ? 10_000_000 : 0,
    });
    const adsetId = `${campaignId}1`;
    const delivered: AdDayRecord[] = [];
    for (let a = 0; a < 3; a++) {
      const ad: AdRecord = {
        account_id: account,
        campaign_id: campaignId,
        adset_id: adsetId,
        ad_id: `${adsetId}${a}${rng.int(1000, 9999)}`,
        page_id: page.id,
        name: `${campaignName} - mẫu ${a + 1}`,
        status: paused ? "PAUSED" : "ACTIVE",
        currency: "VND",
      };
      out.ads.push(ad);
      const stopDay = paused ? 10 : 0;
      for (let d = 45; d >= stopDay; d--) {
        const impressions = rng.int(400, 8000);
        const clicks = Math.round(impressions * (0.008 + rng.next() * 0.025));
        const started = Math.round(clicks * (0.2 + rng.next() * 0.2));
        // About one drawn conversation in ninety ends in a purchase the platform attributes to the
        // ad: a few a week per page, below the orders the shop's POS takes from every channel.
        const purchases = rng.chance(started / 90) ? 1 : 0;
        delivered.push({
          ad_id: ad.ad_id,
          date: localIso(now - d * DAY_MS).slice(0, 10),
          impressions,
          reach: Math.round(impressions * (0.6 + rng.next() * 0.3)),
          link_click: clicks,
          spend: clicks * rng.int(1500, 4000),
          messaging_conversation_started_7d: started,
          messaging_first_reply: Math.round(started * 0.8),
          post_comments: rng.int(0, 12),
          purchases,
          purchases_conversion_value: purchases * rng.int(35, 150) * 10_000,
        });
      }
    }
    paceToBudget(out.campaigns.at(-1)!, delivered, now);
    out.adDays.push(...delivered);
  });
  return out;
}
