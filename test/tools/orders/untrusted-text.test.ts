import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// Phones, emails, gender and tracking codes are typed by customers or carriers: sanitized like names.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const hostile = (text: string) => `${text}\u202e\u0007`;
const clean = /^[^\u202e\u0007]*$/;

describe("untrusted contact text", () => {
  it("sanitizes an order's phone, tracking code and address phone", async () => {
    const order = h.sandbox.pos.orders.find((o) => !o.is_removed && o.partner && o.shipping_address)!;
    order.bill_phone_number = hostile("0901234567");
    order.partner!.extend_code = hostile("JT123");
    order.shipping_address!.phone_number = hostile("0907654321");
    const r = await h.call("get_order", { order_id: order.id });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.order.phone).toBe("0901234567");
    expect(r.data.order.tracking).toBe("JT123");
    expect(r.data.order.address.phone).toBe("0907654321");
  });

  it("sanitizes a customer's phones, emails, gender and address phone", async () => {
    const customer = h.sandbox.pos.customers[0]!;
    customer.phone_numbers = [hostile("0911111111")];
    customer.emails = [hostile("a@b.vn")];
    customer.gender = hostile("female");
    const r = await h.call("search_customers", { search: customer.name, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    const row = r.data.customers.find((c: { id: string }) => c.id === customer.id);
    expect(row).toMatchObject({ phones: ["0911111111"], emails: ["a@b.vn"], gender: "female" });
    for (const a of row.addresses ?? []) expect(a.phone ?? "").toMatch(clean);
  });
});
