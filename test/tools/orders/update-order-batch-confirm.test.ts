import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// A batch is one decision: where the client can ask, update_order with order_ids asks once for
// all its orders, naming them, and writes none of them unless the user accepts. One order changes
// as asked, with no dialog.

const asked: string[] = [];
let answer: "accept" | "decline" = "accept";
/** What happens in the shop while the user reads the dialog. */
let meanwhile = () => {};
const h = useHarness({
  sandbox: { ratePerSecond: 10_000 },
  elicit: (message) => {
    asked.push(message);
    meanwhile();
    meanwhile = () => {};
    return { action: answer };
  },
});
const pos = () => h.sandbox.pos;
const puts = () => h.sandbox.server.requests.filter((q) => q.method === "PUT").length;

describe("update_order confirmation", () => {
  it("asks once for the whole batch, naming each order and the change, then writes them", async () => {
    const orders = pos().orders.filter((o) => !o.is_removed && o.status === 0).slice(0, 3);
    const removed = pos().orders.find((o) => o.is_removed)!;
    const [count, before] = [asked.length, puts()];
    const r = await h.call("update_order", { order_ids: [...orders.map((o) => `#${o.display_id}`), `#${removed.display_id}`], status: "confirmed", add_note: "Đã xác nhận" });
    expect(r.isError, r.text).toBe(false);
    expect(asked).toHaveLength(count + 1);
    expect(asked.at(-1)).toBe(
      [
        "Cập nhật 3 đơn hàng?",
        `Đơn: ${orders.map((o) => `#${o.display_id}`).join(", ")}`,
        `Bỏ qua: #${removed.display_id}`,
        "Trạng thái: confirmed",
        "Thêm vào ghi chú: Đã xác nhận",
      ].join("\n"),
    );
    expect(puts() - before).toBe(3);
    for (const o of orders) expect(o.status).toBe(1);
  });

  it("keeps what a colleague changed while the user read the dialog: each order is read again when its write is built", async () => {
    const orders = pos().orders.filter((o) => !o.is_removed && o.status === 0).slice(-2);
    for (const o of orders) o.note = "Cho xem hàng trước khi nhận";
    const [mine, theirs] = [pos().orderTags[0]!, pos().orderTags.find((t) => orders.every((o) => !o.tags.some((x) => x.id === t.id)) && t.id !== pos().orderTags[0]!.id)!];
    const tagsBefore = orders.map((o) => o.tags.map((t) => t.id));
    meanwhile = () => {
      orders[0]!.tags.push({ id: theirs.id, name: theirs.name });
      orders[0]!.note = "Khách hẹn chiều mai";
    };
    const r = await h.call("update_order", { order_ids: orders.map((o) => String(o.id)), add_tags: [mine.name], add_note: "Đã gọi" });
    expect(r.isError, r.text).toBe(false);
    expect(orders[0]!.note).toBe("Khách hẹn chiều mai\nĐã gọi");
    expect(orders[0]!.tags.map((t) => t.id)).toEqual([...new Set([...tagsBefore[0]!, theirs.id, mine.id])]);
    expect(orders[1]!.tags.map((t) => t.id)).toEqual([...new Set([...tagsBefore[1]!, mine.id])]);
    expect(r.data.results[0]).toMatchObject({ result: "ok", note: "Khách hẹn chiều mai\nĐã gọi", tags: expect.arrayContaining([theirs.name, mine.name]) });
  });

  it("refuses an order deleted while the user read the dialog, sending nothing for it", async () => {
    const orders = pos().orders.filter((o) => !o.is_removed && o.status === 0).slice(0, 2);
    meanwhile = () => {
      (orders[1] as { is_removed: boolean }).is_removed = true;
    };
    const before = puts();
    const r = await h.call("update_order", { order_ids: orders.map((o) => String(o.id)), add_note: "Đã gọi" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.results.map((x: { result: string }) => x.result)).toEqual(["ok", "refused"]);
    expect(r.data.results[1].error).toMatch(/was deleted/);
    expect(puts() - before).toBe(1);
  });

  it("writes nothing when the user declines", async () => {
    const orders = pos().orders.filter((o) => !o.is_removed && o.status === 0).slice(0, 2);
    answer = "decline";
    const before = puts();
    const r = await h.call("update_order", { order_ids: orders.map((o) => o.id), status: "confirmed" });
    answer = "accept";
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({ sent: false, answer: "decline" });
    expect(puts()).toBe(before);
    for (const o of orders) expect(o.status).toBe(0);
  });

  it("changes one order without asking, as before the batch joined it", async () => {
    const order = pos().orders.find((o) => !o.is_removed && o.status === 0)!;
    const [count, before] = [asked.length, puts()];
    const r = await h.call("update_order", { order_id: `#${order.display_id}`, status: "confirmed" });
    expect(r.isError, r.text).toBe(false);
    expect(asked).toHaveLength(count);
    expect(puts() - before).toBe(1);
    expect(order.status).toBe(1);
  });
});
