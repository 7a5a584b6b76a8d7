import { describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";

// The demo's inbox customers and POS customers are the same people the way sellers' data has it:
// some POS records carry the chat's ids, some only a phone the chat gave, some share only a name,
// and most people who chat and never buy are not in the POS at all.

const now = new Date("2026-11-22T05:00:00Z");
const fold = (t: string) => t.normalize("NFD").replace(/\p{M}/gu, "").replace(/đ/g, "d").toLowerCase();

describe("inbox and POS customers", () => {
  const s = new Sandbox({ now });
  const { customers: pageCustomers, conversations } = s.messaging;
  const pos = s.pos;

  it("link chats to POS customers by id, by phone, by name only, or not at all, in realistic shares", () => {
    const kinds = conversations.map((c) => {
      const profile = pageCustomers.find((p) => p.page_id === c.page_id && p.psid === c.from.id)!;
      const phones = new Set([...c.recent_phone_numbers.map((p) => p.phone_number), ...profile.phone_numbers]);
      if (pos.customers.some((x) => x.fb_id === c.from.id || (x.fb_id !== null && x.fb_id === profile.global_id))) return "social_id";
      if (pos.customers.some((x) => x.phone_numbers.some((p) => phones.has(p)))) return "phone";
      if (pos.customers.some((x) => fold(x.name) === fold(c.customers[0]!.name))) return "name";
      return "none";
    });
    const share = (kind: string) => kinds.filter((k) => k === kind).length / kinds.length;
    expect(share("social_id")).toBeGreaterThan(0.25);
    expect(share("social_id")).toBeLessThan(0.55);
    expect(share("phone")).toBeGreaterThan(0.05);
    expect(share("name")).toBeGreaterThan(0.1);
    expect(share("none")).toBeGreaterThan(0.1);
    // Both social ids occur: the page-scoped one and the platform-wide one the message list shows.
    expect(pos.customers.some((x) => pageCustomers.some((p) => p.psid === x.fb_id))).toBe(true);
    expect(pos.customers.some((x) => pageCustomers.some((p) => p.global_id === x.fb_id))).toBe(true);
  });

  it("keeps every POS customer the books refer to, and leaves out most who never bought", () => {
    const referred = new Set([...pos.orders.map((o) => o.shop_customer_id), ...pos.debts.map((d) => d.shop_customer_id), ...pos.pointLogs.map((l) => l.shop_customer_id)]);
    for (const id of referred) if (id) expect(pos.customers.some((c) => c.id === id), String(id)).toBe(true);
    expect(pos.customers.length).toBeLessThan(300);
    expect(pos.customers.filter((c) => !referred.has(c.id)).length).toBeGreaterThan(0);
  });

  it("names on each order of a customer known by their chat the inbox thread it came from", () => {
    const linked = pos.orders.filter((o) => o.conversation_id !== null);
    expect(linked.length).toBeGreaterThan(10);
    for (const o of linked) {
      const thread = conversations.find((c) => c.id === o.conversation_id)!;
      const customer = pos.customers.find((c) => c.id === o.shop_customer_id)!;
      expect(thread).toMatchObject({ type: "INBOX", page_id: o.page_id });
      expect(thread.from.id).toBe(pageCustomers.find((p) => p.page_id === thread.page_id && (p.psid === customer.fb_id || p.global_id === customer.fb_id))!.psid);
      expect(thread.inserted_at <= o.inserted_at).toBe(true);
    }
  });

  it("is the same data set for the same day", () => {
    const again = new Sandbox({ now });
    expect(JSON.stringify(again.pos.customers)).toBe(JSON.stringify(pos.customers));
    expect(JSON.stringify(again.pos.orders)).toBe(JSON.stringify(pos.orders));
  });
});
