import type { Sandbox } from "../src/sandbox/index.js";
import type { ConversationRecord } from "../src/sandbox/messaging/types.js";
import type { OrderRecord } from "../src/sandbox/pos/types.js";
import type { Truth, TruthQuestion } from "./data-truth.js";
import { chatJoin } from "./funnel-truth.js";

// The merchant's questions' answers from the sandbox's raw records, counted as the tests count
// them at the demo's size (test/tools/orders/merchant-questions.test.ts,
// test/tools/inbox/open-orders.test.ts), never from the server's code.

type Merchant = Extract<TruthQuestion, { kind: "first-buyers" | "unsold" | "returns" | "posts" | "open-order-chats" }>;

const at = (recordTime: string) => Date.parse(`${recordTime.slice(0, 23)}Z`);
const voided = (o: OrderRecord) => o.status === 6 || o.status === 7;
const buyer = (o: OrderRecord) => o.shop_customer_id ?? o.customer?.id ?? o.bill_phone_number.replace(/\D/g, "");
/** Not yet delivered: new, waiting_for_confirmation, waiting_for_goods, ordered, confirmed, waiting_to_print, printed, packing, waiting_to_ship, shipped. */
const UNDELIVERED = new Set([0, 17, 11, 20, 1, 12, 13, 8, 9, 2]);

export function merchantTruth(sandbox: Sandbox, question: Merchant): Truth {
  const live = sandbox.pos.orders.filter((o) => !o.is_removed);
  switch (question.kind) {
    case "first-buyers": {
      const first = new Map<string, number>();
      for (const o of live) if (!voided(o)) first.set(buyer(o), Math.min(first.get(buyer(o)) ?? Number.POSITIVE_INFINITY, at(o.inserted_at)));
      return { groups: {}, total: [...first.values()].filter((t) => t >= question.sinceMs).length };
    }
    case "unsold": {
      const sold = new Set(live.filter((o) => !voided(o) && at(o.inserted_at) >= question.sinceMs).flatMap((o) => o.items.map((i) => i.variation_id)));
      return { groups: {}, total: sandbox.pos.variations.filter((v) => !sold.has(v.id)).length };
    }
    case "returns": {
      const reached = (o: OrderRecord, status: number) => o.status_history.find((s) => s.status === status)?.updated_at;
      const back = live.filter((o) => (o.status === 5 || o.status === 15) && at(reached(o, 5) ?? reached(o, o.status) ?? "1970-01-01") >= question.sinceMs);
      const groups: Truth["groups"] = {};
      for (const o of back) {
        const name = o.status === 5 ? "returned" : "partly_returned";
        const group = groups[name] ?? { count: 0, amount: 0 };
        groups[name] = group;
        group.count++;
        group.amount! += returnedValue(o);
      }
      return { groups, total: back.length };
    }
    case "posts": {
      const groups: Truth["groups"] = {};
      for (const o of live) {
        if (voided(o) || !o.post_id || at(o.inserted_at) < question.sinceMs) continue;
        groups[o.post_id] = { count: (groups[o.post_id]?.count ?? 0) + 1 };
      }
      return { groups, total: Object.values(groups).reduce((n, g) => n + g.count, 0) };
    }
    case "open-order-chats": {
      const join = chatJoin(sandbox, live.filter((o) => UNDELIVERED.has(o.status)));
      const chats = waiting(sandbox, question.pageId, question.waitedMs).filter((c) => join.ordersOf(c).length > 0);
      return { groups: {}, total: chats.length };
    }
  }
}

/** What came back of an order: a returned one whole, a partly returned one its returned lines at its amount's share of its lines' value. */
function returnedValue(o: OrderRecord): number {
  if (o.status === 5) return o.total_price_after_sub_discount;
  const unit = (i: OrderRecord["items"][number]) => i.variation_info.retail_price - i.discount_each_product;
  const whole = o.items.reduce((n, i) => n + i.quantity * unit(i), 0);
  const returned = o.items.reduce((n, i) => n + i.returned_count * unit(i), 0);
  return Math.round((o.total_price_after_sub_discount * returned) / whole);
}

/** The page's conversations whose last message is the customer's, written at least `waitedMs` ago. */
function waiting(sandbox: Sandbox, pageId: string, waitedMs: number): ConversationRecord[] {
  const m = sandbox.messaging;
  return m.conversations.filter((c) => {
    const last = m.messages[c.id]?.at(-1);
    const since = at(c.last_customer_interactive_at ?? c.updated_at);
    return c.page_id === pageId && !c.is_removed && !!last && last.from.admin_id === undefined && Date.now() - since >= waitedMs;
  });
}
