import { describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";

// The demo builds its shop around the real time it starts. Whatever the day and hour, it must be
// the same shop: the same people, chats, messages, calls, customers, orders and links between
// them, only their times moved (two demos 40 minutes apart once had different chats, and POS
// records pointing to chats that did not exist). Truths are read off each sandbox's raw records.

const HOUR = 3_600_000;
const STARTS = [
  "2026-11-22T07:30:00Z", // the tests' clock: 14:30 in Ho Chi Minh City
  "2026-11-22T08:10:00Z", // 40 minutes later
  "2026-11-22T16:59:30Z", // a minute before midnight there
  "2026-11-22T17:00:30Z", // just after it
  "2026-11-22T23:59:30Z", // a minute before midnight UTC (6:59 there, before the shop wakes)
  "2026-11-23T00:00:30Z", // just after it
  "2026-11-23T13:15:00Z", // the next evening, the inbox's busiest hours
  "2027-02-14T03:45:00Z", // another season and weekday
].map((at) => new Sandbox({ now: new Date(at) }));

const ms = (time: string) => Date.parse(`${time.slice(0, 23)}Z`);
const byId = <T extends { id: string | number }>(rows: T[]) => [...rows].sort((a, b) => String(a.id).localeCompare(String(b.id)));

/** Everything but times: what the shop holds and how its records point to each other. */
function content(s: Sandbox) {
  const { conversations, messages, customers, callLogs } = s.messaging;
  return {
    conversations: conversations.map((c) => ({
      id: c.id,
      type: c.type,
      customer: c.customer_id,
      seen: c.seen,
      tags: c.tags,
      messages: messages[c.id]!.map((m) => [m.id, m.from.id, m.original_message, m.attachments.length]),
    })),
    pageCustomers: customers.map((c) => [c.id, c.page_id, c.psid, c.phone_numbers]),
    calls: byId(callLogs).map((l) => [l.id, l.phone_number, l.direction, l.status, l.duration]),
    posCustomers: s.pos.customers.map((c) => [c.id, c.name, c.phone_numbers, c.fb_id, c.conversation_link]),
    orders: s.pos.orders.map((o) => [o.id, o.status, o.shop_customer_id, o.page_id, o.conversation_id, o.post_id]),
  };
}

describe("the demo shop at any start time", () => {
  it("holds the same records, linked the same way, whatever the day and hour it starts", () => {
    const [first, ...others] = STARTS.map(content);
    expect(first!.conversations.length).toBeGreaterThan(300);
    expect(first!.orders.filter((o) => o[4] !== null).length).toBeGreaterThan(10);
    for (const [i, other] of others.entries()) expect(other, STARTS[i + 1]!.now.toISOString()).toEqual(first);
  });

  it("moves the times with the start, none past it, customers busiest in the evening there", () => {
    for (const s of STARTS) {
      const now = s.now.getTime();
      const at = s.now.toISOString();
      const perHour = new Array<number>(24).fill(0);
      for (const c of s.messaging.conversations) {
        const list = s.messaging.messages[c.id]!;
        expect(list[0]!.inserted_at.slice(0, 19), c.id).toBe(c.inserted_at);
        expect(ms(c.updated_at), `${at} ${c.id}`).toBeLessThanOrEqual(now);
        for (const m of list) if (!m.from.admin_id && ms(m.inserted_at) >= now - 30 * 24 * HOUR) perHour[new Date(ms(m.inserted_at) + 7 * HOUR).getUTCHours()]! += 1;
      }
      for (const l of s.messaging.callLogs) expect(ms(l.hangup_time), `${at} ${l.id}`).toBeLessThanOrEqual(now);
      const busiest = perHour.map((n, hour) => ({ n, hour })).sort((a, b) => b.n - a.n).slice(0, 3);
      for (const { hour } of busiest) expect(hour, `${at}: ${perHour.join(" ")}`).toBeGreaterThanOrEqual(18);
      expect(perHour.slice(1, 6).reduce((a, b) => a + b, 0), `${at}: ${perHour.join(" ")}`).toBeLessThan(perHour[20]!);
    }
    // Started months later, every conversation began as much later, give or take the day or two
    // that keeps it at a busy hour and before the start.
    const [a, b] = [STARTS[0]!, STARTS.at(-1)!];
    const moved = b.now.getTime() - a.now.getTime();
    b.messaging.conversations.forEach((c, i) => {
      const shift = ms(c.inserted_at) - ms(a.messaging.conversations[i]!.inserted_at);
      expect(Math.abs(shift - moved), c.id).toBeLessThan(48 * HOUR);
    });
  });

  it("has the chat of every POS customer it links to one, and the thread of every order that names one", () => {
    for (const s of STARTS) {
      const at = s.now.toISOString();
      const { conversations, customers: pageCustomers, posts } = s.messaging;
      const chatOf = (pageId: string, psid: string) => conversations.filter((c) => c.page_id === pageId && c.from.id === psid);
      const inboxThread = (pageId: string, psid: string) => chatOf(pageId, psid).find((c) => c.type === "INBOX");
      let social = 0;
      for (const customer of s.pos.customers) {
        if (customer.fb_id !== null) {
          social += 1;
          // The record names the chat's customer on a page: that page has the chat, with the person the fb_id is.
          const [, pageId, inboxId] = /^https:\/\/pancake\.vn\/([^?]+)\?customer_id=(.+)$/.exec(customer.conversation_link ?? "") ?? [];
          const profile = pageCustomers.find((p) => p.page_id === pageId && p.customer_id === inboxId);
          expect(profile, `${at} ${customer.name}: ${customer.conversation_link}`).toBeDefined();
          expect([profile!.psid, profile!.global_id]).toContain(customer.fb_id);
          expect(inboxThread(pageId!, profile!.psid), `${at} ${customer.name} has no chat`).toBeDefined();
        }
        // A phone the inbox holds for someone came from a chat of theirs on that page.
        for (const profile of pageCustomers.filter((p) => p.phone_numbers.some((n) => customer.phone_numbers.includes(n)))) {
          expect(chatOf(profile.page_id, profile.psid).length, `${at} ${customer.name} ${profile.phone_numbers}`).toBeGreaterThan(0);
        }
      }
      expect(social).toBeGreaterThan(80);
      for (const o of s.pos.orders) {
        if (o.conversation_id !== null) {
          const thread = conversations.find((c) => c.id === o.conversation_id);
          expect(thread, `${at} order ${o.id}`).toMatchObject({ type: "INBOX", page_id: o.page_id });
          expect(ms(thread!.inserted_at), `${at} order ${o.id}`).toBeLessThanOrEqual(ms(o.inserted_at));
        }
        if (o.post_id !== null) expect(ms(posts.find((p) => p.id === o.post_id)!.inserted_at)).toBeLessThanOrEqual(ms(o.inserted_at));
      }
    }
  });
});
