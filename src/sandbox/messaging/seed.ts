import { madeFromChat, type Person } from "../people.js";
import { Random } from "../random.js";
import { type CallVolume, seedAds, seedCallLogs, seedPosts } from "./seed-extras.js";
import { seedHostile } from "./seed-hostile.js";
import { type InboxSeed, type PageSeedContext, seedConversations, seedCustomers } from "./seed-inbox.js";
import { STAFF_NAMES, TAG_NAMES } from "./text.js";
import { DAY_MS, iso } from "./time.js";
import type { MessagingState, PageRecord, StaffUser, TagRecord } from "./types.js";

interface PagePlan {
  id: string;
  name: string;
  platform: PageRecord["platform"];
  /** Indexes into the people pool, as [from, to). */
  people: [number, number];
  conversations: number;
  posts: number;
  staff: number[];
}

const PLANS: PagePlan[] = [
  { id: "105828195781234", name: "Thời Trang Mây", platform: "facebook", people: [0, 200], conversations: 200, posts: 20, staff: [0, 1, 2, 3, 4, 5, 6, 7] },
  { id: "112233445566778", name: "Mây Kids - Đồ trẻ em", platform: "facebook", people: [120, 280], conversations: 110, posts: 12, staff: [0, 1, 2, 5, 6] },
  { id: "igo_17841400123456789", name: "maystore.vn", platform: "instagram_official", people: [200, 320], conversations: 70, posts: 8, staff: [0, 3, 4, 7] },
];

/** The shop's own pages (the POS sells through them); branch pages follow them in the page list. */
export const MAIN_PAGE_COUNT = PLANS.length;

/** Small branch pages added for fan-out benchmarks; the three main pages stay as they are. */
function branchPlans(count: number): PagePlan[] {
  return Array.from({ length: count }, (_, k) => ({
    id: String(130_000_000_000_000 + k),
    name: `Mây Chi Nhánh ${k + 1}`,
    platform: "facebook" as const,
    people: [(k * 20) % 300, ((k * 20) % 300) + 20] as [number, number],
    conversations: 20,
    posts: 2,
    staff: [0, 1, 2],
  }));
}

/** Builds the whole messaging data set from fixed seeds; times are relative to ctx.now. */
export function seedMessaging(ctx: { now: Date; people: Person[]; extraPages?: number | undefined; hostile?: boolean | undefined }): MessagingState {
  const now = ctx.now.getTime();
  const rng = new Random(0x6d657373);
  const plans = [...PLANS, ...branchPlans(ctx.extraPages ?? 0)];
  const pages = plans.map((plan, i) => makePage(rng, plan.id, plan.name, plan.platform, now - (400 + i * 30) * DAY_MS));
  const inactivePages = [makePage(rng, "109876543210987", "Mây Outlet (ngừng bán)", "facebook", now - 700 * DAY_MS)];
  inactivePages[0]!.is_activated = false;
  const staff = makeStaff(rng, pages, plans);
  for (const page of pages) {
    page.users = staff
      .filter((s) => s.page_ids.includes(page.id))
      .map((s) => ({ user_id: s.id, name: s.name, fb_id: s.fb_id, status: s.disabled_page_ids.includes(page.id) ? "removed" : "active" }));
  }
  const byPsid = new Map(ctx.people.map((p) => [p.psid, p]));
  const out: InboxSeed = { conversations: [], messages: {}, customers: [], privateReplies: [], begun: {} };
  const state: MessagingState = {
    now: ctx.now,
    userToken: `ut_${rng.hex(40)}`,
    ownerId: staff[0]!.id,
    pages,
    inactivePages,
    staff,
    tags: {},
    conversations: out.conversations,
    messages: out.messages,
    customers: out.customers,
    posts: [],
    callLogs: [],
    sipPackages: {},
    campaigns: [],
    ads: [],
    adDays: [],
    adsDeniedPageId: pages[2]!.id,
    privateReplies: out.privateReplies,
    begun: out.begun,
    hostileConversationIds: [],
    uploads: {},
    sequence: 0,
  };
  plans.forEach((plan, i) => {
    const page = pages[i]!;
    // One generator per page: changing one page's plan leaves the others' data as it was.
    const pageRng = new Random(0x70616765 + i * 7919);
    const pageStaff = staff.filter((s) => s.page_ids.includes(page.id) && !s.disabled_page_ids.includes(page.id));
    const tags = makeTags();
    state.tags[page.id] = tags;
    const posts = seedPosts(pageRng, page, plan.posts, pageStaff, now);
    state.posts.push(...posts);
    const adIds: string[] = [];
    if (page.id !== state.adsDeniedPageId) {
      const ads = seedAds(pageRng, page, now);
      state.campaigns.push(...ads.campaigns);
      state.ads.push(...ads.ads);
      state.adDays.push(...ads.adDays);
      adIds.push(...ads.ads.map((a) => a.ad_id));
    }
    const seedCtx: PageSeedContext = { rng: pageRng, page, staff: pageStaff, tags, posts, adIds, now, out };
    const customers = seedCustomers(seedCtx, ctx.people.slice(...plan.people));
    out.customers.push(...customers);
    seedConversations(seedCtx, customers, byPsid, plan.conversations, chatsOwed(ctx.people, i));
    // Its own generator: the shop's other data is the same with or without the attacker.
    if (i === 0 && ctx.hostile) state.hostileConversationIds = seedHostile({ ...seedCtx, rng: new Random(0x686f7374) });
    const calls = CALL_CENTERS[i];
    if (calls !== undefined) {
      const callRng = new Random(0x63616c6c + i);
      state.sipPackages[page.id] = `sip_${callRng.hex(16)}`;
      const phones = customers.flatMap((c) => c.phone_numbers);
      state.callLogs.push(...seedCallLogs(callRng, page, phones, pageStaff, now, calls));
    }
  });
  state.callLogs.sort((a, b) => b.created_time.localeCompare(a.created_time));
  return state;
}

