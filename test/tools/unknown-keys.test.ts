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
    ["lmit", ["limit", "cursor"], "limit"],
    ["banana", ["limit", "cursor"], undefined],
  ])("%s among %j -> %s", (key, valid, expected) => {
    expect(closestKey(key, valid)).toBe(expected);
  });
});
