import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/index.js";
import { useHarness } from "../../helpers/harness.js";

// One rule for scope: with no dates, every filter and grouping of search_orders counts what the
// plain list counts for that filter (all time), checked against the sandbox's raw records: the
// list's rows call, its counts alone (limit 0) and every grouping agree on the total, and on the
// figure without canceled and deleted orders.

const h = useHarness({ sandbox: { ratePerSecond: 100_000 } });

type Filter = { name: string; args: Record<string, unknown>; keep: (o: OrderRecord) => boolean };

function filters(): Filter[] {
  const orders = h.sandbox.pos.orders;
  const post = orders.find((o) => o.post_id && !o.is_removed)!.post_id!;
  const carrier = h.sandbox.pos.partners[0]!;
  return [
    { name: "every order", args: {}, keep: () => true },
    { name: "shipped or delivered", args: { statuses: ["shipped", "received"] }, keep: (o) => o.status === 2 || o.status === 3 },
    { name: "all but returned", args: { statuses: ["returned"], exclude_statuses: true }, keep: (o) => o.status !== 5 },
    { name: `carrier ${carrier.name}`, args: { carriers: [carrier.name] }, keep: (o) => o.partner?.partner_id === carrier.id },
    { name: "livestream", args: { livestream: true }, keep: (o) => (o as { is_livestream?: boolean }).is_livestream === true },
    { name: `post ${post}`, args: { post_ids: [post] }, keep: (o) => o.post_id === post },
  ];
}

const KEYS = ["status", "source", "province", "carrier", "seller", "warehouse", "customer", "month"] as const;
const figure = (orders: OrderRecord[]) => ({ orders: orders.length, amount: orders.reduce((n, o) => n + o.total_price_after_sub_discount, 0) });

describe("search_orders: the same scope under every filter and grouping", () => {
  it("rows, counts alone and every grouping count each filter's orders, of all time", async () => {
    for (const filter of filters()) {
      const matches = h.sandbox.pos.orders.filter((o) => !o.is_removed && filter.keep(o));
      expect(matches.length, filter.name).toBeGreaterThan(0);
      const kept = figure(matches.filter((o) => o.status !== 6 && o.status !== 7));
      const rows = await h.call("search_orders", { ...filter.args, limit: 5 });
      expect(rows.isError, `${filter.name}: ${rows.text}`).toBe(false);
      expect(rows.data.total, `${filter.name}: rows`).toBe(matches.length);
      expect(rows.data.excluding_canceled_deleted, `${filter.name}: rows`).toEqual(kept);
      const counted = await h.call("search_orders", { ...filter.args, limit: 0 });
      expect(counted.data.total, `${filter.name}: limit 0`).toBe(matches.length);
      expect(counted.data.excluding_canceled_deleted, `${filter.name}: limit 0`).toEqual(kept);
      for (const key of KEYS) {
        const r = await h.call("search_orders", { ...filter.args, group_by: [key], limit: 100 });
        expect(r.isError, `${filter.name} by ${key}: ${r.text}`).toBe(false);
        expect(r.data.complete, `${filter.name} by ${key}`).toBe(true);
        expect(r.data.total, `${filter.name} by ${key}`).toBe(matches.length);
        expect(r.data.excluding_canceled_deleted, `${filter.name} by ${key}`).toEqual(kept);
        // The groups (those past the limit summed in one) and the orders counted apart make up the total.
        const grouped = (r.data.groups as { orders: number }[]).reduce((n, g) => n + g.orders, 0);
        const apart = (r.data.canceled?.orders ?? 0) + (r.data.deleted?.orders ?? 0);
        expect(grouped + apart, `${filter.name} by ${key}: groups and apart`).toBe(matches.length);
      }
    }
  });
});
