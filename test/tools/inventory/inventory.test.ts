import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const pos = () => h.sandbox.pos;
const stockOf = (variationId: string, warehouseId: string) =>
  pos().variations.find((v) => v.id === variationId)!.variations_warehouses.find((s) => s.warehouse_id === warehouseId)!.remain_quantity;
const posts = (path: string) => h.sandbox.server.count("POST", `/shops/${pos().shop.id}${path}`);

describe("list_purchases and split_purchase", () => {
  it("lists purchases by status name", async () => {
    const all = await h.call("list_purchases", { limit: 100 });
    expect(all.isError, all.text).toBe(false);
    expect(all.data.total).toBe(pos().purchases.length);
    const imported = await h.call("list_purchases", { status: "imported" });
    const expected = pos().purchases.filter((p) => p.status === 1);
    expect(imported.data.total).toBe(expected.length);
    const row = imported.data.purchases[0];
    const record = expected.find((p) => p.id === row.id)!;
    expect(row).toMatchObject({ status: "imported", total_price: record.total_price, total_quantity: record.total_quantity });
    expect(row.supplier).toBe((record.supplier as { name: string }).name);
  });

  it("splits a purchase into a kept and a new slip", async () => {
    const purchase = pos().purchases.find((p) => (p.items as { quantity: number }[])[0]!.quantity > 2)!;
    const line = (purchase.items as { variation_id: string; quantity: number; imported_price: number }[])[0]!;
    const count = pos().purchases.length;
    const r = await h.call("split_purchase", {
      purchase_id: purchase.id,
      keep_items: [{ variation_id: line.variation_id, quantity: line.quantity - 2, imported_price: line.imported_price }],
      move_items: JSON.stringify([{ variation_id: line.variation_id, quantity: 2, imported_price: line.imported_price }]),
      new_purchase: { note: "Hàng về sau" },
    });
    expect(r.isError, r.text).toBe(false);
    expect(pos().purchases).toHaveLength(count + 1);
    const created = pos().purchases.find((p) => p.id === r.data.new_purchase_id)!;
    expect(created.total_quantity).toBe(2);
    expect(created.note).toBe("Hàng về sau");
    expect((purchase.items as { quantity: number }[])[0]!.quantity).toBe(line.quantity - 2);
  });

  it("names missing split fields before calling", async () => {
    const before = posts("/purchases/separate");
    const line = { variation_id: "v1", quantity: 1, imported_price: 1000 };
    for (const [args, field] of [
      [{ keep_items: [line], move_items: [line] }, /purchase_id/],
      [{ purchase_id: "p1", keep_items: [line] }, /move_items/],
      [{ purchase_id: "p1", keep_items: [line], move_items: [{ variation_id: "v1", quantity: 1 }] }, /move_items\[0\]\.imported_price/],
      [{ purchase_id: "p1", keep_items: [line], move_items: [line], original: { status: "new" } }, /original\.status/],
    ] as const) {
      const r = await h.call("split_purchase", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(field);
    }
    expect(posts("/purchases/separate")).toBe(before);
  });
});

describe("create_stock_transfer and list_inventory_history", () => {
  it("moves quantities between warehouses, visible as signed history rows", async () => {
    const [a, b] = [pos().warehouses[0]!, pos().warehouses[1]!];
    const v = pos().variations.find((x) => stockOf(x.id, a.id) >= 5 && x.variations_warehouses.some((s) => s.warehouse_id === b.id))!;
    const [fromBefore, toBefore] = [stockOf(v.id, a.id), stockOf(v.id, b.id)];
    const r = await h.call("create_stock_transfer", {
      from_warehouse_id: a.id,
      to_warehouse_ids: [b.id],
      items: [{ variation_id: v.id, quantity: 3 }],
      shipping_fee: 20_000,
      note: "Bổ sung hàng",
      inserted_at: "2026-11-20 08:30",
    });
    expect(r.isError, r.text).toBe(false);
    const sent = h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/transfers/multi")).at(-1);
    expect(sent?.body).toMatchObject({ transfer: { inserted_at: "2026-11-20T01:30:00.000Z" } });
    expect(r.data.transfers).toHaveLength(1);
    expect(r.data.transfers[0].to_warehouse_id).toBe(b.id);
    expect([stockOf(v.id, a.id), stockOf(v.id, b.id)]).toEqual([fromBefore - 3, toBefore + 3]);

    const history = await h.call("list_inventory_history", { variation_ids: [v.id], limit: 10 });
    expect(history.isError, history.text).toBe(false);
    const moves = history.data.movements.filter((m: { source?: string }) => m.source === "Transfer");
    expect(moves.map((m: { warehouse_id: string; quantity: number; remain_quantity: number }) => [m.warehouse_id, m.quantity, m.remain_quantity])).toEqual(
      expect.arrayContaining([
        [a.id, -3, fromBefore - 3],
        [b.id, 3, toBefore + 3],
      ]),
    );
    const atTarget = await h.call("list_inventory_history", { warehouse_id: b.id, variation_ids: [v.id], limit: 1 });
    expect(atTarget.data.movements[0]).toMatchObject({ warehouse: b.name, quantity: 3, ref_display_id: r.data.transfers[0].display_id });

    const listed = await h.call("list_stock_transfers", { status: "waiting" });
    expect(listed.data.transfers[0]).toMatchObject({ id: r.data.transfers[0].id, from_warehouse_id: a.id, total_quantity: 3, shipping_fee: 20_000 });
  });

  it("lists the seeded import history with positive quantities", async () => {
    const seeded = pos().inventoryHistories.filter((m) => m.table_name === "Purchase");
    const v = String(seeded[0]!.variation_id);
    const r = await h.call("list_inventory_history", { variation_ids: [v], limit: 100 });
    const expected = pos().inventoryHistories.filter((m) => m.variation_id === v);
    expect(r.data.total).toBe(expected.length);
    expect(r.data.movements.filter((m: { source: string }) => m.source === "Purchase").every((m: { quantity: number }) => m.quantity > 0)).toBe(true);
  });

  it("checks transfer fields before calling", async () => {
    const before = posts("/transfers/multi");
    const [a, b] = [pos().warehouses[0]!.id, pos().warehouses[1]!.id];
    for (const [args, field] of [
      [{ to_warehouse_ids: [b], items: [{ variation_id: "v", quantity: 1 }] }, /from_warehouse_id/],
      [{ from_warehouse_id: a, items: [{ variation_id: "v", quantity: 1 }] }, /to_warehouse_ids/],
      [{ from_warehouse_id: a, to_warehouse_ids: [b], items: [] }, /items/],
      [{ from_warehouse_id: a, to_warehouse_ids: [b], items: [{ variation_id: "v", quantity: 0 }] }, /items\[0\]\.quantity/],
      [{ from_warehouse_id: a, to_warehouse_ids: [a], items: [{ variation_id: "v", quantity: 1 }] }, /to_warehouse_ids: contains the source/],
    ] as const) {
      const r = await h.call("create_stock_transfer", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(field);
    }
    expect(posts("/transfers/multi")).toBe(before);
  });
});

describe("stock exports", () => {
  it("lists exports by type name and creates one that lowers stock", async () => {
    const defective = await h.call("list_stock_exports", { type: "defective" });
    expect(defective.isError, defective.text).toBe(false);
    expect(defective.data.total).toBe(pos().stockExports.filter((e) => e.type === 1).length);
    expect(defective.data.exports.every((e: { type: string }) => e.type === "defective")).toBe(true);

    const w = pos().warehouses[0]!;
    const v = pos().variations.find((x) => stockOf(x.id, w.id) >= 2)!;
    const before = stockOf(v.id, w.id);
    const r = await h.call("create_stock_export", {
      warehouse_id: w.id,
      status: "completed",
      type: "defective",
      items: [{ variation_id: v.id, quantity: 2, imported_price: v.last_imported_price }],
      note: "Hàng lỗi",
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.status).toBe("completed");
    expect(stockOf(v.id, w.id)).toBe(before - 2);
    const stored = pos().stockExports.find((e) => e.id === r.data.id)!;
    expect(stored).toMatchObject({ status: 1, type: 1, warehouse_id: w.id });
  });

  it("names missing export fields before calling", async () => {
    const before = posts("/export");
    const item = { variation_id: "v", quantity: 1, imported_price: 1 };
    for (const [args, field] of [
      [{ status: "new", items: [item] }, /warehouse_id/],
      [{ warehouse_id: "w", items: [item] }, /status/],
      [{ warehouse_id: "w", status: "all", items: [item] }, /status: unknown/],
      [{ warehouse_id: "w", status: "new" }, /items/],
    ] as const) {
      const r = await h.call("create_stock_export", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(field);
    }
    expect(posts("/export")).toBe(before);
  });
});

describe("stocktakings", () => {
  it("lists stocktakings and reads one with its items", async () => {
    const list = await h.call("list_stocktakings");
    expect(list.isError, list.text).toBe(false);
    expect(list.data.total).toBe(pos().stocktakings.length);
    const record = pos().stocktakings[0]!;
    const one = await h.call("list_stocktakings", { stocktaking_id: record.id });
    const items = record.items as { id: string; variation_id: string; changed_quantity: number }[];
    expect(one.data.stocktakings[0].items).toHaveLength(items.length);
    expect(one.data.stocktakings[0].items[0]).toMatchObject({ id: items[0]!.id, variation_id: items[0]!.variation_id });
    const counting = await h.call("list_stocktakings", { status: "counting" });
    expect(counting.data.total).toBe(pos().stocktakings.filter((s) => s.status === 0).length);
  });

  it("creates and then updates a stocktaking", async () => {
    const w = pos().warehouses[1]!;
    const v = pos().variations[3]!;
    const created = await h.call("save_stocktaking", {
      warehouse_id: w.id,
      status: "counting",
      items: [{ variation_id: v.id, changed_quantity: -1 }],
      note: "Kiểm kho cuối tháng",
      stocktaking_at: "2026-11-21",
    });
    expect(created.isError, created.text).toBe(false);
    expect(created.data).toMatchObject({ created: true, status: "counting" });
    const stored = pos().stocktakings.find((s) => s.id === created.data.id)!;
    // The OpenAPI types stocktaking_at as text, written in ISO 8601 (UTC).
    expect(stored.stocktaking_at).toBe("2026-11-20T17:00:00.000Z");
    const lineId = (stored.items as { id: string }[])[0]!.id;

    const noLineId = await h.call("save_stocktaking", { stocktaking_id: created.data.id, warehouse_id: w.id, status: "counted", items: [{ variation_id: v.id, changed_quantity: 2 }] });
    expect(noLineId.isError).toBe(true);
    expect(noLineId.text).toMatch(/items\[0\]\.id/);

    const noWarehouse = await h.call("save_stocktaking", { stocktaking_id: created.data.id, status: "counted", items: [{ id: lineId, variation_id: v.id, changed_quantity: 2 }] });
    expect(noWarehouse.isError).toBe(true);
    expect(noWarehouse.text).toMatch(/warehouse_id/);

    const updated = await h.call("save_stocktaking", {
      stocktaking_id: created.data.id,
      warehouse_id: w.id,
      status: "counted",
      items: [{ id: lineId, variation_id: v.id, changed_quantity: 2 }],
    });
    expect(updated.isError, updated.text).toBe(false);
    const put = h.sandbox.server.requests.filter((r) => r.method === "PUT" && r.path.endsWith(`/stocktakings/${created.data.id}`)).at(-1);
    expect(put?.body).toMatchObject({ stocktaking: { id: created.data.id, warehouse_id: w.id } });
    expect(updated.data.created).toBe(false);
    expect(stored.status).toBe(1);
    expect((stored.items as { changed_quantity: number }[])[0]!.changed_quantity).toBe(2);
    // Read back after the write: the status is the count's own, and nothing is missing.
    expect(updated.data).toMatchObject({ status: "counted" });
    expect(updated.data.not_applied).toBeUndefined();

    // The POS answers success without keeping the change: the line and status are named.
    h.sandbox.server.injectFault({ method: "PUT", path: `/stocktakings/${created.data.id}`, kind: "status", status: 200, body: { success: true } });
    const ignored = await h.call("save_stocktaking", { stocktaking_id: created.data.id, warehouse_id: w.id, status: "counting", items: [{ id: lineId, variation_id: v.id, changed_quantity: 5 }] });
    expect(ignored.isError, ignored.text).toBe(false);
    expect(ignored.data.status).toBe("counted");
    expect(ignored.data.not_applied.map((n: { field: string }) => n.field)).toEqual(["status", "items[0]"]);
  });

  it("names missing stocktaking fields before calling", async () => {
    const before = posts("/stocktakings");
    for (const [args, field] of [
      [{ status: "counting", items: [{ variation_id: "v", changed_quantity: 1 }] }, /warehouse_id/],
      [{ warehouse_id: "w", items: [{ variation_id: "v", changed_quantity: 1 }] }, /status/],
      [{ warehouse_id: "w", status: "counting", items: [{ variation_id: "v" }] }, /items\[0\]\.changed_quantity/],
      [{ warehouse_id: "w", status: "counting", items: [{ changed_quantity: 1 }] }, /items\[0\]\.variation_id/],
    ] as const) {
      const r = await h.call("save_stocktaking", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(field);
    }
    expect(posts("/stocktakings")).toBe(before);
  });
});
