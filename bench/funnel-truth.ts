import { normalizePhone } from "../src/format/phone.js";
import type { Sandbox } from "../src/sandbox/index.js";
import type { ConversationRecord, PageCustomerRecord } from "../src/sandbox/messaging/types.js";
import type { OrderRecord } from "../src/sandbox/pos/types.js";
import type { Truth } from "./data-truth.js";

// The chat-to-order funnel's answers (issue 40) from the sandbox's raw records, joined as the tests
// join them (test/helpers/chat-sales.ts): an order is a chat's when it names the chat, when its
// customer's social id is one of the chat's customer's (the chat's own ids, the global id their page
// customer holds, that person's psid on every page), or when its bill phone is one the chat caught
// or any page customer with the same global id holds; never by name. Indexed by key, not scanned
// per chat: a 100x shop has tens of thousands of each.

const at = (recordTime: string) => Date.parse(`${recordTime.slice(0, 23)}Z`);
const second = (recordTime: string) => Math.floor(at(recordTime) / 1000);
/** Sales: orders listed, neither canceled (6) nor deleted (7). */
export const isSale = (o: OrderRecord) => !o.is_removed && o.status !== 6 && o.status !== 7;

function push<K, V>(map: Map<K, V[]>, key: K | undefined | null, value: V): void {
  if (key === undefined || key === null || key === "") return;
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface ChatJoin {
  /** The orders (of those joined) linked to the chat, each once. */
  ordersOf(c: ConversationRecord): OrderRecord[];
  /** Who the chat is with on every page: the global id its page customer holds, else its psid. */
  personOf(c: ConversationRecord): string;
}

/** Joins chats to `orders` (the sales, the open orders) by the reference's keys. */
export function chatJoin(sandbox: Sandbox, orders: readonly OrderRecord[]): ChatJoin {
  const customers = sandbox.messaging.customers;
  const byPsid = new Map<string, PageCustomerRecord>(customers.map((p) => [`${p.page_id}/${p.psid}`, p]));
  const byGlobal = new Map<string, PageCustomerRecord[]>();
  for (const p of customers) push(byGlobal, p.global_id, p);
  const byChat = new Map<string, OrderRecord[]>();
  const bySocial = new Map<string, OrderRecord[]>();
  const byPhone = new Map<string, OrderRecord[]>();
  for (const o of orders) {
    push(byChat, o.conversation_id, o);
    push(bySocial, o.customer?.fb_id, o);
    push(byPhone, normalizePhone(o.bill_phone_number), o);
  }
  const own = (c: ConversationRecord) => [c.customers[0]?.fb_id, c.from_psid, c.from?.id].filter((x): x is string => !!x);
  const profileOf = (c: ConversationRecord) => {
    const psid = own(c)[0];
    return psid === undefined ? undefined : byPsid.get(`${c.page_id}/${psid}`);
  };
  return {
    ordersOf(c) {
      const profile = profileOf(c);
      const global = profile?.global_id ?? undefined;
      // One person, one global id: their psids and the phones they left on every page.
      const same = global ? (byGlobal.get(global) ?? []) : profile ? [profile] : [];
      const socials = new Set([...own(c), ...(global ? [global, ...same.map((p) => p.psid)] : [])]);
      const caught = [...c.recent_phone_numbers.map((p) => p.phone_number), ...same.flatMap((p) => p.phone_numbers ?? [])];
      const phones = new Set(caught.map((p) => normalizePhone(p)).filter((p): p is string => !!p));
      const found = new Set([...(byChat.get(c.id) ?? []), ...[...socials].flatMap((s) => bySocial.get(s) ?? []), ...[...phones].flatMap((p) => byPhone.get(p) ?? [])]);
      return [...found];
    },
    personOf: (c) => profileOf(c)?.global_id ?? own(c)[0] ?? `chat ${c.id}`,
  };
}

/** When the customer last wrote in the chat (UTC ms), from its messages. */
function customerWroteAt(sandbox: Sandbox, c: ConversationRecord): number | undefined {
  const theirs = (sandbox.messaging.messages[c.id] ?? []).filter((m) => m.from.admin_id === undefined && m.from.id !== c.page_id);
  const last = theirs.at(-1);
  return last ? at(last.inserted_at) : undefined;
}

/** The chats of `pageId` whose customer last wrote within [sinceMs, untilMs) and who never bought: per page, with the people they are with. */
export function neverOrdered(sandbox: Sandbox, pageId: string, sinceMs: number, untilMs: number): Truth {
  const join = chatJoin(sandbox, sandbox.pos.orders.filter(isSale));
  const never = sandbox.messaging.conversations.filter((c) => {
    if (c.page_id !== pageId || c.is_removed) return false;
    const wrote = customerWroteAt(sandbox, c);
    return wrote !== undefined && wrote >= sinceMs && wrote < untilMs && join.ordersOf(c).length === 0;
  });
  const people = new Set(never.map(join.personOf)).size;
  return { groups: never.length ? { [pageId]: { count: never.length, people } } : {}, total: never.length, people };
}

/**
 * The chats of every active page begun within [sinceMs, untilMs), per page: how many, the people,
 * those whose customer bought within `days` of the chat's start (the order created from the chat's
 * second to `days` days after it, both ends in), the people who did, and those orders once each with
 * their amount (test/tools/inbox/conversion.test.ts counts them so).
 */
export function conversion(sandbox: Sandbox, sinceMs: number, untilMs: number, days: number): Truth {
  const join = chatJoin(sandbox, sandbox.pos.orders.filter(isSale));
  const active = new Set(sandbox.messaging.pages.map((p) => p.id));
  const tally = new Map<string, { count: number; ordered: number; people: Set<string>; buyers: Set<string>; orders: Map<number | string, number> }>();
  const all = { count: 0, ordered: 0, people: new Set<string>(), buyers: new Set<string>(), orders: new Map<number | string, number>() };
  for (const c of sandbox.messaging.conversations) {
    if (!active.has(c.page_id) || c.is_removed) continue;
    const begun = at(c.inserted_at);
    if (!(begun >= sinceMs && begun < untilMs)) continue;
    const start = second(c.inserted_at);
    const sales = join.ordersOf(c).filter((o) => second(o.inserted_at) >= start && second(o.inserted_at) <= start + days * 86_400);
    const person = join.personOf(c);
    const g = tally.get(c.page_id) ?? { count: 0, ordered: 0, people: new Set<string>(), buyers: new Set<string>(), orders: new Map<number | string, number>() };
    tally.set(c.page_id, g);
    for (const t of [g, all]) {
      t.count++;
      t.people.add(person);
      if (sales.length) {
        t.ordered++;
        t.buyers.add(person);
      }
      for (const o of sales) t.orders.set(o.id, o.total_price_after_sub_discount);
    }
  }
  const figures = (t: typeof all) => ({
    count: t.count,
    people: t.people.size,
    ordered: t.ordered,
    people_ordered: t.buyers.size,
    orders: t.orders.size,
    amount: [...t.orders.values()].reduce((a, b) => a + b, 0),
  });
  const { count, ...totals } = figures(all);
  return { groups: Object.fromEntries([...tally].map(([pageId, t]) => [pageId, figures(t)])), total: count, ...totals };
}

/** Every active page's customers, per page id: what the join's page-customer walk reads (src/tools/inbox/page-people.ts). */
export function pageCustomers(sandbox: Sandbox): Truth {
  const active = new Set(sandbox.messaging.pages.map((p) => p.id));
  const groups: Truth["groups"] = {};
  for (const p of sandbox.messaging.customers) if (active.has(p.page_id)) groups[p.page_id] = { count: (groups[p.page_id]?.count ?? 0) + 1 };
  return { groups, total: Object.values(groups).reduce((n, g) => n + g.count, 0) };
}
