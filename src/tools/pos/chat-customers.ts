import type { PosClient } from "../../clients/pos.js";
import type { PosCustomer, PosOrder } from "../../clients/schemas/pos.js";
import { id } from "../../format/compact.js";
import { nameWords } from "../../text/name-match.js";
import { orderItemLine, orderRow } from "../../format/orders.js";
import { normalizePhone } from "../../format/phone.js";
import { type Chat, conversationLink } from "../inbox/chat-profile.js";
import { customersByPhoneOrName } from "./customer-ref.js";

/**
 * The POS customers a chat belongs to. The customer list has no filter on the ids a chat carries
 * (the OpenAPI documents only `search`, ids, levels and dates), so candidates are searched by each
 * phone the chat captured and by the chat's name, then each is weighed on what its record carries
 * (the POS OpenAPI's Customer): `fb_id` ("Facebook ID") equal to the chat's page-scoped or global id,
 * or a `conversation_link` naming the chat's customer, is the same person (`social_id`); a phone
 * on `phone_numbers` the chat captured is very likely them (`phone`); the same name alone may be
 * anyone (`name`, never confident).
 */

type MatchedBy = "social_id" | "phone" | "name";

export interface ChatCustomer {
  customer: PosCustomer;
  matched_by: MatchedBy;
  /** False for a name alone, and for a phone several of the matches share. */
  confident: boolean;
  /** The id, phone or name that matched. */
  on: string;
}

interface ChatCustomers {
  matches: ChatCustomer[];
  /** POS customers with only the chat's name, left out because others match by id or phone. */
  namesakes: number;
}

/** Phones searched at most: a chat rarely captures more than two or three. */
const PHONES = 5;
const RANK: Record<MatchedBy, number> = { social_id: 0, phone: 1, name: 2 };

type Loose = Record<string, unknown>;

/** The same name, accents, case and spacing aside: "Nguyen Thi Lan" is "Nguyễn Thị Lan", "Lan" is not. */
const sameName = (a: string | null | undefined, b: string | undefined) => !!a && !!b && nameWords(a).join(" ") === nameWords(b).join(" ") && nameWords(a).length > 0;

/** The chat id a POS record carries, if it carries one. */
function socialId(c: PosCustomer, chat: Chat): string | undefined {
  const raw = c as Loose;
  const fbId = id(raw.fb_id);
  if (fbId && (fbId === chat.psid || fbId === chat.globalId)) return fbId;
  const linked = conversationLink(raw.conversation_link)?.customer;
  return linked && (linked === chat.customerId || linked === chat.pageCustomerId) ? linked : undefined;
}

export async function chatCustomers(pos: PosClient, shopId: string, chat: Chat): Promise<ChatCustomers> {
  const phones = chat.phones.slice(0, PHONES);
  const searches = [...phones, ...(chat.name ? [chat.name] : [])];
  const found = new Map<string, PosCustomer>();
  for (const list of await Promise.all(searches.map((text) => customersByPhoneOrName(pos, shopId, text)))) {
    for (const c of list) found.set(String(c.id), c);
  }
  const phonesOf = (c: PosCustomer) => (c.phone_numbers ?? []).map((p) => normalizePhone(p));
  const holders = (phone: string) => [...found.values()].filter((c) => phonesOf(c).includes(phone)).length;
  const weighed = [...found.values()].flatMap((customer): ChatCustomer[] => {
    const named = sameName(customer.name, chat.name);
    const social = socialId(customer, chat);
    if (social) return [{ customer, matched_by: "social_id", confident: true, on: social }];
    const phone = phones.find((p) => phonesOf(customer).includes(p));
    if (phone) return [{ customer, matched_by: "phone", confident: holders(phone) === 1 || named, on: phone }];
    return named ? [{ customer, matched_by: "name", confident: false, on: customer.name ?? "" }] : [];
  });
  const recent = (c: ChatCustomer) => String((c.customer as Loose).last_order_at ?? "");
  weighed.sort((a, b) => RANK[a.matched_by] - RANK[b.matched_by] || recent(b).localeCompare(recent(a)));
  const strong = weighed.filter((m) => m.matched_by !== "name");
  return strong.length ? { matches: strong, namesakes: weighed.length - strong.length } : { matches: weighed, namesakes: 0 };
}

/** Orders shown per customer: enough for "what did she last buy" and "is an order still open". */
const LATEST_ORDERS = 3;

/** A customer's latest orders, newest first: number, date, status, amount and what was in them. */
export async function latestOrders(pos: PosClient, shopId: string, customerId: string, timeZone: string) {
  const page = await pos.listOrders(shopId, { customer_id: customerId, page_size: LATEST_ORDERS, option_sort: "inserted_at_desc" });
  return page.data.map((o: PosOrder) => {
    const row = orderRow(o, timeZone);
    const items = (o.items ?? []).map(orderItemLine).map((l) => `${l.name ?? l.sku ?? "?"}${l.variant ? ` (${l.variant})` : ""} ×${l.quantity ?? 0}`);
    return { number: row.number, created_at: row.created_at, status_name: row.status_name, amount: row.amount, items };
  });
}
