import { describe, expect, it } from "vitest";
import type { CustomerRecord } from "../../../src/sandbox/pos/index.js";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const pos = () => h.sandbox.pos;
const newest = (rows: CustomerRecord[]) =>
  [...rows].sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : a.id < b.id ? -1 : 1));
const withOrders = () => pos().customers.find((c) => c.order_count > 2 && pos().pointLogs.some((l) => l.shop_customer_id === c.id))!;

describe("search_customers", () => {
  it("finds a customer by phone with points, level name and spend", async () => {
    const c = withOrders();
    const r = await h.call("search_customers", { search: c.phone_numbers[0] });
    expect(r.isError, r.text).toBe(false);
    const row = r.data.customers.find((x: { id: string }) => x.id === c.id);
    expect(row).toMatchObject({ customer_name: c.name, reward_point: c.reward_point, order_count: c.order_count, purchased_amount: c.purchased_amount });
    expect(row.level).toBe(pos().levels.find((l) => l.id === c.level_id)?.name);
    // Each address as written, with its id to edit it by; the customer's own name and phone, and
    // the place ids the address already names, are not repeated.
    const held = c.shop_customer_address[0]!;
    expect(held.full_name).toBe(c.name);
    expect(row.addresses[0]).toEqual({ id: held.id, full_address: held.full_address });
  });

  it("says what its order figures count: every order, or received ones only", async () => {
    // A customer with orders that did not succeed (cancelled, returned, on their way) beside received ones.
    const mine = (c: CustomerRecord) => pos().orders.filter((o) => o.shop_customer_id === c.id && !o.is_removed);
    const received = (c: CustomerRecord) => mine(c).filter((o) => o.status === 3 || o.status === 16);
    const c = pos().customers.find((x) => received(x).length > 0 && mine(x).some((o) => [4, 5, 6, 15].includes(o.status)))!;
    const r = await h.call("search_customers", { search: c.phone_numbers[0] });
    const row = r.data.customers.find((x: { id: string }) => x.id === c.id);
    expect(row).toMatchObject({
      order_count: mine(c).length,
      succeeded_orders: received(c).length,
      purchased_amount: received(c).reduce((t, o) => t + o.total_price, 0),
    });
    expect(row.succeeded_orders).toBeLessThan(row.order_count);
    // Every figure a row carries is explained once in the answer, beside the rows and never without them.
    for (const figure of ["order_count", "succeeded_orders", "purchased_amount"]) expect(r.data.figures).toContain(`${figure}:`);
    const none = await h.call("search_customers", { search: "0000000000" });
    expect(none.data.customers).toEqual([]);
    expect(none.data.figures).toBeUndefined();
    const raw = await h.call("search_customers", { search: c.phone_numbers[0], detail: "full" });
    expect(raw.data.figures).toBeUndefined();
  });

  it("gives the spend as the POS keeps it, and says which orders it sums: the delivered ones", async () => {
    const c = withOrders();
    const delivered = pos().orders.filter((o) => o.shop_customer_id === c.id && !o.is_removed && (o.status === 3 || o.status === 16));
    const spent = delivered.reduce((n, o) => n + o.total_price, 0);
    expect(spent).toBeGreaterThan(0);
    const own = await h.call("search_customers", { search: c.phone_numbers[0] });
    expect(own.data.customers.find((x: { id: string }) => x.id === c.id).purchased_amount ?? 0).toBe(spent);
    expect(own.data.figures).toContain(
      "succeeded_orders: the delivered ones (received, money_collected); purchased_amount: the POS's own field, the goods of those delivered orders (their total_price: after item discounts, before order discounts, shipping excluded)",
    );
    const saved = c.purchased_amount;
    // A record whose spend is no sum of its orders (the OpenAPI's example customer: 8 successful orders, 0 spent).
    c.purchased_amount = 12_345;
    try {
      const r = await h.call("search_customers", { search: c.phone_numbers[0] });
      expect(r.data.customers.find((x: { id: string }) => x.id === c.id).purchased_amount).toBe(12_345);
    } finally {
      c.purchased_amount = saved;
    }
  });

  it("finds a customer and their orders by a phone written with the country code in parentheses, dashes or dots", async () => {
    const c = withOrders();
    const national = c.phone_numbers[0]!;
    const orders = pos().orders.filter((o) => !o.is_removed && o.bill_phone_number === national).length;
    expect(orders).toBeGreaterThan(0);
    const [a, b, d] = [national.slice(1, 4), national.slice(4, 7), national.slice(7)];
    for (const form of [`(+84) ${a}-${b}-${d}`, `(+84)${a}${b}${d}`, `+84 0${a} ${b} ${d}`, `+84.${a}.${b}.${d}`]) {
      const customers = await h.call("search_customers", { search: form });
      expect(customers.data.customers.map((x: { id: string }) => x.id), form).toEqual([c.id]);
      const found = await h.call("search_orders", { search: form, limit: 100 });
      expect(found.data.total, form).toBe(orders);
    }
  });

  it("filters by level name and pages without repeats", async () => {
    const level = pos().levels.find((l) => pos().customers.filter((c) => c.level_id === l.id).length > 5)!;
    const expected = newest(pos().customers.filter((c) => c.level_id === level.id)).map((c) => c.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await h.call("search_customers", { levels: [level.name], limit: 4, ...(cursor ? { cursor } : {}) });
      expect(r.data.total).toBe(expected.length);
      seen.push(...r.data.customers.map((c: { id: string }) => c.id));
      cursor = r.data.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    const bad = await h.call("search_customers", { levels: ["Platinum"] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain(level.name);
  });

  it("gives raw records at most 10 to a call and continues where the cut fell", async () => {
    const expected = newest(pos().customers).map((c) => c.id);
    const first = await h.call("search_customers", { limit: 30, detail: "full" });
    expect(first.isError, first.text).toBe(false);
    expect(first.data.customers.map((c: { id: string }) => c.id)).toEqual(expected.slice(0, 10));
    expect(first.data.customers[0]).toHaveProperty("phone_numbers");
    const next = await h.call("search_customers", { limit: 30, detail: "full", cursor: first.data.next_cursor });
    expect(next.data.customers.map((c: { id: string }) => c.id)).toEqual(expected.slice(10, 20));
    const compact = await h.call("search_customers", { limit: 30 });
    expect(compact.data.customers).toHaveLength(30);
  });

  it("filters by the time they were added", async () => {
    const sorted = newest(pos().customers);
    const pivot = sorted[20]!;
    const since = Math.floor(Date.parse(`${pivot.inserted_at}Z`) / 1000);
    const expected = sorted.filter((c) => Date.parse(`${c.inserted_at}Z`) >= since * 1000).map((c) => c.id);
    const r = await h.call("search_customers", { since, limit: 100 });
    expect(r.data.customers.map((c: { id: string }) => c.id)).toEqual(expected);
  });
});

describe("search_customers ranked", () => {
  it("ranks every matching customer by points, orders or spend, over upstream pages", async () => {
    for (const field of ["reward_point", "order_count", "purchased_amount"] as const) {
      const top = [...pos().customers].sort((a, b) => Number(b[field] ?? 0) - Number(a[field] ?? 0)).slice(0, 5);
      const r = await h.call("search_customers", { sort_by: field, limit: 5 });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.customers.map((c: Record<string, number>) => c[field])).toEqual(top.map((c) => Number(c[field] ?? 0)));
      expect(r.data.total).toBe(pos().customers.length);
      expect(r.data.note).toBeUndefined();
    }
    // More customers than one upstream page: the ranking is over all of them.
    expect(pos().customers.length).toBeGreaterThan(100);
    const cursor = await h.call("search_customers", { sort_by: "reward_point", cursor: "x" });
    expect(cursor.isError).toBe(true);
  });
});

describe("save_customer", () => {
  it("creates a customer, then adds and updates addresses", async () => {
    const created = await h.call("save_customer", { name: "Trần Thị Mai", phone_numbers: ["0977000333"], date_of_birth: "1995-04-12", level: "Bạc" });
    expect(created.isError, created.text).toBe(false);
    expect(created.data.created).toBe(true);
    const post = h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/customers")).at(-1);
    expect(post?.body).toMatchObject({ name: "Trần Thị Mai", phoneNumber: "0977000333", dateOfBirth: "1995-04-12" });
    const stored = pos().customers.find((c) => c.id === created.data.id)!;
    expect(stored).toMatchObject({ name: "Trần Thị Mai", phone_numbers: ["0977000333"], date_of_birth: "1995-04-12" });
    expect(stored.level_id).toBe(pos().levels.find((l) => l.name === "Bạc")!.id);

    const added = await h.call("save_customer", {
      customer_id: stored.id,
      addresses: JSON.stringify([{ address: "9 Pasteur", commune_id: "7010101", full_name: "Mai", phone_number: "0977000333" }]),
    });
    expect(added.isError, added.text).toBe(false);
    expect(stored.shop_customer_address).toHaveLength(1);
    const addressId = stored.shop_customer_address[0]!.id;
    expect(stored.shop_customer_address[0]).toMatchObject({ district_id: "70101", province_id: "701" });

    const changed = await h.call("save_customer", { customer_id: stored.id, addresses: [{ id: addressId, address: "10 Pasteur" }], extra: { gender: "female" } });
    expect(changed.isError, changed.text).toBe(false);
    expect(stored.shop_customer_address).toHaveLength(1);
    expect(stored.shop_customer_address[0]!.address).toBe("10 Pasteur");
    expect(stored.gender).toBe("female");
    expect(changed.data.customer.addresses[0].full_address).toContain("10 Pasteur");

    const empty = await h.call("save_customer", {});
    expect(empty.isError).toBe(true);
    const posts = h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/customers")).length;
    const noPhone = await h.call("save_customer", { name: "Không Số" });
    expect(noPhone.isError).toBe(true);
    expect(noPhone.text).toContain("phone_numbers");
    const noName = await h.call("save_customer", { phone_numbers: ["0900000001"] });
    expect(noName.text).toContain("name");
    expect(h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/customers")).length).toBe(posts);
    const badDate = await h.call("save_customer", { name: "x", date_of_birth: "12/04/1995" });
    expect(badDate.text).toContain("date_of_birth");
  });
});

describe("save_customer reads an update back", () => {
  it("says every field took, or names the one the POS did not keep, with a customer named by phone", async () => {
    const customer = pos().customers.find((c) => c.phone_numbers[0] && c.tags.length === 0)!;
    const phone = customer.phone_numbers[0]!;
    const path = `/pos/api/v1/shops/${pos().shop.id}/customers/${customer.id}`;
    const seen = h.sandbox.server.requests.length;
    const ok = await h.call("save_customer", { customer_id: `${phone.slice(0, 4)} ${phone.slice(4)}`, tags: ["VIP"], emails: ["mai@example.com"] });
    expect(ok.isError, ok.text).toBe(false);
    expect(ok.data.not_applied).toBeUndefined();
    expect(customer).toMatchObject({ tags: ["VIP"], emails: ["mai@example.com"] });
    expect(ok.data.customer.id).toBe(customer.id);
    expect(h.sandbox.server.requests.slice(seen).filter((q) => q.path === path).map((q) => q.method)).toEqual(["PUT", "GET"]);

    // The POS answers success without keeping the name.
    h.sandbox.server.injectFault({ method: "PUT", path: `/customers/${customer.id}`, kind: "status", status: 200, body: { success: true } });
    const ignored = await h.call("save_customer", { customer_id: customer.id, name: "Tên Mới" });
    expect(ignored.isError, ignored.text).toBe(false);
    expect(ignored.data.not_applied).toEqual([{ field: "name", sent: "Tên Mới", holds: customer.name, fix: expect.stringContaining("POS app") }]);
    expect(ignored.data.customer.customer_name).toBe(customer.name);
  });
});

describe("an address phone the POS keeps in another form", () => {
  it("is no miss: a POS that keeps \"+84 …\" for the \"09…\" sent holds it, and the address still reads as taken", async () => {
    const customer = pos().customers.find((c) => c.phone_numbers[0] && c.shop_customer_address.length > 0)!;
    const path = `/pos/api/v1/shops/${pos().shop.id}/customers/${customer.id}`;
    // As such a POS would: the phones it was sent are kept with the country code.
    const stop = h.sandbox.server.onRequest((q) => {
      if (q.method !== "GET" || q.path !== path) return;
      for (const a of customer.shop_customer_address) if (a.phone_number?.startsWith("0")) a.phone_number = `+84 ${a.phone_number.slice(1, 4)} ${a.phone_number.slice(4, 7)} ${a.phone_number.slice(7)}`;
    });
    try {
      const r = await h.call("save_customer", { customer_id: customer.id, addresses: [{ address: "21 Lý Tự Trọng", commune_id: "7010101", full_name: "Chị Ngọc", phone_number: "0912 345 678" }] });
      expect(r.isError, r.text).toBe(false);
      expect(customer.shop_customer_address.at(-1)).toMatchObject({ address: "21 Lý Tự Trọng", phone_number: "+84 912 345 678" });
      expect(r.data.not_applied).toBeUndefined();
      // A phone the POS did not keep is still named.
      const stored = customer.shop_customer_address.at(-1)!;
      h.sandbox.server.injectFault({ method: "PUT", path: `/customers/${customer.id}`, kind: "status", status: 200, body: { success: true } });
      const ignored = await h.call("save_customer", { customer_id: customer.id, addresses: [{ id: String(stored.id), phone_number: "0988 000 111" }] });
      expect(ignored.data.not_applied).toEqual([{ field: "addresses[0]", sent: { phone_number: "0988000111" }, holds: expect.objectContaining({ phone_number: "0912345678" }), fix: expect.any(String) }]);
    } finally {
      stop();
    }
  });
});

describe("points, notes, levels, promotions", () => {
  it("lists point changes newest first with balances", async () => {
    const c = withOrders();
    const logs = pos().pointLogs.filter((l) => l.shop_customer_id === c.id).reverse();
    const r = await h.call("list_customer_point_logs", { customer_id: c.id, limit: 100 });
    expect(r.data.total).toBe(logs.length);
    expect(r.data.point_logs.map((l: { change: number; balance: number }) => [l.change, l.balance])).toEqual(logs.map((l) => [l.amount, l.current_point]));
    expect(r.data.point_logs[0].staff_note).toBe(logs[0]!.note);
  });

  it("adds a note and lists it first, as staff text", async () => {
    const c = withOrders();
    const before = (pos().customerNotes[c.id] ?? []).length;
    const order = pos().orders.find((o) => o.display_id === 1)!;
    const added = await h.call("add_customer_note", { customer_id: c.id, message: "Khách muốn giao sau 18h\u200b", order_id: "#1" });
    expect(added.isError, added.text).toBe(false);
    expect(pos().customerNotes[c.id]).toHaveLength(before + 1);
    const r = await h.call("list_customer_notes", { customer_id: c.id });
    expect(r.data.total).toBe(before + 1);
    expect(r.data.notes[0]).toMatchObject({ id: added.data.id, staff_text: "Khách muốn giao sau 18h", order_id: String(order.id) });
    expect(r.data.truncated).toBeUndefined();
    const one = await h.call("list_customer_notes", { customer_id: c.id, limit: 1 });
    expect(one.data).toMatchObject({ total: before + 1, truncated: true });
    expect(one.data.notes).toHaveLength(1);
  });

  it("lists levels with the discount type by name", async () => {
    const r = await h.call("list_customer_levels");
    expect(r.data.levels.map((l: { name: string }) => l.name)).toEqual(pos().levels.map((l) => l.name));
    expect(r.data.levels[1]).toMatchObject({ discount: pos().levels[1]!.discount, discount_type: "percent" });
    const one = await h.call("list_customer_levels", { search: "vang" });
    expect(one.data.levels.map((l: { name: string }) => l.name)).toEqual(["Vàng"]);
  });

  it("creates customer promotions after checking required fields", async () => {
    const ids = pos().customers.slice(0, 3).map((c) => c.id);
    const missing = await h.call("create_customer_promotions", { customer_ids: ids, discount: 10, is_percent: true });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("type");
    const tooMuch = await h.call("create_customer_promotions", { customer_ids: ids, type: "coupon", discount: 120, is_percent: true });
    expect(tooMuch.text).toContain("discount");
    const ok = await h.call("create_customer_promotions", {
      customer_ids: ids,
      type: "coupon",
      discount: 10,
      is_percent: true,
      since: "2026-12-01",
      until: "2026-12-31",
      extra: { customer_tags: ["VIP"] },
    });
    expect(ok.isError, ok.text).toBe(false);
    const stored = pos().customerPromotions.at(-1)!;
    expect(ok.data).toMatchObject({ id: stored.id, customer_count: 3 });
    expect(stored).toMatchObject({ shop_customer_ids: ids, type: "coupon", is_activated: true, customer_tags: ["VIP"] });
    expect(stored.promo_code_info).toMatchObject({ discount: 10, is_percent: true });
    expect(stored.start_time).toBe("2026-11-30T17:00:00.000Z");
  });

  it("refuses a promotion for ids that are not the shop's customers, before writing", async () => {
    const before = pos().customerPromotions.length;
    const path = `/pos/api/v1/shops/${pos().shop.id}/promotion_advance/create_multi`;
    const sent = h.sandbox.server.count("POST", path);
    const r = await h.call("create_customer_promotions", { customer_ids: [pos().customers[0]!.id, "not-a-customer"], type: "coupon", discount: 5, is_percent: true });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('customer_ids[1]: no customer has the id, phone or name "not-a-customer"');
    expect(pos().customerPromotions).toHaveLength(before);
    expect(h.sandbox.server.count("POST", path)).toBe(sent);
  });
});
