import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/index.js";
import { useHarness } from "../../helpers/harness.js";

// search_orders group_by customer: repeat customers, top customers by what their orders come to,
// customers who stopped buying, each in one call. The truth is computed here from the sandbox's
// orders: a buyer is the POS customer an order names, else its phone.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const DAY = 86_400_000;
const at = (t: string) => Date.parse(`${t}Z`);
const shopDay = (ms: number) => new Date(ms + 7 * 3_600_000).toISOString().slice(0, 10);
/** Start of the shop's day `days` back (Asia/Ho_Chi_Minh). */
const dayStart = (days: number) => Date.parse(`${shopDay(Date.now() - days * DAY)}T00:00:00+07:00`);

const buyerOf = (o: OrderRecord) => o.shop_customer_id ?? o.customer?.id ?? (o.bill_phone_number ? `phone ${o.bill_phone_number}` : "(none)");
const counted = (o: OrderRecord) => !o.is_removed && o.status !== 6 && o.status !== 7;

interface Buyer {
  orders: number;
  amount: number;
  first: number;
  last: number;
}

function buyers(orders: OrderRecord[]): Map<string, Buyer> {
  const out = new Map<string, Buyer>();
  for (const o of orders.filter(counted)) {
    const b = out.get(buyerOf(o)) ?? { orders: 0, amount: 0, first: Number.POSITIVE_INFINITY, last: 0 };
    b.orders++;
    b.amount += o.total_price_after_sub_discount;
    b.first = Math.min(b.first, at(o.inserted_at));
    b.last = Math.max(b.last, at(o.inserted_at));
    out.set(buyerOf(o), b);
  }
  return out;
}

type Row = { customer: string; customer_id?: string; phone?: string; orders: number; amount: number; first_order?: string; last_order?: string; groups?: number };
const keyOf = (r: Row) => r.customer_id ?? `phone ${r.phone}`;

async function grouped(args: Record<string, unknown>) {
  const r = await h.call("search_orders", { group_by: ["customer"], ...args });
  expect(r.isError, r.text).toBe(false);
  expect(countTokens(r.text)).toBeLessThanOrEqual(4_000);
  return r.data as { groups: Row[]; group_count: number; total: number; note?: string };
}

describe("search_orders group_by customer", () => {
  it("counts the customers who ordered more than once in the last 30 days", async () => {
    const since = dayStart(29);
    const recent = buyers(h.sandbox.pos.orders.filter((o) => at(o.inserted_at) >= since));
    const repeat = [...recent].filter(([, b]) => b.orders >= 2);
    expect(repeat.length).toBeGreaterThan(3);
    const r = await grouped({ since: "last 30 days", min_orders: 2, limit: 100 });
    expect(r.group_count).toBe(repeat.length);
    expect(Object.fromEntries(r.groups.map((g) => [keyOf(g), g.orders]))).toEqual(Object.fromEntries(repeat.map(([k, b]) => [k, b.orders])));
    expect(r.note).toMatch(/groups with fewer than 2 orders are left out/);
  });

  it("ranks the top customers by what their orders come to, with first and last order", async () => {
    const all = [...buyers(h.sandbox.pos.orders)].sort(([ka, a], [kb, b]) => b.amount - a.amount || ka.localeCompare(kb));
    const r = await grouped({ group_sort: "amount", limit: 5 });
    const top = r.groups.slice(0, 5);
    expect(top.map((g) => g.amount)).toEqual(all.slice(0, 5).map(([, b]) => b.amount));
    for (const g of top) {
      const truth = all.find(([k]) => k === keyOf(g))![1];
      expect(g).toMatchObject({ orders: truth.orders, amount: truth.amount, first_order: shopDay(truth.first), last_order: shopDay(truth.last) });
      expect(g.customer).not.toBe("(none)");
    }
    // The rest summed, without a first or last order (sums of times mean nothing).
    const rest = r.groups.at(-1)!;
    expect(rest.customer).toBe("other");
    expect(rest.first_order).toBeUndefined();
  });

  it("lists the repeat customers whose last order is oldest: those who stopped buying", async () => {
    const repeat = [...buyers(h.sandbox.pos.orders)].filter(([, b]) => b.orders >= 2).sort(([ka, a], [kb, b]) => a.last - b.last || ka.localeCompare(kb));
    const r = await grouped({ min_orders: 2, group_sort: "last_order", ascending: true, limit: 5 });
    expect(r.groups.slice(0, 5).map(keyOf)).toEqual(repeat.slice(0, 5).map(([k]) => k));
    expect(r.groups[0]!.last_order).toBe(shopDay(repeat[0]![1].last));
  });

  it("refuses a sort by first or last order without customer groups, and province_list without provinces", async () => {
    const sort = await h.call("search_orders", { group_by: ["carrier"], group_sort: "last_order" });
    expect(sort.isError).toBe(true);
    expect(sort.text).toMatch(/group_sort: last_order sorts customer groups/);
    const list = await h.call("search_orders", { group_by: ["carrier"], province_list: "old" });
    expect(list.isError).toBe(true);
    expect(list.text).toMatch(/province_list: applies to group_by province/);
    const bad = await h.call("search_orders", { group_by: ["province"], province_list: "2024" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/"new".*"old"/);
  });
});

describe("search_orders group_by province on the old list", () => {
  it("counts by the 63 provinces before July 2025", async () => {
    const pos = h.sandbox.pos;
    const oldName = (o: OrderRecord) => pos.geo.provinces.find((p) => p.id === o.shipping_address.province_id)!.name;
    const truth = new Map<string, number>();
    for (const o of pos.orders.filter(counted)) truth.set(oldName(o), (truth.get(oldName(o)) ?? 0) + 1);
    const r = await h.call("search_orders", { group_by: ["province"], province_list: "old", limit: 100 });
    expect(r.isError, r.text).toBe(false);
    expect(new Map((r.data.groups as { province: string; orders: number }[]).map((g) => [g.province, g.orders]))).toEqual(truth);
    // Old provinces merged since are apart again: more groups than on the new list.
    const current = await h.call("search_orders", { group_by: ["province"], limit: 100 });
    expect(r.data.group_count).toBeGreaterThan(current.data.group_count);
  });
});
