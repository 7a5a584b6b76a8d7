import { ConfigError, InputError } from "../../clients/errors.js";
import type { Conversation } from "../../clients/schemas/messaging.js";
import type { PosOrder } from "../../clients/schemas/pos.js";
import { DEFAULT_CURRENCY } from "../../format/orders.js";
import { askAgainIn, readingOut } from "../../format/reading.js";
import { toIsoInZone } from "../../format/time.js";
import { conversationKeys } from "../../shop-index/conversation-rows.js";
import { unix } from "../../shop-index/order-rows.js";
import { IndexFull, type RowIndex } from "../../shop-index/row-index.js";
import type { JoinHow, Select } from "../../shop-index/store.js";
import { readBy, type ToolContext } from "../define.js";
import { shopsOf } from "./chat-orders.js";
import { callPeople } from "./page-people.js";

/**
 * list_conversations ordered / conversion_days: what each chat's customer bought. Every shop's
 * orders are viewed in the shop index (brought up to date, by the call's deadline), then each chat
 * is looked up there by its join keys (conversation-rows.ts: the order's link to the chat, the
 * customer's id on the platform, a phone the chat captured; and page-people.ts: the customer's
 * platform-wide id and psids on other pages, the phones the inbox knows of them; never the name), one query a chat on
 * the keys' own index: nothing of the shop is held in memory, whatever its size.
 * Only sales count: a canceled or deleted order is no order (design.md, "One meaning per word").
 */

/** Canceled and deleted: no sale. */
const VOID_STATUSES = [6, 7] as const;

/** Which orders count: created from `from` on (unset: ever), or with `sinceChat` from the chat's own start on, up to `days` after it. */
export interface Window {
  from?: number | undefined;
  sinceChat?: boolean | undefined;
  days?: number | undefined;
}

/** The sales joined to one chat within its window. */
export interface Bought {
  orders: number;
  amount: number;
  /** The strongest link of any of them. */
  by: JoinHow;
  /** Unix seconds: when the newest was created. */
  last: number | null;
  /** Each order once, `<shop>/<id>`, with its amount: a group counts an order its chats share once. */
  each: Map<string, number>;
}

export interface ChatSales {
  /** The chat's sales within the window; undefined when none is joined. */
  of(c: Conversation): Bought | undefined;
  /** Who the chat is with, one id a person on every page (page-people.ts): people are counted by it. */
  person(c: Conversation): string;
  /** Every shop's orders were read whole. */
  complete: boolean;
  /** Sentences on the reads of orders under way. */
  notes: string[];
  askAgainIn?: number | undefined;
  /** The oldest time a shop's orders were brought up to date (ms). */
  asOf: number;
  currency: string;
  /** The window, in words, for the answer's definition line. */
  window: string;
}

const DAY_S = 86_400;

/** The shop index the join runs in: refused before any read without it. */
export function requireIndex(ctx: Pick<ToolContext, "index">, field: string): NonNullable<ToolContext["index"]> {
  if (!ctx.index) throw new ConfigError(`${field} joins chats to orders in the shop index, which PANCAKE_INDEX=off turns off`, "Set PANCAKE_INDEX to disk (the default) or memory.");
  return ctx.index;
}

/** The update time from which the order index must hold every order for `window` (null: all time): orders created since a time were updated since. */
const needOf = (window: Window, chatsFrom: number | undefined) => (window.sinceChat ? (chatsFrom ?? null) : (window.from ?? null));

/**
 * Views every shop's orders and answers, for any chat, its sales within `window`. `chatsFrom`: the
 * chats asked about began at or after it (Unix s), so with a window from their start the orders
 * before it need not be read. `field` names the parameter an error is about.
 */
