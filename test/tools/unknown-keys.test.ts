import { describe, expect, it } from "vitest";
import { allTools } from "../../src/tools/index.js";
import { closestKey } from "../../src/tools/input-errors.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { useHarness } from "../helpers/harness.js";

// A key a tool does not know used to be dropped, so `search_orders {"status": "shipped"}`
// answered with every order as if filtered. Now it is an error naming the key and its likely meaning.
describe("unknown parameters", () => {
  const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
  const upstreamRequests = () => [...h.sandbox.server.counts.values()].reduce((a, b) => a + b, 0);

  it.each(allTools.map((t) => t.name))("%s refuses an unknown key and sends nothing upstream", async (name) => {
    const before = upstreamRequests();
    const r = await h.call(name, { ...argsFor(name, h.sandbox), zzz_not_a_param: 1 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("unknown parameter `zzz_not_a_param`");
    const valid = Object.keys(allTools.find((t) => t.name === name)!.input.shape);
    expect(r.text).toContain(`(valid: ${valid.join(", ") || "none"})`);
    expect(upstreamRequests()).toBe(before);
  });

  it.each([
    ["search_orders", { status: "shipped" }, "statuses"],
    ["search_orders", { timeField: "shipped" }, "time_field"],
    ["list_debts", { Status: "open" }, "status"],
    // A bare id is the tool's subject, not the shop_id every POS tool also takes.
    ["get_order", { id: "#560" }, "order_id"],
    ["search_products", { query: "dam" }, "search"],
  ] as const)("%s %j suggests %s", async (name, extra, near) => {
    const r = await h.call(name, { ...argsFor(name, h.sandbox), ...extra });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`did you mean \`${near}`);
  });

  it("refuses an unknown key inside a nested object, naming where it is", async () => {
    const args = argsFor("create_order", h.sandbox) as { items: Record<string, unknown>[] };
    const r = await h.call("create_order", { ...args, items: [{ ...args.items[0], qty: 2 }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("unknown parameter `qty` in items[0]; did you mean `quantity`? (valid in items[0]: variation_id, product, variant, quantity, price, discount_each)");
  });
});

describe("closestKey", () => {
  it.each([
    ["status", ["statuses", "since"], "statuses"],
    ["timeField", ["time_field", "field"], "time_field"],
    ["unread_only", ["unread", "since"], "unread"],
    ["PAGE_ID", ["page_id", "page_ids"], "page_id"],
    ["from", ["since", "until"], "since"],
    ["to", ["since", "until", "by"], "until"],
    ["group_by", ["split_by", "limit"], "split_by"],
    ["phone", ["search", "limit"], "search"],
    ["lmit", ["limit", "cursor"], "limit"],
    ["banana", ["limit", "cursor"], undefined],
  ])("%s among %j -> %s", (key, valid, expected) => {
    expect(closestKey(key, valid)).toBe(expected);
  });
});

describe("a lone value where a list is wanted", () => {
  const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

  it("is read as a one-item list, as the caller meant", async () => {
    const asList = await h.call("search_orders", { statuses: ["canceled"], limit: 1 });
    const alone = await h.call("search_orders", { statuses: "canceled", limit: 1 });
    expect(alone.isError, alone.text).toBe(false);
    expect(alone.data.total).toBe(asList.data.total);
    const split = await h.call("get_sales_analytics", { split_by: "Order.source", since: "2026-11-01" });
    expect(split.isError, split.text).toBe(false);
    expect(split.data.rows[0]["Order.source"]).toBeDefined();
    const page = h.sandbox.messaging.pages[0]!;
    const named = await h.call("get_page_stats", { page_ids: page.name, by: "page" });
    expect(named.data.rows.map((r: { page_id: string }) => r.page_id)).toEqual([page.id]);
    const two = await h.call("get_page_stats", { page_ids: `${page.id},${h.sandbox.messaging.pages[1]!.id}`, by: "page" });
    expect(two.data.rows).toHaveLength(2);
  });
});
