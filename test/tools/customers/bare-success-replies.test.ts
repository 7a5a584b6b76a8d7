import { describe, expect, it } from "vitest";
import { toolCalls } from "../../fixtures/tool-calls.js";
import { useHarness } from "../../helpers/harness.js";

// Some live writes answer only {success: true}: the known id is reported, an unknown one left out.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const bare = (method: string, path: RegExp) =>
  h.sandbox.server.injectFault({ method, path, kind: "status", status: 200, body: { success: true } });

async function call(name: string, args: Record<string, unknown>) {
  const r = await h.call(name, args);
  expect(r.isError, r.text).toBe(false);
  expect(r.text).not.toContain("undefined");
  return r.data;
}

describe("writes answered with {success: true} only", () => {
  it("save_customer update reports the customer_id", async () => {
    const customer = h.sandbox.pos.customers[0]!;
    bare("PUT", /\/customers\//);
    const data = await call("save_customer", { customer_id: customer.id, name: "Nguyễn Văn B" });
    expect(data.id).toBe(customer.id);
    expect(data.created).toBe(false);
  });

  it("save_customer create leaves the unknown id out", async () => {
    bare("POST", /\/customers$/);
    const data = await call("save_customer", { name: "Trần Thị Mai", phone_numbers: ["0977000333"] });
    expect(data.id).toBeUndefined();
    expect(data.created).toBe(true);
  });

  it("save_warehouse update reports the warehouse_id", async () => {
    const warehouse = h.sandbox.pos.warehouses[0]!;
    bare("PUT", /\/warehouses\//);
    const data = await call("save_warehouse", { warehouse_id: warehouse.id, phone_number: "0900111222", shelf_config: {} });
    expect(data.warehouse.id).toBe(warehouse.id);
  });

  it("create_return_order, create_stock_transfer and add_customer_note leave the unknown id out", async () => {
    bare("POST", /\/orders_returned$/);
    const returned = await call("create_return_order", toolCalls.create_return_order!(h.sandbox));
    expect(returned.id).toBeUndefined();

    bare("POST", /\/transfers\/multi$/);
    const transfer = toolCalls.create_stock_transfer!(h.sandbox);
    const moved = await call("create_stock_transfer", transfer);
    expect(moved.transfers.map((t: { to_warehouse_id: string }) => t.to_warehouse_id)).toEqual(transfer.to_warehouse_ids);

    bare("POST", /\/create_note$/);
    const noted = await call("add_customer_note", { customer_id: h.sandbox.pos.customers[0]!.id, message: "Giao sau 18h" });
    expect(noted.id).toBeUndefined();
    expect(noted.note.staff_text).toBe("Giao sau 18h");
  });
});
