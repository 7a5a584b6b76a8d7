import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// update_order reads the order back after the POS accepted the change, and names what did not
// take: the live POS ignores fee changes made through the API (the sandbox does the same) and
// answers success all the same.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 }, config: { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5, budgetMs: 5_000 } } });
const pos = () => h.sandbox.pos;
const live = () => pos().orders.filter((o) => !o.is_removed);
const hits = (method: string, path: string) => h.sandbox.server.count(method, path);

describe("update_order reads the order back", () => {
  it("names a fee the POS ignored, with what the order holds and what to do, and sends the write once", async () => {
    const order = live().find((o) => o.status === 1 && o.shipping_fee > 0)!;
    const fee = order.shipping_fee;
    const path = `/pos/api/v1/shops/${pos().shop.id}/orders/${order.id}`;
    const [puts, gets] = [hits("PUT", path), hits("GET", path)];
    const r = await h.call("update_order", { order_id: `#${order.display_id}`, shipping_fee: 0, note: "Miễn phí ship" });
    expect(r.isError, r.text).toBe(false);
    expect(hits("PUT", path) - puts).toBe(1);
    // Read back once, after the write (the order was found by its number, not read by id first).
    expect(hits("GET", path) - gets).toBe(1);
    expect(order.shipping_fee).toBe(fee);
    expect(order.note).toBe("Miễn phí ship");
    expect(r.data.not_applied).toEqual([{ field: "shipping_fee", sent: 0, holds: fee, fix: expect.stringMatching(/POS app.*create_order/) }]);
    // What the result shows is the order as read back: the fee it still has, the note it took.
    expect(r.data.order).toMatchObject({ shipping_fee: fee, staff_note: "Miễn phí ship" });
  });

  it("does not offer to make an order again once it is with the carrier", async () => {
    const order = live().find((o) => o.status === 2 && o.shipping_fee > 0)!;
    const r = await h.call("update_order", { order_id: `#${order.display_id}`, shipping_fee: 0 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.not_applied).toEqual([{ field: "shipping_fee", sent: 0, holds: order.shipping_fee, fix: expect.stringMatching(/already with the carrier: set it in the POS app/) }]);
    expect(r.data.not_applied[0].fix).not.toMatch(/create_order/);
  });

  it("says nothing is missing when every field took", async () => {
    const order = live().find((o) => o.status === 0)!;
    const r = await h.call("update_order", { order_id: order.id, customer_name: "Chị Hạnh", status: "confirmed" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.not_applied).toBeUndefined();
    expect(order).toMatchObject({ bill_full_name: "Chị Hạnh", status: 1 });
    expect(r.data.order).toMatchObject({ customer_name: "Chị Hạnh", status_name: "confirmed" });
  });

  it("takes a receiver phone the POS keeps as \"+84 …\" for the \"09…\" sent as applied, and names one it did not keep", async () => {
    const order = live().find((o) => o.status === 0 && o.shipping_address)!;
    const path = `/pos/api/v1/shops/${pos().shop.id}/orders/${order.id}`;
    // As such a POS would: the phone it was sent is kept with the country code.
    const stop = h.sandbox.server.onRequest((q) => {
      const a = order.shipping_address;
      if (q.method === "GET" && q.path === path && a?.phone_number?.startsWith("0")) a.phone_number = `+84 ${a.phone_number.slice(1, 4)} ${a.phone_number.slice(4, 7)} ${a.phone_number.slice(7)}`;
    });
    try {
      const r = await h.call("update_order", { order_id: `id:${order.id}`, customer_name: "Chị Ngọc", phone: "0912 345 678", shipping_address: { address: "21 Lý Tự Trọng", commune_id: "7010101" } });
      expect(r.isError, r.text).toBe(false);
      expect(order.shipping_address).toMatchObject({ address: "21 Lý Tự Trọng", phone_number: "+84 912 345 678" });
      expect(r.data.not_applied).toBeUndefined();
    } finally {
      stop();
    }
    h.sandbox.server.injectFault({ method: "PUT", path: `/orders/${order.id}`, kind: "status", status: 200, body: { success: true } });
    const ignored = await h.call("update_order", { order_id: `id:${order.id}`, phone: "0988 000 111", shipping_address: { address: "21 Lý Tự Trọng", commune_id: "7010101" } });
    expect(ignored.data.not_applied).toEqual([
      { field: "phone", sent: "0988000111", holds: "0912345678", fix: expect.any(String) },
      { field: "shipping_address", sent: expect.objectContaining({ phone_number: "0988000111" }), holds: expect.objectContaining({ phone_number: "0912345678" }), fix: expect.any(String) },
    ]);
  });

  it("when the read-back fails, says the POS accepted the change and reports no value", async () => {
    const order = live().find((o) => o.status === 1)!;
    const path = `/pos/api/v1/shops/${pos().shop.id}/orders/${order.id}`;
    const puts = hits("PUT", path);
    h.sandbox.server.injectFault({ method: "GET", path: `/orders/${order.id}`, kind: "status", status: 502, times: 5 });
    const r = await h.call("update_order", { order_id: `#${order.display_id}`, note: "Gọi lại lúc 5h" });
    h.sandbox.server.clearFaults();
    expect(r.isError, r.text).toBe(false);
    expect(hits("PUT", path) - puts).toBe(1);
    expect(order.note).toBe("Gọi lại lúc 5h");
    expect(r.data.order).toBeUndefined();
    expect(r.data.unverified).toMatch(/accepted the order change, but reading it back failed.*do not repeat the write/);
  });

  it("an answer lost after the write is an unknown outcome, never retried", async () => {
    const order = live().find((o) => o.status === 1)!;
    const path = `/pos/api/v1/shops/${pos().shop.id}/orders/${order.id}`;
    const puts = hits("PUT", path);
    h.sandbox.server.injectFault({ method: "PUT", path: `/orders/${order.id}`, kind: "reset", afterHandling: true });
    const r = await h.call("update_order", { order_id: order.id, note: "Đổi giờ giao" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/outcome unknown/);
    expect(hits("PUT", path) - puts).toBe(1);
  });
});

describe("update_order refuses what the POS would not take, before sending anything", () => {
  it("refuses new lines for an order past new, naming its status and the way out", async () => {
    const order = live().find((o) => o.status === 2)!;
    const lines = JSON.stringify(order.items);
    const puts = h.sandbox.server.requests.filter((q) => q.method === "PUT").length;
    const r = await h.call("update_order", { order_id: order.id, items: [{ variation_id: pos().variations[0]!.id, quantity: 1 }] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`items: order #${order.display_id} is shipped (status 2): its lines can be replaced only while it is new (status 0)`);
    expect(r.text).toMatch(/create_return_order \(toolset orders;.*create_order/);
    expect(h.sandbox.server.requests.filter((q) => q.method === "PUT").length).toBe(puts);
    expect(JSON.stringify(order.items)).toBe(lines);
  });
});

describe("notes that keep what was there", () => {
  it("adds below the note with add_note, replacing nothing", async () => {
    const order = live().find((o) => o.note && o.status === 1)!;
    const old = order.note;
    const r = await h.call("update_order", { order_id: order.id, add_note: "Khách dặn gọi trước" });
    expect(r.isError, r.text).toBe(false);
    expect(order.note).toBe(`${old}\nKhách dặn gọi trước`);
    expect(r.data.replaced_note).toBeUndefined();
    expect(r.data.order.staff_note).toBe(`${old}\nKhách dặn gọi trước`);
  });

  it("cancels with a reason added below the note, which is kept", async () => {
    const order = live().find((o) => o.note && o.status === 0) ?? Object.assign(live().find((o) => o.status === 0)!, { note: "Gọi trước khi giao" });
    const old = order.note;
    const r = await h.call("update_order", { order_id: `#${order.display_id}`, status: "cancelled", reason: "khách đổi ý" });
    expect(r.isError, r.text).toBe(false);
    expect(order.status).toBe(6);
    expect(order.note).toBe(`${old}\nLý do hủy: khách đổi ý`);
    expect(r.data.order).toMatchObject({ status_name: "canceled", staff_note: order.note });
  });

  it("refuses a reason without a cancellation", async () => {
    const order = live().find((o) => o.status === 1)!;
    const r = await h.call("update_order", { order_id: order.id, status: "packing", reason: "khách đổi ý" });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/reason: goes with status cancelled[\s\S]*add_note/);
  });
});
