import type { Sandbox } from "../src/sandbox/index.js";
import type { OrderRecord } from "../src/sandbox/pos/types.js";
import { conversion, neverOrdered, pageCustomers } from "./funnel-truth.js";
import { merchantTruth } from "./merchant-truth.js";

// The answers the data-scale questions must give, counted from the sandbox's raw records in its
// own process, as the tests count them (test/tools/orders/order-groups.test.ts and
// test/tools/inbox/conversation-search.test.ts), never from the server's code.

export type OrderKey = "province" | "carrier" | "status" | "seller";

export type TruthQuestion =
  /** Orders created from `sinceMs` on, per group of `keys` (labels joined by "|"). */
  | { kind: "orders"; keys: OrderKey[]; sinceMs: number }
  /** Conversations whose last message is the customer's, all time, per page id. */
  | { kind: "awaiting" }
  /** Conversations begun from `sinceMs` to before `untilMs`, per page id. */
  | { kind: "created"; sinceMs: number; untilMs: number }
  /** Every conversation (updated from `updatedSinceMs` on, where given), per page id: what bounds reading a page's list, newest activity first. */
  | { kind: "conversations"; updatedSinceMs?: number }
  /** The merchant's questions (issue 34), counted as test/tools/orders/merchant-questions.test.ts and test/tools/inbox/open-orders.test.ts count them. */
  | { kind: "first-buyers"; sinceMs: number }
  | { kind: "unsold"; sinceMs: number }
  | { kind: "returns"; sinceMs: number }
  | { kind: "posts"; sinceMs: number }
  | { kind: "open-order-chats"; pageId: string; waitedMs: number }
  /** The chat-to-order funnel (issue 40), joined as test/helpers/chat-sales.ts joins (funnel-truth.ts). */
  | { kind: "never-ordered"; pageId: string; sinceMs: number; untilMs: number }
  | { kind: "conversion"; sinceMs: number; untilMs: number; days: number }
  /** Every active page's customers, per page id (what the funnel's join reads). */
  | { kind: "page-customers" };

/** A group's figures: what it counts (orders, or conversations), for orders their amount; for the funnel the people and the sales. */
export interface Figures {
  count: number;
  amount?: number;
  people?: number;
  ordered?: number;
  people_ordered?: number;
  orders?: number;
}

export interface Truth {
  /** Label -> what the group counts (orders, or conversations) and, for orders, their amount. */
  groups: Record<string, Figures>;
  /** Every match, those left out of the groups' figures among them. */
  total: number;
  /** The funnel's figures over every match. */
  people?: number;
  ordered?: number;
  people_ordered?: number;
  orders?: number;
  amount?: number;
}

const NONE = "(none)";
const at = (recordTime: string) => Date.parse(`${recordTime.slice(0, 23)}Z`);

export function truth(sandbox: Sandbox, question: TruthQuestion): Truth {
  switch (question.kind) {
    case "orders":
      return orderTruth(sandbox, question.keys, question.sinceMs);
    case "created":
      return conversationTruth(sandbox, false, [question.sinceMs, question.untilMs]);
    case "awaiting":
      return conversationTruth(sandbox, true);
    case "conversations":
      return conversationTruth(sandbox, false, undefined, question.updatedSinceMs);
    case "never-ordered":
      return neverOrdered(sandbox, question.pageId, question.sinceMs, question.untilMs);
    case "conversion":
      return conversion(sandbox, question.sinceMs, question.untilMs, question.days);
    case "page-customers":
      return pageCustomers(sandbox);
    default:
      return merchantTruth(sandbox, question);
  }
}

function orderTruth(sandbox: Sandbox, keys: OrderKey[], sinceMs: number): Truth {
  const { pos } = sandbox;
  const oldProvinces = new Map(pos.geo.provinces.map((p) => [p.id, p]));
  const newNames = new Map(pos.geo.newProvinces.map((p) => [p.id, p.name]));
  const staff = new Map(pos.users.map((u) => [u.id, u.name]));
  const carriers = new Map(pos.partners.map((p) => [p.id, p.name]));
  const label: Record<OrderKey, (o: OrderRecord) => string> = {
    province: (o) => newNames.get(o.shipping_address.new_province_id || oldProvinces.get(o.shipping_address.province_id)?.new_id || "") ?? NONE,
    carrier: (o) => (o.partner ? (carriers.get(o.partner.partner_id) ?? NONE) : NONE),
    status: (o) => o.status_name,
    seller: (o) => (o.assigning_seller_id ? (staff.get(o.assigning_seller_id) ?? NONE) : NONE),
  };
  const matched = pos.orders.filter((o) => !o.is_removed && at(o.inserted_at) >= sinceMs);
  // Canceled (6) and deleted (7) are no sale: out of the groups unless grouped by status.
  const counted = keys.includes("status") ? matched : matched.filter((o) => o.status !== 6 && o.status !== 7);
  const groups: Truth["groups"] = {};
  for (const o of counted) {
    const key = keys.map((k) => label[k](o)).join("|");
    const group = groups[key] ?? { count: 0, amount: 0 };
    groups[key] = group;
    group.count++;
    group.amount! += o.total_price_after_sub_discount;
  }
  return { groups, total: matched.length };
}

function conversationTruth(sandbox: Sandbox, awaiting: boolean, created?: [number, number], updatedSince?: number): Truth {
  const state = sandbox.messaging;
  const active = new Set(state.pages.map((p) => p.id));
  const groups: Truth["groups"] = {};
  let total = 0;
  for (const c of state.conversations) {
    if (!active.has(c.page_id)) continue;
    if (created && !(at(c.inserted_at) >= created[0] && at(c.inserted_at) < created[1])) continue;
    if (updatedSince !== undefined && at(c.updated_at) < updatedSince) continue;
    const last = state.messages[c.id]?.at(-1);
    if (awaiting && (!last || last.from.admin_id !== undefined)) continue;
    groups[c.page_id] = { count: (groups[c.page_id]?.count ?? 0) + 1 };
    total++;
  }
  return { groups, total };
}
