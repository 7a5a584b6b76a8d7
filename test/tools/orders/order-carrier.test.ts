import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/index.js";
import { useHarness } from "../../helpers/harness.js";

// "Where is order #560, and when will it arrive?": get_order shows what the carrier last said
// (its partner record's extend_update) and the delivery it expects, in shop time (UTC+7), beside
// the order. Expectations are read from the seeded records.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

type Update = { status: string; note: string; update_at: string };
const updatesOf = (o: OrderRecord) => ((o.partner as { extend_update?: Update[] } | null)?.extend_update ?? []) as Update[];
/** A record time (UTC, no zone) as shop time with its offset. */
const shopTime = (utc: string) => `${new Date(Date.parse(`${utc.slice(0, 19)}Z`) + 7 * 3_600_000).toISOString().slice(0, 19)}+07:00`;

describe("get_order and the carrier", () => {
  it("shows the carrier's latest three updates, newest first, and the expected delivery, in shop time", async () => {
    const order = h.sandbox.pos.orders.find((o) => !o.is_removed && updatesOf(o).length > 3 && o.estimate_delivery_date)!;
    const latest = [...updatesOf(order)].sort((a, b) => Date.parse(`${b.update_at}Z`) - Date.parse(`${a.update_at}Z`)).slice(0, 3);
    const r = await h.call("get_order", { order_id: `#${order.display_id}` });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.order.carrier_updates).toEqual(latest.map((u) => ({ at: shopTime(u.update_at), status: u.status })));
    // The same updates track_order lists in full.
    const tracked = await h.call("track_order", { order_id: `#${order.display_id}` });
    for (const u of r.data.order.carrier_updates) expect(tracked.data.updates).toContainEqual(u);
  });

  it("says when the carrier expects to deliver while the parcel is on its way, and not once it has arrived", async () => {
    const onTheWay = h.sandbox.pos.orders.find((o) => !o.is_removed && o.status === 2 && o.estimate_delivery_date)!;
    const shipped = await h.call("get_order", { order_id: `#${onTheWay.display_id}` });
    expect(shipped.data.order.expected_delivery).toBe(shopTime(onTheWay.estimate_delivery_date!));
    const arrived = h.sandbox.pos.orders.find((o) => !o.is_removed && o.status === 3 && o.estimate_delivery_date)!;
    const received = await h.call("get_order", { order_id: `#${arrived.display_id}` });
    expect(received.isError, received.text).toBe(false);
    expect(received.data.order.expected_delivery).toBeUndefined();
  });

  it("says nothing of a carrier for an order not yet handed to one", async () => {
    const order = h.sandbox.pos.orders.find((o) => !o.is_removed && !o.partner)!;
    const r = await h.call("get_order", { order_id: `#${order.display_id}` });
    expect(r.data.order.carrier_updates).toBeUndefined();
    expect(r.data.order.carrier_status).toBeUndefined();
  });
});

describe("cod, where order tools return it", () => {
  it("is defined in the output schema as the cash the carrier collects", async () => {
    const { z } = await import("zod");
    const { allTools } = await import("../../../src/tools/index.js");
    type Node = { properties?: Record<string, Node>; items?: Node; description?: string };
    const codOf = (schema: Node, path: string[]): Node | undefined =>
      path.reduce<Node | undefined>((node, key) => (key === "[]" ? node?.items : node?.properties?.[key]), schema);
    for (const [tool, path] of [
      ["get_order", ["order", "cod"]],
      ["create_order", ["order", "cod"]],
      ["update_order", ["order", "cod"]],
      ["search_orders", ["orders", "[]", "cod"]],
    ] as const) {
      const output = allTools.find((t) => t.name === tool)!.output;
      const cod = codOf(z.toJSONSchema(output, { io: "output", unrepresentable: "any" }) as Node, [...path]);
      expect(cod?.description, tool).toMatch(/cash on delivery/i);
    }
  });
});
