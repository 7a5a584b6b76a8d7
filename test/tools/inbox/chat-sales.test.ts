import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { normalizePhone } from "../../../src/format/phone.js";
import type { ConversationRecord } from "../../../src/sandbox/messaging/index.js";
import { at, type By, chatIds, customerWroteAt, lastWeek, linkOf, RANK, salesOf, shopDay } from "../../helpers/chat-sales.js";
import { startHarness, useHarness } from "../../helpers/harness.js";

// Issue 40, "who asked and never bought": list_conversations keeps or drops chats by what their
// customer bought (ordered, ordered_since), joined to the POS's orders by the order's link to the
// chat, the customer's id on the platform or a phone the chat captured, never by name. Before it,
// "how many people messaged Mây Kids last week but never ordered" took 9 calls and was wrong (3 of 6
// names: buyers found by a customer of the same name). Every figure is checked against the raw records.

const h = useHarness({ sandbox: { ratePerSecond: 100_000 } });

const page = (name: string) => h.sandbox.messaging.pages.find((p) => p.name.startsWith(name))!;
const chatsOf = (pageId: string) => h.sandbox.messaging.conversations.filter((c) => c.page_id === pageId && !c.is_removed);
const person = (c: ConversationRecord) => c.customers[0]?.fb_id ?? c.from.id;
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
/** Who a chat is with on every page: the global id its page customer holds, else its psid. */
const globalPerson = (c: ConversationRecord) => h.sandbox.messaging.customers.find((p) => p.page_id === c.page_id && p.psid === c.from.id)?.global_id ?? person(c);

interface Row {
  id: string;
  ordered?: { orders: number; amount: number; last_order?: string; by: By };
}

/** Mây Kids' chats whose customer last wrote last week (the customer's last message, from the messages). */
function wroteLastWeek(): ConversationRecord[] {
  const [since, until] = lastWeek();
  return chatsOf(page("Mây Kids").id).filter((c) => {
    const wrote = customerWroteAt(h.sandbox, c);
    return wrote !== undefined && wrote >= since && wrote < until;
  });
}

const LAST_WEEK = { page_ids: ["Mây Kids"], time_field: "customer", since: "last week", until: "last week" };

