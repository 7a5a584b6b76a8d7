import { describe, expect, it } from "vitest";
import type { Conversation } from "../../src/clients/schemas/messaging.js";
import type { PosOrder } from "../../src/clients/schemas/pos.js";
import { conversationVersion, indexedConversation, preciseTime } from "../../src/shop-index/conversation-rows.js";
import { orderVersion } from "../../src/shop-index/order-rows.js";
import { afterChange, afterMessage, pushedOrder } from "../../src/shop-index/pushed.js";

// What the services push, ordered at the precision they carry: an event as old as what is held,
// or older, within the same second, changes nothing; a newer one in that second applies.

const PAGE = "1001";
const customer = { id: "psid-7", name: "Lan" };
const staff = { id: PAGE, name: "Shop", admin_id: "staff-1", admin_name: "Minh" };

/** A conversation as the list gives it: whole seconds, the page having answered last. */
const listed = (updated: string): Conversation =>
  indexedConversation({
    id: `${PAGE}_psid-7`,
    page_id: PAGE,
    type: "INBOX",
    inserted_at: "2026-11-20T08:00:00",
    updated_at: updated,
    last_sent_by: staff,
    last_customer_interactive_at: "2026-11-20T08:00:00",
    snippet: "Dạ vâng",
  } as unknown as Conversation);

const messaging = (at: string, from: object, snippet = "…") => ({ conversation: { id: `${PAGE}_psid-7`, snippet }, message: { id: `m-${at}`, inserted_at: at, from } });
const change = (version: number, extra: object = {}) => ({ conversation: { id: `${PAGE}_psid-7`, version, seen: true, ...extra } });

const order = (status: number, history: number[], updated = "2026-11-20T09:15:42") =>
  pushedOrder({
    id: 88,
    shop_id: 5,
    status,
    inserted_at: "2026-11-20T09:00:00",
    updated_at: updated,
    status_history: history.map((s) => ({ status: s, updated_at: updated, editor_id: "u1" })),
  })!.order as PosOrder;

describe("ordering what is pushed against what is held", () => {
  it("tells an order's changes within one second apart by its status history", () => {
    const confirmed = order(1, [0, 1]);
    const printing = order(12, [0, 1, 12]);
    expect(orderVersion(printing)).toBeGreaterThan(orderVersion(confirmed));
    expect(Math.floor(orderVersion(printing))).toBe(Math.floor(orderVersion(confirmed)));
    // A later second wins whatever the history, and a whole-second version (an older store's) is never newer.
    expect(orderVersion(order(1, [0, 1], "2026-11-20T09:15:43"))).toBeGreaterThan(orderVersion(printing));
    expect(orderVersion(confirmed)).toBeGreaterThan(Date.parse("2026-11-20T09:15:42Z") / 1000);
  });

  it("reads a message's time to the microsecond, distinct within a second", () => {
    const a = preciseTime("2026-11-20T09:15:42.000001")!;
    const b = preciseTime("2026-11-20T09:15:42.000002")!;
    expect(b).toBeGreaterThan(a);
    expect(Math.floor(a)).toBe(Date.parse("2026-11-20T09:15:42Z") / 1000);
    expect(preciseTime("2026-11-20T09:15:42.999999")).toBeLessThan(preciseTime("2026-11-20T09:15:43")!);
  });

  it("keeps the page's reply when the customer's message of the same second comes again, or late", () => {
    const held = listed("2026-11-20T09:15:41");
    const asked = afterMessage(held, PAGE, messaging("2026-11-20T09:15:42.120000", customer, "còn size M không"))!;
    expect(asked.last_sent_by).toMatchObject({ id: customer.id });
    const replied = afterMessage(asked, PAGE, messaging("2026-11-20T09:15:42.480000", staff, "Dạ còn ạ"))!;
    expect(replied.last_sent_by).toMatchObject({ admin_id: "staff-1" });
    expect(replied.updated_at).toBe("2026-11-20T09:15:42");
    // The customer's message again: older than the reply held, by microseconds.
    expect(afterMessage(replied, PAGE, messaging("2026-11-20T09:15:42.120000", customer))).toBeUndefined();
    // The reply again: as new as what is held.
    expect(afterMessage(replied, PAGE, messaging("2026-11-20T09:15:42.480000", staff))).toBeUndefined();
    // A newer message in the same second applies.
    expect(afterMessage(replied, PAGE, messaging("2026-11-20T09:15:42.900000", customer))?.last_sent_by).toMatchObject({ id: customer.id });
  });

  it("lets a row the list gave stand for its whole second: what is pushed within it waits for the refresh", () => {
    const held = listed("2026-11-20T09:15:42");
    expect(conversationVersion(held)).toBeGreaterThan(preciseTime("2026-11-20T09:15:42.999998")!);
    expect(afterMessage(held, PAGE, messaging("2026-11-20T09:15:42.300000", customer))).toBeUndefined();
    expect(afterMessage(held, PAGE, messaging("2026-11-20T09:15:43.000001", customer))).toBeDefined();
  });

  it("keeps a conversation event's version on the row, through the messages pushed after it", () => {
    const held = listed("2026-11-20T09:15:41");
    const seen = afterChange(held, change(306))!;
    expect((seen as { version?: number }).version).toBe(306);
    expect(afterChange(seen, change(306))).toBeUndefined();
    expect(afterChange(seen, change(305, { seen: false }))).toBeUndefined();
    const asked = afterMessage(seen, PAGE, messaging("2026-11-20T09:15:42.120000", customer))!;
    expect((asked as { version?: number }).version).toBe(306);
    expect(afterChange(asked, change(306))).toBeUndefined();
    expect(afterChange(asked, change(307))).toBeDefined();
    // The version and the message's time survive the row's own shape (what the index keeps).
    expect(indexedConversation(asked)).toEqual(asked);
    expect(conversationVersion(asked)).toBe(preciseTime("2026-11-20T09:15:42.120000"));
  });
});