/**
 * The psids of the people whose POS record was made from their chat on the page of PLANS[page]:
 * the first of the shop's pages they write to, which the record's conversation_link names.
 */
function chatsOwed(people: Person[], page: number): Set<string> {
  const firstPage = (index: number) => PLANS.findIndex((p) => index >= p.people[0] && index < p.people[1]);
  return new Set(people.filter((p) => madeFromChat(p) && firstPage(p.index) === page).map((p) => p.psid));
}

/** Calls a day of the pages with a call centre: the first two pages have one, the third (Instagram) none. */
const CALL_CENTERS: CallVolume[] = [
  { lastWeek: 20, before: 5 },
  { lastWeek: 8, before: 2 },
];

function makePage(rng: Random, id: string, name: string, platform: PageRecord["platform"], created: number): PageRecord {
  return {
    id,
    name,
    platform,
    avatar_url: `https://cdn.sandbox.example/pages/${id}.jpg`,
    is_activated: true,
    timezone: 7,
    inserted_at: iso(created),
    settings: { page_access_token: `pat_${rng.hex(32)}`, auto_create_order: false },
    users: [],
  };
}

function makeStaff(rng: Random, pages: PageRecord[], plans: PagePlan[]): StaffUser[] {
  return STAFF_NAMES.map((name, i) => {
    const ascii = name
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/đ/g, "d")
      .replace(/Đ/g, "D")
      .toLowerCase()
      .split(" ");
    return {
      id: rng.uuid(),
      name,
      email: `${ascii[ascii.length - 1]}.${ascii[0]}${i}@maystore.vn`,
      fb_id: String(100_000_000_000_000 + rng.int(0, 99_999_999_999)),
      status: (["available", "busy", "offline"] as const)[i % 3]!,
      is_online: i % 3 !== 2,
      page_ids: pages.filter((_, p) => plans[p]!.staff.includes(i)).map((p) => p.id),
      // One former employee: still listed on the first page, but disabled there.
      disabled_page_ids: i === 7 ? [pages[0]!.id] : [],
    };
  });
}

/** Tag ids are page-local and start at 1, as the live tag list numbers them. */
function makeTags(): TagRecord[] {
  return TAG_NAMES.map(([text, color], i) => ({
    id: i + 1,
    text,
    color,
    lighten_color: lighten(color),
    ...(i < 3 ? { description: `Gắn khi hội thoại ở trạng thái "${text}"` } : {}),
  }));
}

/** The color mixed 75% with white, as the inbox shows tag backgrounds. */
function lighten(hex: string): string {
  const channel = (i: number) => {
    const value = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
    return Math.round(value + (255 - value) * 0.75)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}