export async function chatSales(ctx: ToolContext, window: Window, chatsFrom: number | undefined, field: string): Promise<ChatSales> {
  const index = requireIndex(ctx, field);
  const shops = await shopsOf(ctx, field);
  const need = needOf(window, chatsFrom);
  const tz = ctx.config.timezone;
  const people = callPeople(ctx);
  const viewed = await Promise.all(
    [...shops.keys()].map(async (shopId) => {
      const orders = index.orders(shopId);
      try {
        const view = await orders.view(ctx.pos, need, (done, total) => ctx.progress(done, total, `orders of shop ${shopId} read: ${done}`), readBy(ctx));
        return { shopId, orders, view };
      } catch (error) {
        if (!(error instanceof IndexFull)) throw error;
        throw new InputError(field, `the shop ${shops.get(shopId) ?? shopId} has more orders than the shop index holds (${error.message})`, "Raise PANCAKE_INDEX_MAX_ROWS.");
      }
    }),
  );
  const known = await people;
  const notes = viewed.flatMap(({ shopId, view }) => {
    if (!view.partial) return [];
    const out = readingOut(view.partial, tz);
    const then = out.stopped ? `the read stopped (${out.stopped}); asking again goes on from where it got` : `ask again in about ${out.ask_again_in_s} s for exact figures`;
    return [
      `Still reading the orders of shop ${shops.get(shopId) ?? shopId} into the shop index: ${out.read}${out.of_about === undefined ? "" : ` of about ${out.of_about}`} so far; chats found to have ordered are at least these, those found not to may have orders not read yet; ${then}`,
    ];
  });
  const waits = viewed.flatMap(({ view }) => (view.partial && !view.partial.failed ? [askAgainIn(view.partial)] : []));
  let currency: string | undefined;
  const named = (orders: RowIndex<PosOrder, object>, id: string) => {
    currency ??= orders.get(id)?.order_currency ?? undefined;
  };
  notes.push(...known.notes);
  return {
    complete: viewed.every(({ view }) => !view.partial) && known.complete,
    notes,
    askAgainIn: waits.length ? Math.max(...waits) : undefined,
    asOf: Math.min(...viewed.map(({ view }) => view.asOf)),
    get currency() {
      return currency ?? DEFAULT_CURRENCY;
    },
    window: !window.sinceChat
      ? window.from === undefined
        ? "ever"
        : `since ${toIsoInZone(new Date(window.from * 1000), tz)}`
      : window.days === undefined
        ? "since the chat began"
        : `within ${window.days} days of the chat's start`,
    person: known.person,
    of(c) {
      const select = selectFor(window, c);
      if (!select) return undefined;
      const keys = [...conversationKeys(c), ...known.keysOf(c)];
      let bought: Bought | undefined;
      for (const { shopId, orders } of viewed) {
        for (const o of orders.linked(keys, select)) {
          if ((VOID_STATUSES as readonly unknown[]).includes(o.columns.status)) continue;
          const amount = typeof o.columns.amount === "number" ? o.columns.amount : 0;
          bought ??= { orders: 0, amount: 0, by: o.how, last: null, each: new Map() };
          bought.orders++;
          bought.amount += amount;
          if (RANKED.indexOf(o.how) < RANKED.indexOf(bought.by)) bought.by = o.how;
          if (o.inserted !== null && (bought.last === null || o.inserted > bought.last)) bought.last = o.inserted;
          bought.each.set(`${shopId}/${o.order}`, amount);
          if (currency === undefined) named(orders as RowIndex<PosOrder, object>, o.order);
        }
      }
      return bought;
    },
  };
}

const RANKED: JoinHow[] = ["order link", "social id", "phone"];

/** What ordered kept, said once an answer. */
export const orderedNote = (ordered: boolean | undefined, window: string) =>
  `ordered ${ordered}: chats whose customer ${ordered ? "placed" : "never placed"} an order ${window} (a sale: canceled and deleted orders are none), joined by the order's link to the chat, the customer's social id (the page's or platform-wide) on the order, or a phone the inbox caught of them (ordered.by), never by name`;

/** The orders a chat's window takes, by creation; undefined when the chat's start is unknown (none then). */
function selectFor(window: Window, c: Conversation): Select | undefined {
  if (!window.sinceChat) return { by: "inserted", from: window.from };
  const start = unix(c.inserted_at);
  if (start === undefined) return undefined;
  return { by: "inserted", from: start, to: window.days === undefined ? undefined : start + window.days * DAY_S };
}
