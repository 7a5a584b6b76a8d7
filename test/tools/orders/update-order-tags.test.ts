import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/types.js";
import { useHarness } from "../../helpers/harness.js";

// One order's tags change by name or id and keep the others, and `extra` cannot replace what has a
// parameter of its own: in a user trial a model tagged orders with `extra: {"tags": [...]}`, which
// dropped each order's other tags.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;
const orderPath = (o: OrderRecord) => `/pos/api/v1/shops/${pos().shop.id}/orders/${o.id}`;
const puts = () => h.sandbox.server.requests.filter((q) => q.method === "PUT").length;
const tagIds = (o: OrderRecord) => o.tags.map((t) => t.id);

const taken = new Set<number>();
/** A live order with one tag that no earlier test of this file changed. */
function tagged(): OrderRecord {
  const order = pos().orders.find((o) => !o.is_removed && ![6, 7].includes(o.status) && o.tags.length === 1 && !taken.has(o.id))!;
  taken.add(order.id);
  return order;
}

describe("update_order tags of one order", () => {
  it("adds a tag by name, keeping the order's tags, written once and read back once", async () => {
    const order = tagged();
    const kept = order.tags[0]!;
    const added = pos().orderTags.find((t) => t.id !== kept.id)!;
    const [put, get] = [h.sandbox.server.count("PUT", orderPath(order)), h.sandbox.server.count("GET", orderPath(order))];
    const r = await h.call("update_order", { order_id: `#${order.display_id}`, add_tags: [added.name.toLowerCase()] });
    expect(r.isError, r.text).toBe(false);
    expect(tagIds(order)).toEqual([kept.id, added.id]);
    expect(r.data.order.tags).toEqual([kept.name, added.name]);
    expect(r.data.not_applied).toBeUndefined();
    expect(h.sandbox.server.count("PUT", orderPath(order)) - put).toBe(1);
    expect(h.sandbox.server.count("GET", orderPath(order)) - get).toBe(1);
  });

  it("removes a tag by id, keeping the others, beside another change", async () => {
    const order = tagged();
    const kept = order.tags[0]!;
    const gone = pos().orderTags.find((t) => t.id !== kept.id)!;
    order.tags.unshift({ id: gone.id, name: gone.name });
    const r = await h.call("update_order", { order_id: order.id, remove_tags: [gone.id], add_note: "Đã gọi" });
    expect(r.isError, r.text).toBe(false);
    expect(tagIds(order)).toEqual([kept.id]);
    expect(r.data.order.tags).toEqual([kept.name]);
    expect(order.note?.endsWith("Đã gọi")).toBe(true);
  });

  it("refuses an unknown tag before anything is sent, listing the shop's tags", async () => {
    const order = tagged();
    const before = puts();
    const r = await h.call("update_order", { order_id: order.id, status: "confirmed", add_tags: ["không có thẻ này"] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("add_tags[0]: unknown value");
    for (const tag of pos().orderTags) expect(r.text).toContain(`${tag.name} (${tag.id})`);
    expect(puts()).toBe(before);
  });
});

describe("update_order extra", () => {
  it("refuses a field that has its own parameter, naming the parameter, before anything is sent", async () => {
    const order = tagged();
    const [tags, note] = [JSON.stringify(order.tags), order.note];
    const before = puts();
    const cases: [Record<string, unknown>, string][] = [
      [{ tags: [pos().orderTags[0]!.id] }, "extra.tags: has its own parameter\nNext step: Pass add_tags or remove_tags (the order's other tags stay) instead"],
      [{ note: "x" }, "extra.note: has its own parameter\nNext step: Pass note instead"],
      [{ bill_full_name: "Chị Hạnh" }, "extra.bill_full_name: has its own parameter\nNext step: Pass customer_name instead"],
      [{ bill_phone_number: "0912345678" }, "Pass phone instead"],
      [{ status: 1 }, "extra.status: has its own parameter"],
      [{ shipping_address: { address: "12 Lê Lợi" } }, "extra.shipping_address: has its own parameter"],
      [{ add_note: "x" }, "extra.add_note: has its own parameter"],
    ];
    for (const [extra, says] of cases) {
      const r = await h.call("update_order", { order_id: order.id, extra });
      expect(r.isError, JSON.stringify(extra)).toBe(true);
      expect(r.text).toContain(says);
    }
    expect(puts()).toBe(before);
    expect([JSON.stringify(order.tags), order.note]).toEqual([tags, note]);
  });

  it("still sends a field no parameter covers, and checks it took", async () => {
    const order = tagged();
    const r = await h.call("update_order", { order_id: order.id, extra: { note_print: "Cho xem hàng" } });
    expect(r.isError, r.text).toBe(false);
    expect(order).toMatchObject({ note_print: "Cho xem hàng" });
    expect(r.data.not_applied).toBeUndefined();
  });
});
