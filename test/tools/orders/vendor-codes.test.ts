import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// The codes the vendor's OpenAPI adds to the seed's tables: canceled orders (search and cancel)
// and the real payment channel names (e-wallets, pay-later) on orders and transactions.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;

describe("canceled orders", () => {
  it("are searched by name or code, with the status named", async () => {
    const canceled = pos().orders.filter((o) => o.status === 6 && !o.is_removed);
    expect(canceled.length).toBeGreaterThan(2);
    const byName = await h.call("search_orders", { statuses: ["canceled"], limit: 100 });
    expect(byName.isError, byName.text).toBe(false);
    expect(byName.data.orders.map((o: { id: string }) => o.id).sort()).toEqual(canceled.map((o) => String(o.id)).sort());
    expect(new Set(byName.data.orders.map((o: { status_name: string }) => o.status_name))).toEqual(new Set(["canceled"]));
    const byCode = await h.call("search_orders", { statuses: [6, "waiting_for_confirmation"], limit: 100 });
    const expected = pos().orders.filter((o) => (o.status === 6 || o.status === 17) && !o.is_removed);
    expect(byCode.data.orders).toHaveLength(expected.length);
  });

  it("an order is cancelled with update_order, its units back in stock", async () => {
    const order = pos().orders.find((o) => o.status === 1 && !o.is_removed)!;
    const line = order.items[0]!;
    const stock = () => pos().variations.find((v) => v.id === line.variation_id)!.variations_warehouses.find((w) => w.warehouse_id === order.warehouse_id)!.remain_quantity;
    const before = stock();
    const r = await h.call("update_order", { order_id: order.id, status: "cancelled" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.order.status_name).toBe("canceled");
    expect(order.status).toBe(6);
    expect(stock()).toBe(before + order.items.filter((it) => it.variation_id === line.variation_id).reduce((n, it) => n + it.quantity, 0));
    const found = await h.call("search_orders", { statuses: ["canceled"], limit: 100 });
    expect(found.data.orders.map((o: { id: string }) => o.id)).toContain(String(order.id));
  });

  it("a status the list cannot date is refused as a time field, naming why", async () => {
    const r = await h.call("search_orders", { time_field: "canceled", since: "2026-11-01" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("time_field");
    expect(r.text).toContain("the service does not date those");
  });
});

describe("payment channels", () => {
  it("get_order shows e-wallet, card and pay-later payments under their real names", async () => {
    const paid = pos().orders.find((o) => Number(o.charged_by_momo) > 0)!;
    const r = await h.call("get_order", { order_id: paid.id });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.order.payments).toMatchObject({ charged_by_momo: paid.charged_by_momo });
    const channels = new Set(pos().orders.flatMap((o) => Object.keys(o).filter((k) => k.startsWith("charged_by_") && Number(o[k]) > 0)));
    expect([...channels].sort()).toEqual(["charged_by_card", "charged_by_fundiin", "charged_by_kredivo", "charged_by_momo", "charged_by_qrpay", "charged_by_vnpay"]);
  });

  it("create_transaction takes the OpenAPI's channel names and refuses the seed's neutral ones", async () => {
    const ok = await h.call("create_transaction", { name: "Thu ví", amount: 200_000, payments: ["charged_by_vnpay"] });
    expect(ok.isError, ok.text).toBe(false);
    const sent = h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/transactions")).at(-1)!;
    expect((sent.body as { transaction: { payments: string[] } }).transaction.payments).toEqual(["charged_by_vnpay"]);
    const old = await h.call("create_transaction", { name: "Thu ví", amount: 200_000, payments: ["charged_by_wallet_a"] });
    expect(old.isError).toBe(true);
    expect(old.text).toContain("charged_by_momo");
  });
});