describe("list_conversations ordered: chats by what their customer bought", () => {
  it("answers who wrote to Mây Kids last week and never ordered in one call, exactly", async () => {
    const wrote = wroteLastWeek();
    const never = wrote.filter((c) => salesOf(h.sandbox, c).length === 0);
    // The demo shop on the tests' day: some bought, some never did.
    expect(never.length).toBeGreaterThan(2);
    expect(wrote.length - never.length).toBeGreaterThan(2);

    const r = await h.call("list_conversations", { ...LAST_WEEK, ordered: false });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.complete).toBe(true);
    expect(r.data.total).toBe(never.length);
    expect(ids(r.data.conversations)).toEqual(never.map((c) => c.id).sort());
    expect(r.data.people).toBe(new Set(never.map(person)).size);
    // Never by name: a buyer who shares a never-buyer's name does not hide them.
    expect(r.data.note).toMatch(/ordered false: .*never placed an order ever.*never by name/);
    expect(countTokens(r.text)).toBeLessThan(2_000);

    // Those who did, each row saying what they bought and how the strongest link was made.
    const bought = await h.call("list_conversations", { ...LAST_WEEK, ordered: true, limit: 50 });
    expect(bought.data.total).toBe(wrote.length - never.length);
    for (const row of bought.data.conversations as Row[]) {
      const c = wrote.find((x) => x.id === row.id)!;
      const sales = salesOf(h.sandbox, c);
      expect(row.ordered, row.id).toEqual({
        orders: sales.length,
        amount: sales.reduce((t, s) => t + s.order.total_price_after_sub_discount, 0),
        last_order: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        by: RANK.find((how) => sales.some((s) => s.by === how)),
      });
    }
    // Each way of joining shows up in the shop's chats.
    const all = await h.call("list_conversations", { ordered: true, ordered_since: "chat", limit: 50, since: "last 90 days" });
    expect(new Set((all.data.conversations as Row[]).map((row) => row.ordered!.by))).toEqual(new Set(RANK));
  });

  it("finds the buyers a chat reaches only through its page customer: the platform-wide id, a psid elsewhere, a phone the inbox holds", async () => {
    const since = shopDay(-89);
    const chats = h.sandbox.messaging.conversations.filter((c) => !c.is_removed && at(c.updated_at) >= since);
    const ownOnly = (c: ConversationRecord) => ({ ...chatIds(h.sandbox, c), socials: new Set([c.customers[0]?.fb_id, c.from_psid, c.from.id].filter((x): x is string => !!x)), phones: new Set(c.recent_phone_numbers.map((p) => normalizePhone(p.phone_number) ?? p.phone_number)) });
    // The chat's own ids and phones reach no order of theirs; their page customer's global id does.
    const viaGlobal = chats.filter((c) => {
      const global = h.sandbox.messaging.customers.find((p) => p.page_id === c.page_id && p.psid === c.from.id)?.global_id;
      const sales = salesOf(h.sandbox, c);
      return sales.length > 0 && sales.every((s) => linkOf(ownOnly(c), s.order) === undefined) && sales.some((s) => s.order.customer?.fb_id === global);
    });
    expect(viaGlobal.length).toBeGreaterThan(3);
    // Or only through a phone the same person (one global id) left on another page.
    const ownPage = (c: ConversationRecord) => {
      const profile = h.sandbox.messaging.customers.find((p) => p.page_id === c.page_id && p.psid === c.from.id);
      const phones = [...c.recent_phone_numbers.map((p) => p.phone_number), ...(profile?.phone_numbers ?? [])];
      return { ...chatIds(h.sandbox, c), phones: new Set(phones.map((p) => normalizePhone(p) ?? p)) };
    };
    const viaOtherPage = chats.filter((c) => {
      const sales = salesOf(h.sandbox, c);
      return sales.length > 0 && sales.every((s) => linkOf(ownPage(c), s.order) === undefined);
    });
    expect(viaOtherPage.length).toBeGreaterThan(0);
    const never = chats.filter((c) => salesOf(h.sandbox, c).length === 0);

    const r = await h.call("list_conversations", { ordered: false, since: "last 90 days", group_by: ["page"] });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.complete).toBe(true);
    expect(r.data.total).toBe(never.length);
    const perPage = new Map<string, number>();
    for (const c of never) perPage.set(c.page_id, (perPage.get(c.page_id) ?? 0) + 1);
    expect(new Map((r.data.groups as { page_id: string; count: number }[]).filter((g) => g.count > 0).map((g) => [g.page_id, g.count]))).toEqual(perPage);

    // Each of them is a buyer, by the social id the POS record carries.
    for (const c of viaGlobal.slice(0, 4)) {
      const row = await h.call("list_conversations", { customer: c.from.name, page_ids: [c.page_id], ordered: true, since: "last 90 days", limit: 50 });
      const found = (row.data.conversations as Row[]).find((x) => x.id === c.id);
      expect(found?.ordered, c.id).toMatchObject({ orders: salesOf(h.sandbox, c).length, by: "social id" });
    }
  });

  it("reads the page customers once, then only those updated since", async () => {
    const reads = () => h.sandbox.server.requests.filter((q) => q.path.endsWith("/page_customers"));
    const before = reads().length;
    await h.call("list_conversations", { ordered: false, since: "last 7 days", group_by: ["page"] });
    const first = reads().slice(before);
    const pages = new Set(first.map((q) => q.path));
    // Every page the account sees: an order may carry the person's psid on another page than the chat's.
    for (const p of h.sandbox.messaging.pages.filter((x) => h.sandbox.messaging.customers.some((c) => c.page_id === x.id))) expect([...pages].some((path) => path.includes(`/pages/${p.id}/`)), p.id).toBe(true);
    await h.call("list_conversations", { ordered: true, since: "last 7 days", group_by: ["page"] });
    const again = reads().slice(before + first.length);
    // One request a page, from where the last walk ended.
    expect(again.length).toBe(pages.size);
    for (const q of again) expect(Number(q.query.since?.[0])).toBeGreaterThan(0);
  });

  it("keeps the page customers in the index on disk: a restarted server reads only those updated since", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pancake-people-"));
    const config = { index: { mode: "disk" as const, dir, refreshSeconds: 0, maxRows: 300_000, preload: false } };
    const reads = () => h.sandbox.server.requests.filter((q) => q.path.endsWith("/page_customers"));
    const args = { ordered: false, since: "last 7 days", group_by: ["page"] };
    const first = await startHarness({ shared: h.sandbox, config });
    const before = reads().length;
    const cold = await first.call("list_conversations", args);
    const coldReads = reads().length - before;
    await first.close();
    // A server of its own, the same folder: one request a page, from where the first one's walk ended.
    const second = await startHarness({ shared: h.sandbox, config });
    try {
      const at = reads().length;
      const warm = await second.call("list_conversations", args);
      const again = reads().slice(at);
      expect(again.length).toBeLessThan(coldReads);
      expect(new Set(again.map((q) => q.path)).size).toBe(again.length);
      for (const q of again) expect(Number(q.query.since?.[0])).toBeGreaterThan(0);
      expect(warm.data.total).toBe(cold.data.total);
      expect(warm.data.people).toBe(cold.data.people);
    } finally {
      await second.close();
    }
  });

  it("bounds the orders counted: since the chat began, or since a date", async () => {
    const wrote = wroteLastWeek();
    const sinceChat = wrote.filter((c) => salesOf(h.sandbox, c, at(c.inserted_at)).length > 0);
    const r = await h.call("list_conversations", { ...LAST_WEEK, ordered: true, ordered_since: "chat" });
    expect(r.data.total).toBe(sinceChat.length);
    expect(ids(r.data.conversations)).toEqual(sinceChat.map((c) => c.id).sort());
    // Bought earlier but nothing since the chat began: not among them.
    expect(sinceChat.length).toBeLessThan(wrote.filter((c) => salesOf(h.sandbox, c).length > 0).length);

    const from = shopDay(-30);
    const recent = wrote.filter((c) => salesOf(h.sandbox, c, from).length === 0);
    const dated = await h.call("list_conversations", { ...LAST_WEEK, ordered: false, ordered_since: "last 30 days" });
    expect(dated.data.total).toBe(recent.length);
    expect(ids(dated.data.conversations)).toEqual(recent.map((c) => c.id).sort());
  });

  it("is the follow-up list with a tag: asked the price, never ordered, counted the same by group_by", async () => {
    const since = shopDay(-89);
    const asked = h.sandbox.messaging.conversations.filter((c) => {
      const tag = h.sandbox.messaging.tags[c.page_id]?.find((t) => t.text === "Hỏi giá");
      return !c.is_removed && tag !== undefined && c.tags.includes(tag.id) && at(c.updated_at) >= since;
    });
    const never = asked.filter((c) => salesOf(h.sandbox, c).length === 0);
    expect(never.length).toBeGreaterThan(3);
    expect(never.length).toBeLessThan(asked.length);

    const r = await h.call("list_conversations", { tags: ["Hỏi giá"], ordered: false, since: "last 90 days", limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.complete).toBe(true);
    expect(r.data.total).toBe(never.length);
    expect(ids(r.data.conversations)).toEqual(never.map((c) => c.id).sort());

    // Per page, as a model sends it (a JSON string, a page by name).
    const grouped = await h.call("list_conversations", { tags: ["Hỏi giá"], ordered: false, since: "last 90 days", group_by: '["page"]' });
    expect(grouped.data.total).toBe(never.length);
    const perPage = new Map<string, number>();
    for (const c of never) perPage.set(c.page_id, (perPage.get(c.page_id) ?? 0) + 1);
    expect(new Map((grouped.data.groups as { page_id: string; count: number }[]).filter((g) => g.count > 0).map((g) => [g.page_id, g.count]))).toEqual(perPage);
  });

  it("counts by assignee the same as the rows, from the index", async () => {
    const since = shopDay(-13);
    const chats = h.sandbox.messaging.conversations.filter((c) => !c.is_removed && at(c.updated_at) >= since && salesOf(h.sandbox, c).length === 0);
    const expected = new Map<string, { count: number; people: Set<string> }>();
    for (const c of chats) {
      const names = c.current_assign_users.length ? c.current_assign_users.map((u) => u.name) : ["(unassigned)"];
      for (const name of names) {
        const g = expected.get(name) ?? { count: 0, people: new Set<string>() };
        g.count++;
        g.people.add(globalPerson(c));
        expected.set(name, g);
      }
    }
    const r = await h.call("list_conversations", { ordered: false, since: "last 14 days", group_by: ["assignee"], limit: 50 });
    expect(r.data.complete).toBe(true);
    expect(r.data.total).toBe(chats.length);
    // Chats and the people they are with, each once: one person may have written several times.
    const people = new Set(chats.map(globalPerson)).size;
    expect(r.data.people).toBe(people);
    expect(people).toBeLessThan(chats.length);
    const groups = r.data.groups as { assignee: string; count: number; people: number }[];
    expect(new Map(groups.map((g) => [g.assignee, { count: g.count, people: g.people }]))).toEqual(new Map([...expected].map(([k, g]) => [k, { count: g.count, people: g.people.size }])));
  });

  it("refuses what does not combine, naming what to do, before reading anything", async () => {
    const before = h.sandbox.server.requests.length;
    for (const [args, pattern] of [
      [{ ordered_since: "chat" }, /ordered_since: bounds the orders of ordered/],
      [{ ordered: true, conversion_days: 7 }, /ordered: does not combine with conversion_days/],
      [{ ordered: false, with_total: true, page_ids: ["Mây Kids"] }, /with_total/],
    ] as const) {
      const r = await h.call("list_conversations", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(pattern);
    }
    expect(h.sandbox.server.requests.slice(before).filter((q) => /conversations|orders/.test(q.path))).toEqual([]);
    const inboxOnly = await startHarness({ shared: h.sandbox, config: { posApiKeys: {} } });
    const noIndex = await startHarness({ shared: h.sandbox, config: { index: { mode: "off", refreshSeconds: 0, maxRows: 300_000, preload: false } } });
    try {
      const refused = await inboxOnly.call("list_conversations", { ordered: false });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/ordered: needs the POS/);
      const off = await noIndex.call("list_conversations", { conversion_days: 7, group_by: ["page"] });
      expect(off.isError).toBe(true);
      expect(off.text).toMatch(/conversion_days joins chats to orders in the shop index.*PANCAKE_INDEX/);
      expect(h.sandbox.server.requests.slice(before).filter((q) => /conversations|orders/.test(q.path))).toEqual([]);
    } finally {
      await inboxOnly.close();
      await noIndex.close();
    }
  });
});

describe("list_conversations by the customer's last message, grouped", () => {
  it("counts per page the chats whose customer last wrote in the range, not those last active in it, and says so", async () => {
    const [since, until] = lastWeek();
    const wrote = h.sandbox.messaging.conversations.filter((c) => {
      const at = customerWroteAt(h.sandbox, c);
      return !c.is_removed && at !== undefined && at >= since && at < until;
    });
    const perPage = new Map<string, number>();
    for (const c of wrote) perPage.set(c.page_id, (perPage.get(c.page_id) ?? 0) + 1);
    // The two times differ for some chat of the week: the test can tell them apart.
    const active = h.sandbox.messaging.conversations.filter((c) => !c.is_removed && at(c.updated_at) >= since && at(c.updated_at) < until);
    expect(active.map((c) => c.id).sort()).not.toEqual(wrote.map((c) => c.id).sort());

    const r = await h.call("list_conversations", { time_field: "customer", since: "last week", until: "last week", group_by: ["page"] });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.total).toBe(wrote.length);
    expect(new Map((r.data.groups as { page_id: string; count: number }[]).filter((g) => g.count > 0).map((g) => [g.page_id, g.count]))).toEqual(perPage);
    expect(r.data.note).toContain("range and day are of the customer's last message");
  });
});
