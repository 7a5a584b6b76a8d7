import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGET } from "../../src/outbound.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { useSandboxStdio } from "../helpers/stdio-client.js";

// One upstream record built to blow up a result: 40,000 status changes and a 3 MB note.
describe("every result stays within its size budget, cut with an explicit marker", () => {
  let orderId: string;
  const h = useSandboxStdio({
    prepare(sandbox) {
      orderId = String((argsFor("get_order", sandbox) as { order_id: string }).order_id);
      const order = sandbox.pos.orders.find((o) => String(o.id) === orderId)!;
      const entry = order.status_history[0]!;
      order.status_history = Array.from({ length: 40_000 }, (_, i) => ({ ...entry, id: i, status: i % 5 }));
      order.note = "n".repeat(3_000_000);
    },
    // The body cap (8 MB by default) would refuse the record before any budget applies.
    env: { PANCAKE_MAX_RESPONSE_BYTES: "50000000" },
  });

  for (const detail of ["compact", "full"]) {
    it(`get_order, detail ${detail}`, async () => {
      const r = await h.server.call("get_order", { order_id: orderId, detail });
      expect(r.isError, r.text.slice(0, 300)).toBe(false);
      expect(r.text.length).toBeLessThanOrEqual(DEFAULT_BUDGET);
      expect(r.data.result_cut).toMatch(/status_histor(y|ies)(\[\])?: first \d+ of 40000 entries/);
      // What was kept is the start of the record, as it was.
      expect(JSON.stringify(r.data)).toContain(orderId);
    });
  }

  it("an ordinary result is untouched", async () => {
    const r = await h.server.call("search_orders", { limit: 100 });
    expect(r.isError).toBe(false);
    expect(r.data.result_cut).toBeUndefined();
    expect(r.data.orders).toHaveLength(100);
  });
});
