import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/types.js";
import { useHarness } from "../../helpers/harness.js";

// update_order with order_ids: many orders in one call, each written once, read back, and
// answered on its own.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;
const orderPath = (o: OrderRecord) => `/pos/api/v1/shops/${pos().shop.id}/orders/${o.id}`;
const puts = () => h.sandbox.server.requests.filter((q) => q.method === "PUT").length;

/**
 * Live orders no earlier test of this file changed, put in status `status` (with a note when
 * asked): the demo shop has few orders left in the early statuses, as a shop would.
 */
const taken = new Set<number>();
function fresh(n: number, status: number, withNote = false): OrderRecord[] {
  const found = pos().orders.filter((o) => !o.is_removed && !taken.has(o.id) && ![6, 7].includes(o.status)).slice(-n);
  for (const o of found) {
    taken.add(o.id);
    o.status = status;
    if (withNote) o.note ??= "Giao giờ hành chính";
  }
  return found;
}

describe("update_order with order_ids", () => {
  it("confirms orders named by number, each read as it is, written exactly once and read back", async () => {
    const orders = fresh(3, 0);
    const before = orders.map((o) => [h.sandbox.server.count("PUT", orderPath(o)), h.sandbox.server.count("GET", orderPath(o))]);
    const r = await h.call("update_order", { order_ids: orders.map((o) => `#${o.display_id}`), status: "confirmed" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.results).toEqual(orders.map((o) => ({ order: `#${o.display_id}`, id: String(o.id), result: "ok", status_name: "confirmed", previous_status: "new" })));
    expect(r.data.counts).toEqual({ ok: 3 });
    orders.forEach((o, i) => {
      expect(o.status).toBe(1);
      expect(h.sandbox.server.count("PUT", orderPath(o)) - before[i]![0]!).toBe(1);
      // Read when its write is built (the number was resolved through the list), and read back.
      expect(h.sandbox.server.count("GET", orderPath(o)) - before[i]![1]!).toBe(2);
    });
  });

  it("gives back the note each order had when a new one replaces it", async () => {
    const orders = fresh(2, 0, true);
    orders[1]!.note = "Khách dặn gọi trước 30 phút";
    const old = orders.map((o) => o.note);
    const r = await h.call("update_order", { order_ids: orders.map((o) => String(o.id)), note: "Giao sau 17h" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.results.map((x: { replaced_note?: string }) => x.replaced_note)).toEqual(old);
    for (const o of orders) expect(o.note).toBe("Giao sau 17h");
  });

  it("appends a note and adds a tag to each order, keeping what was there", async () => {
    const orders = fresh(2, 1, true);
    const tag = pos().orderTags[0]!;
    const notes = orders.map((o) => o.note);
    const r = await h.call("update_order", { order_ids: orders.map((o) => String(o.id)), add_note: "Đã gọi khách", add_tags: [tag.name] });
    expect(r.isError, r.text).toBe(false);
    orders.forEach((o, i) => {
      expect(o.note).toBe(`${notes[i]}\nĐã gọi khách`);
      expect(o.tags.map((t) => (typeof t === "object" ? t.id : t))).toContain(tag.id);
      expect(r.data.results[i]).toMatchObject({ result: "ok", note: o.note, tags: expect.arrayContaining([tag.name]) });
    });
  });

  it("adds tags by name and removes them by id, keeping the others, for an order named by number", async () => {
    const order = pos().orders.find((o) => o.tags.length === 1 && !o.is_removed && !taken.has(o.id))!;
    taken.add(order.id);
    const kept = order.tags[0]!.name;
    const added = await h.call("update_order", { order_ids: [`#${order.display_id}`], add_tags: ["giao gap", "Đã gọi xác nhận"] });
    expect(added.isError, added.text).toBe(false);
    expect(added.data.results[0].tags).toEqual([...new Set([kept, "Giao gấp", "Đã gọi xác nhận"])]);
    expect(order.tags.map((t) => t.name)).toEqual(added.data.results[0].tags);
    const confirmed = pos().orderTags.find((t) => t.name === "Đã gọi xác nhận")!;
    const removed = await h.call("update_order", { order_ids: [order.id], remove_tags: [confirmed.id] });
    expect(order.tags.map((t) => t.name)).toEqual(removed.data.results[0].tags);
    expect(removed.data.results[0].tags).not.toContain("Đã gọi xác nhận");
    expect(removed.data.results[0].tags).toContain(kept);
  });

  it("answers each order on its own: refused, not applied and unknown beside ok, none retried", async () => {
    const [ok, ignored, lost, rejected] = fresh(4, 0);
    const removed = pos().orders.find((o) => o.is_removed)!;
    const server = h.sandbox.server;
    // Accepted but not applied (the sandbox answers without changing it), answer lost after the write, refused.
    server.injectFault({ method: "PUT", path: `/orders/${ignored!.id}`, kind: "status", status: 200, body: { success: true } });
    server.injectFault({ method: "PUT", path: `/orders/${lost!.id}`, kind: "reset", afterHandling: true });
    server.injectFault({ method: "PUT", path: `/orders/${rejected!.id}`, kind: "status", status: 400, body: { success: false, error: "invalid_parameters" } });
    const before = puts();
    const r = await h.call("update_order", {
      order_ids: [ok!.id, ignored!.id, lost!.id, rejected!.id, `#${removed.display_id}`, "#99999999", `#${ok!.display_id}`],
      status: "confirmed",
    });
    server.clearFaults();
    expect(r.isError, r.text).toBe(false);
    const [a, b, c, d, e, f, g] = r.data.results;
    expect(a).toMatchObject({ id: String(ok!.id), result: "ok", status_name: "confirmed" });
    expect(b).toMatchObject({ id: String(ignored!.id), result: "not_applied", status_name: "new", not_applied: [{ field: "status", sent: "confirmed", holds: "new" }] });
    expect(c).toMatchObject({ id: String(lost!.id), result: "unknown", error: expect.stringMatching(/outcome unknown/) });
    expect(d).toMatchObject({ id: String(rejected!.id), result: "refused", error: expect.stringMatching(/HTTP 400.*invalid_parameters/) });
    expect(e).toMatchObject({ order: `#${removed.display_id}`, result: "refused", error: expect.stringMatching(/was deleted/) });
    expect(f).toMatchObject({ order: "#99999999", result: "refused", error: expect.stringMatching(/no order numbered #99999999/) });
    expect(g).toMatchObject({ result: "refused", error: `the same order as ${ok!.id}, changed once` });
    expect(r.data.counts).toEqual({ ok: 1, not_applied: 1, unknown: 1, refused: 4 });
    // Four orders reached the POS, each once; the refused references none.
    expect(puts() - before).toBe(4);
    expect([ok!.status, ignored!.status, lost!.status, rejected!.status]).toEqual([1, 0, 1, 0]);
  });

  it("refuses the whole call before any write when the change itself is wrong", async () => {
    const [order] = fresh(1, 0);
    const before = puts();
    const badStatus = await h.call("update_order", { order_ids: [order!.id], status: "teleported" });
    expect(badStatus.text).toMatch(/status: unknown status "teleported"/);
    const badTag = await h.call("update_order", { order_ids: [order!.id], add_tags: ["không có thẻ này"] });
    expect(badTag.text).toContain("add_tags[0]: unknown value");
    for (const tag of pos().orderTags) expect(badTag.text).toContain(`${tag.name} (${tag.id})`);
    const nothing = await h.call("update_order", { order_ids: [order!.id] });
    expect(nothing.text).toContain("nothing to change");
    const tooMany = await h.call("update_order", { order_ids: Array.from({ length: 51 }, (_, i) => `#${i + 1}`), status: "confirmed" });
    expect(tooMany.text).toContain("order_ids");
    for (const r of [badStatus, badTag, nothing, tooMany]) expect(r.isError).toBe(true);
    expect(puts()).toBe(before);
  });

  it("refuses what changes one order at a time, naming it, and a call naming orders both ways", async () => {
    const [a, b] = fresh(2, 0);
    const before = puts();
    const ids = [a!.id, b!.id];
    const oneOrder = await h.call("update_order", { order_ids: ids, status: "confirmed", shipping_fee: 0, customer_name: "Chị Hạnh", extra: { cash: 1 } });
    expect(oneOrder.isError).toBe(true);
    expect(oneOrder.text).toContain("order_ids: customer_name, shipping_fee, extra change one order at a time");
    expect(oneOrder.text).toMatch(/order_ids takes status, note, add_note, reason, add_tags and remove_tags/);
    const items = await h.call("update_order", { order_ids: ids, items: [{ variation_id: pos().variations[0]!.id, quantity: 1 }] });
    expect(items.text).toContain("order_ids: items change one order at a time");
    const both = await h.call("update_order", { order_id: a!.id, order_ids: [b!.id], status: "confirmed" });
    expect(both.text).toContain("order_id: given with order_ids");
    const listed = await h.call("update_order", { order_id: ids, status: "confirmed" });
    expect(listed.text).toContain("expected one order, not a list (several go in order_ids) at order_id");
    const neither = await h.call("update_order", { status: "confirmed" });
    expect(neither.text).toContain("order_id: missing (required)");
    expect(neither.text).toContain("order_ids");
    for (const r of [oneOrder, items, both, listed, neither]) expect(r.isError).toBe(true);
    expect(puts()).toBe(before);
    expect([a!.status, b!.status]).toEqual([0, 0]);
  });
});
