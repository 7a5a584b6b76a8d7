import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;

describe("track_order", () => {
  it("gives the carrier, tracking code, dates and the customer's link", async () => {
    const order = pos().orders.find((o) => o.status === 3 && o.partner?.picked_up_at && !o.is_removed)!;
    const r = await h.call("track_order", { order_id: order.id });
    expect(r.isError, r.text).toBe(false);
    const carrier = pos().partners.find((p) => p.id === order.partner!.partner_id)!.name;
    expect(r.data).toMatchObject({ order_id: String(order.id), carrier, tracking_code: order.partner!.extend_code });
    expect(r.data.picked_up_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(r.data.updates.map((u: { status: string }) => u.status)).toEqual(["Chờ lấy hàng", "Đã lấy hàng, đang giao", "Giao hàng thành công"]);
    expect(r.data.status_name).toBe("received");
    expect(r.data.link).toBe(order.tracking_link);
  });

  it("finds the order by its shop number (#560 or 560) and reads without writing", async () => {
    const order = pos().orders.find((o) => o.partner?.extend_code && !o.is_removed)!;
    const posts = () => h.sandbox.server.requests.filter((q) => q.method !== "GET").length;
    const before = posts();
    for (const ref of [`#${order.display_id}`, String(order.display_id), `order ${order.display_id}`]) {
      const r = await h.call("track_order", { order_id: ref });
      expect(r.isError, `${ref}: ${r.text}`).toBe(false);
      expect(r.data).toMatchObject({ order_id: String(order.id), tracking_code: order.partner!.extend_code });
    }
    expect(posts()).toBe(before);
    const tools = await h.client.listTools();
    expect(tools.tools.find((t) => t.name === "track_order")!.annotations?.readOnlyHint).toBe(true);
  });

  it("answers an order not yet handed to a carrier without inventing one", async () => {
    const order = pos().orders.find((o) => !o.partner && !o.is_removed)!;
    const r = await h.call("track_order", { order_id: order.id });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.carrier).toBeUndefined();
    expect(r.data.tracking_code).toBeUndefined();
    expect(r.data.updates).toEqual([]);
  });
});
