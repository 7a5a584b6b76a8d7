import { describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/index.js";
import { allPages } from "../../helpers/all-pages.js";
import { useHarness } from "../../helpers/harness.js";

// Orders found by what people know: the shop's number, a phone in any form, the page, the post or
// the livestream they came from. Expectations are read from the seeded records directly.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const pos = () => h.sandbox.pos;
const visible = () => pos().orders.filter((o) => !o.is_removed);
const newest = (orders: OrderRecord[]) =>
  [...orders].sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : b.id - a.id));
const ids = (orders: { id: number | string }[]) => orders.map((o) => String(o.id));
const byNumber = (n: number) => pos().orders.find((o) => o.display_id === n)!;

const all = (args: Record<string, unknown>) => allPages(h, "search_orders", "orders", args);

describe("orders by the shop's number", () => {
  it("says a deleted order is deleted, by number and by id, and marks it in search rows", async () => {
    const removed = pos().orders.find((o) => o.is_removed)!;
    for (const ref of [`#${removed.display_id}`, `id:${removed.id}`]) {
      const r = await h.call("get_order", { order_id: ref });
      expect(r.isError, `${ref}: ${r.text}`).toBe(false);
      expect(r.data.order.id).toBe(String(removed.id));
      expect(r.data.order.deleted).toBe(true);
    }
    const puts = h.sandbox.server.requests.filter((q) => q.method === "PUT").length;
    const edit = await h.call("update_order", { order_id: `#${removed.display_id}`, note: "x" });
    expect(edit.isError).toBe(true);
    expect(edit.text).toContain(`order #${removed.display_id} was deleted`);
    expect(h.sandbox.server.requests.filter((q) => q.method === "PUT").length).toBe(puts);
    // A search for its number says it was deleted, rather than an empty answer.
    const searched = await h.call("search_orders", { search: `#${removed.display_id}` });
    expect(searched.data.orders).toEqual([]);
    expect(searched.data.note).toBe(`Order #${removed.display_id} was deleted: pass include_removed true to list it.`);
    const live = await h.call("get_order", { order_id: `#${visible()[0]!.display_id}` });
    expect(live.data.order.deleted).toBeUndefined();
    const rows = await all({ include_removed: true, limit: 100 });
    const flagged = rows.filter((o: { deleted?: boolean }) => o.deleted).map((o: { id: string }) => o.id);
    expect(flagged.sort()).toEqual(ids(pos().orders.filter((o) => o.is_removed)).sort());
  });

  it('get_order reads "#560", "order 560", "đơn 560" and bare 560 as display_id 560', async () => {
    const order = byNumber(560);
    expect(order.id).not.toBe(560);
    for (const ref of ["#560", "order 560", "Đơn hàng #560", "đơn 560", "560", 560]) {
      const r = await h.call("get_order", { order_id: ref });
      expect(r.isError, `${ref}: ${r.text}`).toBe(false);
      expect(r.data.order.id).toBe(String(order.id));
      expect(r.data.order.number).toBe("#560");
    }
  });

  it("still reads an order by its id", async () => {
    const order = byNumber(17);
    const r = await h.call("get_order", { order_id: String(order.id) });
    expect(r.data.order).toMatchObject({ id: String(order.id), number: "#17" });
  });

  it("says plainly when no order has the number", async () => {
    const r = await h.call("get_order", { order_id: "#999999" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("no order numbered #999999");
  });

  it("asks which one when bare digits are one order's id and another's number", async () => {
    const target = byNumber(42);
    const clash = byNumber(43);
    const saved = clash.display_id;
    clash.display_id = target.id;
    try {
      const r = await h.call("update_order", { order_id: String(target.id), note: "x" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`"#${target.id}"`);
      expect(r.text).toContain(`"id:${target.id}"`);
      expect(target.note).not.toBe("x");
      const byId = await h.call("get_order", { order_id: `id:${target.id}` });
      expect(byId.data.order.number).toBe("#42");
      const byNum = await h.call("get_order", { order_id: `#${target.id}` });
      expect(byNum.data.order.id).toBe(String(clash.id));
    } finally {
      clash.display_id = saved;
    }
  });

  it("update_order changes the order the number names", async () => {
    const order = byNumber(321);
    const r = await h.call("update_order", { order_id: "#321", note: "Gọi lại sau 5h" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.order.id).toBe(String(order.id));
    expect(order.note).toBe("Gọi lại sau 5h");
  });

  it("create_return_order returns lines of the order the number names", async () => {
    const order = visible().find((o) => o.status === 3 && o.items.every((it) => it.returned_count === 0))!;
    const line = order.items[0]!;
    const before = pos().returnOrders.length;
    const r = await h.call("create_return_order", {
      order_id: `order ${order.display_id}`,
      items: [{ variation_id: line.variation_id, quantity: 1 }],
      warehouse_id: order.warehouse_id,
    });
    expect(r.isError, r.text).toBe(false);
    expect(pos().returnOrders).toHaveLength(before + 1);
    expect(pos().returnOrders.at(-1)!.order_id_to_returned ?? pos().returnOrders.at(-1)!.order_to_returned?.id).toBe(order.id);
  });

  it('search_orders finds "#N" alone, and within other filters', async () => {
    const order = byNumber(88);
    const r = await h.call("search_orders", { search: "#88" });
    expect(r.isError, r.text).toBe(false);
    expect(ids(r.data.orders)).toEqual([String(order.id)]);
    expect(r.data.next_cursor).toBeUndefined();
    const other = order.status === 5 ? "new" : "returned";
    const none = await h.call("search_orders", { search: "order 88", statuses: [other] });
    expect(none.data.orders).toEqual([]);
  });
});

describe("phones in any form", () => {
  const customerPhone = () => pos().customers.find((c) => visible().filter((o) => o.bill_phone_number === c.phone_numbers[0]).length >= 2)!.phone_numbers[0]!;
  const forms = (p: string) => {
    const n = p.slice(1);
    return [`+84 ${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`, `84${n}`, `${p.slice(0, 4)}.${p.slice(4, 7)}.${p.slice(7)}`, `${p.slice(0, 4)} ${p.slice(4, 7)} ${p.slice(7)}`, `(${p.slice(0, 3)}) ${p.slice(3, 6)}-${p.slice(6)}`];
  };

  it("search_customers finds the same customer from every form", async () => {
    const phone = customerPhone();
    const expected = pos().customers.filter((c) => c.phone_numbers.some((p) => p.includes(phone))).map((c) => c.id);
    expect(expected).toHaveLength(1);
    for (const form of forms(phone)) {
      const r = await h.call("search_customers", { search: form });
      expect(r.data.customers.map((c: { id: string }) => c.id), form).toEqual(expected);
    }
  });

  it("search_orders finds the same orders from every form", async () => {
    const phone = customerPhone();
    const expected = ids(newest(visible().filter((o) => o.bill_phone_number.includes(phone))));
    for (const form of forms(phone)) expect(ids(await all({ search: form, limit: 100 })), form).toEqual(expected);
  });

  it("create_order and save_customer store the national form", async () => {
    const v = pos().variations[3]!;
    const created = await h.call("create_order", { items: [{ variation_id: v.id, quantity: 1 }], customer_name: "Anh Tú", phone: "+84 988 777 666" });
    expect(created.isError, created.text).toBe(false);
    expect(pos().orders.find((o) => String(o.id) === created.data.id)!.bill_phone_number).toBe("0988777666");
    const saved = await h.call("save_customer", { name: "Chị Hoa", phone_numbers: ["84 977.111.222"] });
    expect(saved.isError, saved.text).toBe(false);
    expect(pos().customers.find((c) => c.id === saved.data.id)!.phone_numbers).toEqual(["0977111222"]);
  });

  it("rejects a phone that is not one before writing", async () => {
    const before = pos().orders.length;
    const r = await h.call("create_order", { items: [{ variation_id: pos().variations[0]!.id, quantity: 1 }], phone: "call me" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("phone");
    expect(pos().orders).toHaveLength(before);
  });
});

describe("orders by page, post and livestream", () => {
  it("the shop sells through the inbox's pages", () => {
    const inbox = h.sandbox.messaging.pages.map((p) => p.id);
    const shop = pos().shop.pages.map((p) => p.id);
    expect(shop.filter((id) => inbox.includes(id))).toHaveLength(3);
    const fromPages = visible().filter((o) => o.page_id && inbox.includes(o.page_id));
    expect(fromPages.length).toBeGreaterThan(100);
    // What an ad sold is asked with the inbox's ad ids: orders carry the ad of their page.
    const ads = new Map(h.sandbox.messaging.ads.map((a) => [a.ad_id, a.page_id]));
    const fromAds = visible().filter((o) => o.ad_id);
    expect(fromAds.length).toBeGreaterThan(20);
    for (const o of fromAds) expect(ads.get(o.ad_id!), `order ${o.id}`).toBe(o.page_id);
  });

  it("finds what an inbox ad sold", async () => {
    const ad = h.sandbox.messaging.ads.find((a) => visible().some((o) => o.ad_id === a.ad_id))!;
    const expected = ids(newest(visible().filter((o) => o.ad_id === ad.ad_id)));
    expect(ids(await all({ ad_ids: [ad.ad_id], limit: 100 }))).toEqual(expected);
  });

  it("finds a page's orders by part of the page's name", async () => {
    const page = h.sandbox.messaging.pages.find((p) => p.name.startsWith("Mây Kids"))!;
    const expected = ids(newest(visible().filter((o) => o.account === page.id)));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await all({ sources: ["may kids"], limit: 100 }))).toEqual(expected);
  });

  it("finds the orders of a post, by the inbox's post id or its own part", async () => {
    const post = pos().orders.find((o) => o.post_id && !o.is_removed)!.post_id!;
    const expected = ids(newest(visible().filter((o) => o.post_id === post)));
    expect(h.sandbox.messaging.posts.some((p) => p.id === post)).toBe(true);
    expect(ids(await all({ post_ids: [post], limit: 100 }))).toEqual(expected);
    expect(ids(await all({ post_ids: [post.split("_")[1]!], limit: 100 }))).toEqual(expected);
  });

  it("finds livestream orders, paged, with the total of the filter applied (not the list's own)", async () => {
    const expected = ids(newest(visible().filter((o) => o.is_livestream === true)));
    expect(expected.length).toBeGreaterThan(5);
    const first = await h.call("search_orders", { livestream: true, limit: 5 });
    expect(first.data.total).toBe(expected.length);
    expect(first.data.next_cursor).toBeDefined();
    expect(ids(await all({ livestream: true, limit: 5 }))).toEqual(expected);
    const notLive = ids(newest(visible().filter((o) => o.is_livestream !== true)));
    expect(ids(await all({ livestream: false, limit: 100 }))).toEqual(notLive);
  });

  it("combines a post filter with a projection", async () => {
    const post = pos().orders.find((o) => o.post_id && !o.is_removed)!.post_id!;
    const r = await h.call("search_orders", { post_ids: [post], fields: ["status"], limit: 100 });
    expect(r.isError, r.text).toBe(false);
    expect(ids(r.data.orders)).toEqual(ids(newest(visible().filter((o) => o.post_id === post))));
  });
});

describe("warehouses by name in order writes", () => {
  it("create_order, update_order and create_return_order take a warehouse name", async () => {
    const hcm = pos().warehouses.find((w) => w.name === "Kho Hồ Chí Minh")!;
    const hanoi = pos().warehouses.find((w) => w.name === "Kho Hà Nội")!;
    const v = pos().variations[9]!;
    const created = await h.call("create_order", { items: [{ variation_id: v.id, quantity: 2 }], phone: "0911222333", warehouse_id: "kho ho chi minh" });
    expect(created.isError, created.text).toBe(false);
    const order = pos().orders.find((o) => String(o.id) === created.data.id)!;
    expect(order.warehouse_id).toBe(hcm.id);
    const updated = await h.call("update_order", { order_id: `#${order.display_id}`, warehouse_id: "Kho Ha Noi" });
    expect(updated.isError, updated.text).toBe(false);
    expect(order.warehouse_id).toBe(hanoi.id);
    expect(updated.data.order.warehouse).toBe(hanoi.name);
    const returned = await h.call("create_return_order", { order_id: created.data.id, items: [{ variation_id: v.id, quantity: 1 }], warehouse_id: "kho hà nội" });
    expect(returned.isError, returned.text).toBe(false);
    expect(pos().returnOrders.at(-1)!.warehouse_id).toBe(hanoi.id);
  });

  it("rejects an unknown warehouse with the list, before writing", async () => {
    const before = pos().orders.length;
    const r = await h.call("create_order", { items: [{ variation_id: pos().variations[0]!.id, quantity: 1 }], warehouse_id: "Kho Cần Thơ" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("warehouse_id: unknown value");
    expect(r.text).toContain("Kho Đà Nẵng");
    expect(pos().orders).toHaveLength(before);
  });
});

describe("addresses in words", () => {
  const benNghe = () => pos().geo.communes.find((c) => c.name === "Phường Bến Nghé")!;

  it("create_order fills the ids of a place typed without accents or with short names", async () => {
    const r = await h.call("create_order", {
      items: [{ variation_id: pos().variations[2]!.id, quantity: 1 }],
      phone: "0933444555",
      shipping_address: { address: "12 Lê Lợi, ben nghe, q1, tp hcm" },
    });
    expect(r.isError, r.text).toBe(false);
    const stored = pos().orders.find((o) => String(o.id) === r.data.id)!;
    expect(stored.shipping_address).toMatchObject({ address: "12 Lê Lợi", commune_id: benNghe().id, district_id: benNghe().district_id, province_id: benNghe().province_id });
  });

  it("save_customer reads an address the same way", async () => {
    const customer = pos().customers[5]!;
    const r = await h.call("save_customer", { customer_id: customer.id, addresses: [{ address: "7 Hàng Bạc, Hang Bac, Hoan Kiem, hanoi" }] });
    expect(r.isError, r.text).toBe(false);
    const commune = pos().geo.communes.find((c) => c.name === "Phường Hàng Bạc")!;
    expect(customer.shop_customer_address.at(-1)).toMatchObject({ address: "7 Hàng Bạc", commune_id: commune.id, district_id: commune.district_id, province_id: commune.province_id });
  });

  it("lists the places when the words name several, before writing", async () => {
    const before = pos().orders.length;
    const r = await h.call("create_order", {
      items: [{ variation_id: pos().variations[2]!.id, quantity: 1 }],
      shipping_address: { address: "5 Nguyễn Trãi, Phường 1, hcm" },
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("shipping_address.address");
    expect(r.text).toContain("Quận Bình Thạnh");
    expect(r.text).toContain("Quận Gò Vấp");
    expect(pos().orders).toHaveLength(before);
  });

  it("never drops words no place matched: a ward the address data lacks goes as typed, and the result says what matched", async () => {
    const typed = "88 Le Loi, phuong Cho Lon, TP Ho Chi Minh";
    const r = await h.call("create_order", { items: [{ variation_id: pos().variations[2]!.id, quantity: 1 }], shipping_address: { address: typed } });
    expect(r.isError, r.text).toBe(false);
    const stored = pos().orders.find((o) => String(o.id) === r.data.id)!;
    expect(stored.shipping_address).toMatchObject({ address: typed });
    expect(stored.shipping_address?.province_id).toBeUndefined();
    expect(r.data.address_match).toMatchObject({ matched: "Hồ Chí Minh", unmatched: ["phuong Cho Lon"] });
    expect(r.data.address_match.note).toContain("sent as typed");
    const read = await h.call("get_order", { order_id: r.data.id });
    expect(read.data.order.address.full_address).toBe(typed);
  });

  it("keeps an unmatched part in the street when the ward matches", async () => {
    const r = await h.call("create_order", {
      items: [{ variation_id: pos().variations[2]!.id, quantity: 1 }],
      shipping_address: { address: "Số 5, ngõ 12, Hang Bac, Ha Noi" },
    });
    expect(r.isError, r.text).toBe(false);
    const hangBac = pos().geo.communes.find((c) => c.name === "Phường Hàng Bạc")!;
    expect(pos().orders.find((o) => String(o.id) === r.data.id)!.shipping_address).toMatchObject({ address: "Số 5, ngõ 12", commune_id: hangBac.id });
    expect(r.data.address_match).toEqual({ matched: "Phường Hàng Bạc, Quận Hoàn Kiếm, Hà Nội", form: "old", unmatched: ["ngõ 12"] });
  });

  it("reads a province by its post-2025 name: TP HCM also covers old Bình Dương", async () => {
    const phuCuong = pos().geo.communes.find((c) => c.name === "Phường Phú Cường")!;
    const merged = pos().geo.provinces.find((p) => p.id === phuCuong.province_id)!;
    expect(merged.new_id).toBe(pos().geo.provinces.find((p) => p.name === "Hồ Chí Minh")!.new_id);
    const r = await h.call("update_order", {
      order_id: pos().orders.find((o) => o.status === 0 && !o.is_removed)!.id,
      shipping_address: { address: "12 Ba Mươi Tháng Tư, phường Phú Cường, TP HCM" },
    });
    expect(r.isError, r.text).toBe(false);
    const put = h.sandbox.server.requests.filter((q) => q.method === "PUT").at(-1)!;
    expect(put.body).toMatchObject({
      shipping_address: { address: "12 Ba Mươi Tháng Tư", commune_id: phuCuong.id, district_id: phuCuong.district_id, province_id: merged.id },
    });
    expect(r.data.address_match.matched).toContain("Phường Phú Cường");
  });

  it("leaves a street without a province as typed", async () => {
    const r = await h.call("create_order", { items: [{ variation_id: pos().variations[2]!.id, quantity: 1 }], shipping_address: { address: "Số 5, ngõ 12" } });
    expect(r.isError, r.text).toBe(false);
    expect(pos().orders.find((o) => String(o.id) === r.data.id)!.shipping_address).toMatchObject({ address: "Số 5, ngõ 12" });
    expect(r.data.address_match).toEqual({ unmatched: ["ngõ 12"], note: expect.stringContaining("sent as typed") });
  });

  it("says an address whose province matches nothing went as typed", async () => {
    const typed = "12 Lê Lợi, Phường Xyz, Quận 99, Tỉnh Abc";
    const r = await h.call("create_order", { items: [{ variation_id: pos().variations[2]!.id, quantity: 1 }], shipping_address: { address: typed } });
    expect(r.isError, r.text).toBe(false);
    expect(pos().orders.find((o) => String(o.id) === r.data.id)!.shipping_address?.province_id).toBeUndefined();
    expect(r.data.address_match).toEqual({ unmatched: ["Phường Xyz", "Quận 99", "Tỉnh Abc"], note: expect.stringContaining("sent as typed") });
  });
});
