import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "../../src/clients/pos-codes.js";
import { makePeople } from "../../src/sandbox/people.js";
import {
  AD_IDS,
  MAX_PAGE_SIZE,
  type OrderRecord,
  type PosState,
  orderTime,
  registerPos,
  seedPos,
} from "../../src/sandbox/pos/index.js";
import { applyTotals } from "../../src/sandbox/pos/order-model.js";
import { SandboxServer } from "../../src/sandbox/server.js";

const now = new Date("2026-03-01T03:00:00Z");
const PREFIX = "/pos/api/v1";
let server: SandboxServer;
let state: PosState;
let origin: string;
let shopPath: string;

beforeAll(async () => {
  server = new SandboxServer();
  state = seedPos({ now, people: makePeople(320) });
  registerPos(server.router, state, PREFIX);
  origin = await server.listen();
  shopPath = `/shops/${state.shop.id}`;
});
afterAll(() => server.close());

type Query = Record<string, string | number | boolean | readonly (string | number)[]>;
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary upstream bodies
type Json = any;

async function call(method: string, path: string, query: Query = {}, body?: unknown, key: string | null = state.apiKey) {
  const url = new URL(origin + PREFIX + path);
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(v));
  }
  if (key !== null) url.searchParams.set("api_key", key);
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}
const get = (path: string, query?: Query) => call("GET", path, query);

const visible = () => state.orders.filter((o) => !o.is_removed);
const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);
const unix = (iso: string) => Math.floor(Date.parse(`${iso}Z`) / 1000);

/** Every order id a filter yields, walking all pages. */
async function allOrderIds(query: Query): Promise<number[]> {
  const out: number[] = [];
  for (let page = 1; ; page++) {
    const { body } = await get(`${shopPath}/orders`, { ...query, page_size: 100, page_number: page });
    out.push(...body.data.map((o: OrderRecord) => o.id));
    if (page >= body.total_pages) return out.sort((a, b) => a - b);
  }
}

describe("seed", () => {
  it("is deterministic for the same now and people", () => {
    const again = seedPos({ now, people: makePeople(320) });
    expect(JSON.stringify(again.orders)).toBe(JSON.stringify(seedPos({ now, people: makePeople(320) }).orders));
    expect(again.customers.map((c) => c.id)).toEqual(state.customers.map((c) => c.id));
  });

  it("holds a fashion shop with every order status, linked returns and the people's phones", () => {
    expect(state.warehouses).toHaveLength(3);
    expect(state.products).toHaveLength(40);
    expect(state.variations).toHaveLength(120);
    expect(state.orders.length).toBeGreaterThan(300);
    // Every status is gone through; a shop's orders rest in the lasting ones (a few hours in
    // printed or packing is seldom the moment of a look).
    for (const { code } of ORDER_STATUSES) expect(state.orders.some((o) => o.status_history.some((h) => h.status === code)), `status ${code}`).toBe(true);
    for (const code of [0, 1, 9, 2, 3, 16, 4, 15, 5, 6, 7]) expect(state.orders.some((o) => o.status === code), `status ${code}`).toBe(true);
    const oldest = Math.min(...state.orders.map((o) => Date.parse(`${o.inserted_at}Z`)));
    expect(now.getTime() - oldest).toBeLessThanOrEqual(90 * 86_400_000);
    for (const o of state.orders) {
      expect(o.status_history.at(-1)?.status).toBe(o.status);
      expect(Date.parse(`${o.updated_at}Z`)).toBeLessThanOrEqual(now.getTime());
      expect(state.geo.communes.some((c) => c.id === o.shipping_address.commune_id)).toBe(true);
    }
    expect(state.returnOrders.length).toBeGreaterThan(10);
    for (const r of state.returnOrders) {
      const original = state.orders.find((o) => o.id === r.order_id_to_returned)!;
      expect([5, 15]).toContain(original.status);
      expect(r.order_to_returned.id).toBe(original.id);
    }
    // Each customer is a person of the pool, on the number their identity gives the shop.
    const people = makePeople(320);
    const shopPhone = (p: (typeof people)[number]) => (p.identity === "other_phone" || p.identity === "shop_name" ? p.otherPhone : p.phone);
    const phones = new Set(people.map(shopPhone));
    expect(state.customers.every((c) => phones.has(c.phone_numbers[0]!))).toBe(true);
    expect(state.orders.every((o) => phones.has(o.bill_phone_number))).toBe(true);
  });
});

describe("plausible demo data", () => {
  const hours = (from: string, to: string) => (Date.parse(`${to}Z`) - Date.parse(`${from}Z`)) / 3_600_000;

  const days = (from: string, to: string) => hours(from, to) / 24;
  const entered = (o: OrderRecord, status: number) => o.status_history.find((h) => h.status === status)?.updated_at;
  const live = () => state.orders.filter((o) => !o.is_removed);
  const inStatusDays = (o: OrderRecord) => days(o.last_update_status_at, now.toISOString().slice(0, 19));
  const sameCityCourier = (o: OrderRecord) => [11, 37].includes(o.partner?.partner_id ?? -1);

  it("moves an order no faster than a shop and a carrier can: shipped 8 hours after the order at the soonest, received a day after that", async () => {
    // Hours after the order before a status can be reached (a same-city courier delivers within hours).
    const soonest: Record<number, number> = { 2: 8, 3: 30, 16: 72, 4: 48, 15: 48, 5: 96 };
    let checked = 0;
    for (const o of state.orders) {
      for (const h of o.status_history) {
        const min = h.status === 3 && sameCityCourier(o) ? 9 : soonest[h.status];
        if (min === undefined) continue;
        expect(hours(o.inserted_at, h.updated_at), `order ${o.display_id} ${h.status}`).toBeGreaterThanOrEqual(min);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(200);
    const today = state.orders.filter((o) => now.getTime() - Date.parse(`${o.inserted_at}Z`) < 8 * 3_600_000);
    expect(today.length).toBeGreaterThan(0);
    for (const o of today) expect([0, 1, 6, 7, 11, 12, 13, 17, 20, 8, 9]).toContain(o.status);
  });

  it("delivers most parcels in 1 to 5 days and leaves a few stuck, few enough to chase", () => {
    const transit = live().flatMap((o) => {
      const [shipped, received] = [entered(o, 2), entered(o, 3)];
      return shipped && received && !sameCityCourier(o) ? [days(shipped, received)] : [];
    });
    expect(transit.length).toBeGreaterThan(200);
    expect(transit.filter((d) => d >= 1 && d <= 5).length / transit.length).toBeGreaterThan(0.9);
    // "New for over 2 days", "shipped over a week ago and still not delivered": something to
    // find, not a third of the shop (44 of 52 shipped orders were in transit for months).
    const newOver2 = live().filter((o) => o.status === 0 && inStatusDays(o) > 2).length;
    const shippedOver7 = live().filter((o) => o.status === 2 && inStatusDays(o) > 7).length;
    expect(newOver2).toBeGreaterThanOrEqual(2);
    expect(newOver2).toBeLessThanOrEqual(6);
    expect(shippedOver7).toBeGreaterThanOrEqual(2);
    expect(shippedOver7).toBeLessThanOrEqual(6);
    // Nothing else sits for weeks in a status a shop or a carrier moves on from.
    const lingering = live().filter((o) => [17, 1, 12, 13, 8, 9, 4].includes(o.status) && inStatusDays(o) > 14);
    expect(lingering.map((o) => `#${o.display_id} ${o.status}`)).toEqual([]);
  });

  it("sends a same-city courier only within the warehouse's province", () => {
    const province = new Map(state.warehouses.map((w) => [w.id, w.province_id]));
    const carried = live().filter((o) => o.partner);
    const local = carried.filter(sameCityCourier);
    expect(local.length).toBeGreaterThan(0);
    for (const o of local) expect(o.shipping_address.province_id, `#${o.display_id}`).toBe(province.get(o.warehouse_id));
    expect(carried.some((o) => !sameCityCourier(o) && o.shipping_address.province_id !== province.get(o.warehouse_id))).toBe(true);
  });

  it("keeps units of orders not yet shipped on the shelf but off sale, and counts goods on their way", () => {
    for (const v of state.variations) {
      for (const s of v.variations_warehouses) {
        const held = (statuses: number[]) =>
          live()
            .filter((o) => o.warehouse_id === s.warehouse_id && statuses.includes(o.status))
            .flatMap((o) => o.items)
            .filter((it) => it.variation_id === v.id)
            .reduce((t, it) => t + it.quantity, 0);
        expect(s.actual_remain_quantity - s.remain_quantity).toBe(held([0, 17, 1, 12, 13, 8, 9]));
        expect(s.waitting_quantity).toBe(held([11, 20]));
      }
    }
    const stock = state.variations.flatMap((v) => v.variations_warehouses);
    expect(stock.some((s) => s.actual_remain_quantity > s.remain_quantity)).toBe(true);
    const incoming = state.purchases.filter((p) => p.status === 0).flatMap((p) => p.items as { quantity: number }[]);
    expect(stock.reduce((t, s) => t + s.pending_quantity, 0)).toBe(incoming.reduce((t, it) => t + it.quantity, 0));
  });

  it("words each debt for its direction: the shop owes a supplier or a customer, or a customer owes the shop", () => {
    for (const d of state.debts) {
      const description = String(d.description);
      if (d.type === 1) expect(description).toMatch(/^Khách .* còn nợ$/);
      else expect(description).toMatch(/^Shop (còn nợ|nợ khách) /);
      if (d.supplier_products_id) expect(d.shop_customer_id).toBeNull();
    }
    expect(state.debts.some((d) => d.type === 0 && d.supplier_products_id)).toBe(true);
  });
});

describe("auth and errors", () => {
  it("answers a missing key with 200 + 101 and a wrong key with 403 + 105", async () => {
    const missing = await call("GET", "/shops", {}, undefined, null);
    expect(missing).toEqual({ status: 200, body: { success: false, error_code: 101, message: "Missing access_token" } });
    const wrong = await call("GET", "/shops", {}, undefined, "nope");
    expect(wrong).toEqual({ status: 403, body: { success: false, error_code: 105, message: "api_key is invalid" } });
    const other = await get("/shops/1/orders");
    expect(other.status).toBe(403);
  });

  it("answers unknown orders with 404 and bad parameters with 400", async () => {
    expect(await get(`${shopPath}/orders/999999`)).toEqual({ status: 404, body: { success: false, error: "order_not_found" } });
    const bad = { status: 400, body: { success: false, error: "invalid_parameters" } };
    expect(await get(`${shopPath}/orders`, { page_size: "ten" })).toEqual(bad);
    expect(await get(`${shopPath}/orders`, { updateStatus: "bogus", startDateTime: 1 })).toEqual(bad);
    expect(await get(`${shopPath}/orders`, { option_sort: "price_up" })).toEqual(bad);
    expect(await get("/geo/provinces")).toEqual(bad);
  });
});

describe("shop and geo", () => {
  it("lists the shop with its pages", async () => {
    const { body } = await get("/shops");
    expect(body.shops[0].id).toBe(state.shop.id);
    expect(body.shops[0].pages.length).toBeGreaterThan(1);
  });

  it("serves old, new and all provinces, districts and communes", async () => {
    const old = (await get("/geo/provinces", { country_code: 84 })).body.data;
    const fresh = (await get("/geo/provinces", { country_code: 84, is_new: true })).body.data;
    const all = (await get("/geo/provinces", { country_code: 84, all: true })).body.data;
    expect(old.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(["Hà Nội", "Hồ Chí Minh", "Đà Nẵng", "Hải Phòng", "Cần Thơ", "Bình Dương", "Đồng Nai", "Khánh Hòa", "Thừa Thiên Huế", "Nghệ An"]),
    );
    expect(fresh).toHaveLength(34);
    expect(all).toHaveLength(old.length + 34);
    expect(old.find((p: Json) => p.id === "101")).toEqual({ id: "101", name: "Hà Nội", name_en: "ha noi", new_id: "84_VN101" });
    const districts = (await get("/geo/districts", { province_id: "101" })).body.data;
    expect(districts.find((d: Json) => d.id === "10101")).toMatchObject({ name: "Quận Ba Đình", name_en: "ba dinh" });
    const communes = (await get("/geo/communes", { province_id: "101", district_id: "10101" })).body.data;
    expect(communes.find((c: Json) => c.name === "Phường Cống Vị")).toMatchObject({ name_en: "cong vi", province_id: "101" });
    for (const c of state.geo.communes) expect(c.name_en).toMatch(/^[a-z0-9 '-]+$/);
  });

  it("serves a post-2025 province's two-tier wards by its new id, with no district", async () => {
    const mergedInto = new Set(state.geo.provinces.map((p) => p.new_id));
    for (const id of mergedInto) {
      const wards = (await get("/geo/communes", { province_id: id! })).body.data;
      // Real ward names, a dozen and more for the two big cities, a few for the others.
      expect(wards.length, id!).toBeGreaterThanOrEqual(id === "84_VN129" || id === "84_VN101" ? 15 : 5);
      for (const w of wards) expect(w).toMatchObject({ province_id: id, district_id: null, name: expect.stringMatching(/^(Phường|Xã|Đặc khu) /) });
      expect(new Set(wards.map((w: Json) => w.name)).size, id!).toBe(wards.length);
    }
    const hcm = (await get("/geo/communes", { province_id: "84_VN129" })).body.data.map((w: Json) => w.name);
    expect(hcm).toEqual(expect.arrayContaining(["Phường Sài Gòn", "Phường Bến Thành", "Phường Tân Định"]));
    // An old province still needs its district.
    expect((await get("/geo/communes", { province_id: "701" })).status).toBe(400);
  });

  it("lists staff, carriers, order sources and warehouses", async () => {
    expect((await get(`${shopPath}/users`)).body.data).toHaveLength(state.users.length);
    expect((await get(`${shopPath}/partners`)).body.data).toContainEqual({ id: 5, name: "Giao hàng nhanh" });
    const sources = (await get(`${shopPath}/order_source`)).body.data;
    expect(sources).toContainEqual(expect.objectContaining({ id: -1, name: "Facebook" }));
    expect((await get(`${shopPath}/warehouses`)).body.data).toHaveLength(3);
  });
});

describe("order list", () => {
  it("pages with default size 30, clamps the size and covers every row once", async () => {
    const first = (await get(`${shopPath}/orders`)).body;
    expect(first.data).toHaveLength(30);
    expect(first).toMatchObject({ page_number: 1, page_size: 30, total_entries: visible().length, success: true });
    expect(first.total_pages).toBe(Math.ceil(visible().length / 30));
    expect((await get(`${shopPath}/orders`, { page_size: 1000 })).body.page_size).toBe(MAX_PAGE_SIZE);
    const walked = await allOrderIds({});
    expect(walked).toEqual(ids(visible()));
    expect(new Set(walked).size).toBe(walked.length);
  });

  it("sorts newest first by default and repeats page 100's rows past page 100", async () => {
    const newest = [...visible()].sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : -1))[0]!;
    expect((await get(`${shopPath}/orders`)).body.data[0].id).toBe(newest.id);
    const page100 = (await get(`${shopPath}/orders`, { page_size: 2, page_number: 100 })).body.data;
    const page150 = (await get(`${shopPath}/orders`, { page_size: 2, page_number: 150 })).body;
    expect(page150.page_number).toBe(150);
    expect(page150.data).toEqual(page100);
  });

  it("filters by status, search, removal and carrier as the seed implies", async () => {
    expect(await allOrderIds({ "filter_status[]": [3, 16] })).toEqual(ids(visible().filter((o) => [3, 16].includes(o.status))));
    const someone = visible()[10]!;
    expect(await allOrderIds({ search: someone.bill_phone_number })).toEqual(
      ids(visible().filter((o) => o.bill_phone_number.includes(someone.bill_phone_number))),
    );
    const given = someone.bill_full_name.split(" ").at(-1)!.toLowerCase();
    expect(await allOrderIds({ search: given })).toEqual(ids(visible().filter((o) => o.bill_full_name.toLowerCase().includes(given))));
    expect(await allOrderIds({ search: "gọi trước" })).toEqual(ids(visible().filter((o) => o.note === "Gọi trước khi giao")));
    // Like the web app's search box, `search` also finds an order by its number.
    const numbered = visible()[20]!;
    const digits = String(numbered.display_id);
    expect(await allOrderIds({ search: digits })).toEqual(
      ids(visible().filter((o) => o === numbered || o.bill_phone_number.includes(digits) || (o.note ?? "").includes(digits))),
    );
    expect(state.orders.some((o) => o.is_removed)).toBe(true);
    expect(await allOrderIds({ include_removed: 1 })).toEqual(ids(state.orders));
    expect(await allOrderIds({ "partner_id[]": [5, 15] })).toEqual(
      ids(visible().filter((o) => [5, 15].includes(o.partner?.partner_id ?? -1))),
    );
  });

  it("filters by time field, including status codes and -1", async () => {
    const start = unix(new Date(now.getTime() - 20 * 86_400_000).toISOString().slice(0, 19));
    const end = unix(new Date(now.getTime() - 5 * 86_400_000).toISOString().slice(0, 19));
    for (const field of ["inserted_at", "updated_at", "paid_at", "time_assign_seller", "2", "-1"]) {
      const expected = visible().filter((o) => {
        const t = orderTime(o, field);
        return t !== null && unix(t) >= start && unix(t) <= end;
      });
      expect(expected.length).toBeGreaterThan(0);
      expect(await allOrderIds({ updateStatus: field, startDateTime: start, endDateTime: end })).toEqual(ids(expected));
    }
    const shippedInWindow = await allOrderIds({ updateStatus: 2, startDateTime: start, endDateTime: end });
    const createdInWindow = await allOrderIds({ startDateTime: start, endDateTime: end });
    expect(shippedInWindow).not.toEqual(createdInWindow);
  });

  it("filters by customer, sources (pairs, exclusion) and ad ids", async () => {
    const customer = visible()[5]!.shop_customer_id!;
    expect(await allOrderIds({ customer_id: customer })).toEqual(ids(visible().filter((o) => o.shop_customer_id === customer)));
    const page = state.shop.pages[0]!.id;
    const fromPage = ids(visible().filter((o) => o.order_sources === "-1" && o.account === page));
    expect(fromPage.length).toBeGreaterThan(0);
    expect(await allOrderIds({ "order_sources[]": JSON.stringify(["-1", page]) })).toEqual(fromPage);
    const zaloOrWeb = ids(visible().filter((o) => ["-4", "-2"].includes(o.order_sources)));
    expect(await allOrderIds({ "order_sources[]": [JSON.stringify(["-4"]), JSON.stringify(["-2"])] })).toEqual(zaloOrWeb);
    expect(await allOrderIds({ "order_sources[]": JSON.stringify(["-1"]), is_filter_exclude_source: true })).toEqual(
      ids(visible().filter((o) => o.order_sources !== "-1")),
    );
    expect(await allOrderIds({ "ad_ids[]": [AD_IDS[0]!] })).toEqual(ids(visible().filter((o) => o.ad_id === AD_IDS[0])));
  });

  it("sorts by option_sort and projects fields", async () => {
    const asc = (await get(`${shopPath}/orders`, { option_sort: "order_valuation_asc", page_size: 100 })).body.data;
    const values = asc.map((o: OrderRecord) => o.total_price_after_sub_discount);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const byName = (await get(`${shopPath}/orders`, { option_sort: "customer_sort_desc", page_size: 100 })).body.data;
    const names = byName.map((o: OrderRecord) => o.bill_full_name);
    expect(names).toEqual([...names].sort().reverse());
    const projected = (await get(`${shopPath}/orders`, { "fields[]": ["id", "status"], page_size: 3 })).body.data;
    for (const row of projected) expect(Object.keys(row).sort()).toEqual(["id", "status"]);
  });
});

describe("order writes", () => {
  it("creates an order that is found by search, reads back equal and takes stock out", async () => {
    const variation = state.variations[7]!;
    const warehouse = state.warehouses[0]!;
    const before = variation.variations_warehouses.find((s) => s.warehouse_id === warehouse.id)!.remain_quantity;
    const created = await call("POST", `${shopPath}/orders`, {}, {
      bill_full_name: "Ngô Thị Mới",
      bill_phone_number: "0912000111",
      page_id: state.shop.pages[0]!.id,
      warehouse_id: warehouse.id,
      shipping_fee: 30_000,
      note: "Đơn tạo thử",
      items: [{ variation_id: variation.id, product_id: variation.product_id, quantity: 2 }],
      shipping_address: { address: "5 Lê Lợi", commune_id: "7010101", full_name: "Ngô Thị Mới", phone_number: "0912000111" },
    });
    expect(created.status).toBe(200);
    const order = created.body.data;
    expect(order.id).toBeGreaterThan(Math.max(...state.orders.filter((o) => o.id !== order.id).map((o) => o.id)) - 1);
    expect(order.display_id).toBe(order.id - 58_000);
    expect(order).toMatchObject({ status: 0, total_price: variation.retail_price * 2, cod: variation.retail_price * 2 + 30_000 });
    expect(order.shipping_address).toMatchObject({ province_name: "Hồ Chí Minh", district_name: "Quận 1", commune_name: "Phường Bến Nghé" });
    expect((await get(`${shopPath}/orders`, { search: "0912000111" })).body.data.map((o: Json) => o.id)).toEqual([order.id]);
    expect((await get(`${shopPath}/orders/${order.id}`)).body).toEqual({ data: order, success: true });
    const stock = () => variation.variations_warehouses.find((s) => s.warehouse_id === warehouse.id)!;
    expect(stock().remain_quantity).toBe(before - 2);
    // Off sale when placed, off the shelf when shipped.
    const onShelf = stock().actual_remain_quantity;
    expect(onShelf - stock().remain_quantity).toBeGreaterThanOrEqual(2);

    const updated = (await call("PUT", `${shopPath}/orders/${order.id}`, {}, { status: 1, note: "Đã gọi xác nhận" })).body.data;
    expect(updated).toMatchObject({ status: 1, status_name: "confirmed", note: "Đã gọi xác nhận" });
    expect(updated.status_history.map((h: Json) => h.status)).toEqual([0, 1]);
    await call("PUT", `${shopPath}/orders/${order.id}`, {}, { status: 2 });
    expect([stock().remain_quantity, stock().actual_remain_quantity]).toEqual([before - 2, onShelf - 2]);
    expect((await call("PUT", `${shopPath}/orders/${order.id}`, {}, { status: 99 })).status).toBe(400);
    expect((await call("POST", `${shopPath}/orders`, {}, { items: [] })).status).toBe(400);
  });

  it("stores a written address in both forms, as the vendor's order examples show them", async () => {
    const variation = state.variations[7]!;
    const items = [{ variation_id: variation.id, quantity: 1 }];
    const old = (await call("POST", `${shopPath}/orders`, {}, { items, shipping_address: { address: "5 Lê Lợi", commune_id: "7010101" } })).body.data;
    // The examples' form: render_type old, the post-2025 province beside the old one, street and province as the new text.
    expect(old.shipping_address).toMatchObject({ province_id: "701", district_id: "70101", render_type: "old", new_province_id: "84_VN129", new_full_address: "5 Lê Lợi, Hồ Chí Minh" });
    const ward = state.geo.wards.find((w) => w.name === "Phường Sài Gòn")!;
    const fresh = (await call("POST", `${shopPath}/orders`, {}, { items, shipping_address: { address: "5 Lê Lợi", province_id: "84_VN129", commune_id: ward.id, district_id: null, render_type: "new" } })).body.data;
    expect(fresh.shipping_address).toMatchObject({
      province_id: "84_VN129",
      new_province_id: "84_VN129",
      district_id: null,
      commune_id: ward.id,
      commune_name: "Phường Sài Gòn",
      render_type: "new",
      new_full_address: "5 Lê Lợi, Phường Sài Gòn, Thành phố Hồ Chí Minh",
    });
    const moved = (await call("PUT", `${shopPath}/orders/${old.id}`, {}, { shipping_address: { address: "9 Pasteur", commune_id: ward.id } })).body.data;
    expect(moved.shipping_address).toMatchObject({ render_type: "new", district_id: null, new_full_address: "9 Pasteur, Phường Sài Gòn, Thành phố Hồ Chí Minh" });
  });
});

describe("return orders", () => {
  it("lists returns paged, filtered by status and time", async () => {
    const list = (await get(`${shopPath}/orders_returned`, { page_size: 10 })).body;
    expect(list).toMatchObject({ page_number: 1, page_size: 10, total_entries: state.returnOrders.length, success: true });
    const done = (await get(`${shopPath}/orders_returned`, { status: 1, page_size: 100 })).body.data;
    expect(done.map((r: Json) => r.id).sort()).toEqual(state.returnOrders.filter((r) => r.status === 1).map((r) => r.id).sort());
    const start = unix(state.returnOrders[5]!.inserted_at);
    const later = (await get(`${shopPath}/orders_returned`, { start_time: start, page_size: 100 })).body.data;
    expect(later).toHaveLength(state.returnOrders.filter((r) => unix(r.inserted_at) >= start).length);
  });

  it("creates a return with an exchange order, links both ways and restocks", async () => {
    const original = visible().find((o) => o.status === 3 && o.items[0]!.quantity === 2)!;
    const item = original.items[0]!;
    const warehouse = state.warehouses[2]!;
    const stock = () => state.variations.find((v) => v.id === item.variation_id)!.variations_warehouses.find((s) => s.warehouse_id === warehouse.id)!.remain_quantity;
    const before = stock();
    const swap = state.variations[3]!;
    const res = await call("POST", `${shopPath}/orders_returned`, {}, {
      status: 0,
      warehouse_id: warehouse.id,
      order_to_returned: { id: String(original.id) },
      returned_items: [{ product_id: item.product_id, variation_id: item.variation_id, returned_quantity: 1, variation_info: { name: "x", retail_price: 1 } }],
      order_additional: { warehouse_id: warehouse.id, items: [{ product_id: swap.product_id, variation_id: swap.id, returned_quantity: 1, variation_info: { name: "y", retail_price: swap.retail_price } }] },
    });
    expect(res.status).toBe(200);
    const ret = res.body.data;
    expect(ret).toMatchObject({ order_id_to_returned: original.id, status: 0 });
    expect(ret.order_to_returned.id).toBe(original.id);
    expect(ret.order.items[0].variation_id).toBe(swap.id);
    expect(ret.order_id).toBe(ret.order.id);
    expect(stock()).toBe(before + 1);
    expect((await get(`${shopPath}/orders/${original.id}`)).body.data.change_by_orders).toContain(ret.order.id);
    const listed = (await get(`${shopPath}/orders_returned`, { page_size: 1 })).body.data[0];
    expect(listed.id).toBe(ret.id);
    const tooMany = { status: 0, warehouse_id: warehouse.id, order_to_returned: { id: String(original.id) }, returned_items: [{ variation_id: item.variation_id, returned_quantity: 5 }] };
    expect((await call("POST", `${shopPath}/orders_returned`, {}, tooMany)).status).toBe(400);
  });
});

describe("products, customers and warehouses", () => {
  it("searches variations by name with or without accents, SKU and barcode, with stock per warehouse", async () => {
    const named = (await get(`${shopPath}/products/variations`, { search: "Áo thun cotton" })).body;
    expect(named.total_entries).toBe(3);
    expect((await get(`${shopPath}/products/variations`, { search: "ao thun cotton" })).body.total_entries).toBe(3);
    const v = state.variations[20]!;
    expect((await get(`${shopPath}/products/variations`, { search: v.display_id })).body.data.map((x: Json) => x.id)).toEqual([v.id]);
    const byBarcode = (await get(`${shopPath}/products/variations`, { search: v.barcode })).body.data;
    expect(byBarcode[0].variations_warehouses).toHaveLength(3);
    const product = (await get(`${shopPath}/products/${v.product.display_id}`)).body.data;
    expect(product.variations).toHaveLength(3);
  });

  it("creates and updates customers with address items, and searches them", async () => {
    const created = (await call("POST", `${shopPath}/customers`, {}, {
      customer: { name: "Lý Thị Test", phone_numbers: ["0988777666"], shop_customer_address: [{ address: "1 Hàng Bạc", commune_id: "1010301", full_name: "Lý Thị Test", phone_number: "0988777666" }] },
    })).body.data;
    expect(created.shop_customer_address[0]).toMatchObject({ province_id: "101", district_id: "10103" });
    const addressId = created.shop_customer_address[0].id;
    const updated = (await call("PUT", `${shopPath}/customers/${created.id}`, {}, {
      customer: { shop_customer_address: [{ id: addressId, address: "2 Hàng Bạc" }, { address: "9 Kim Mã", commune_id: "1010106" }] },
    })).body.data;
    expect(updated.shop_customer_address).toHaveLength(2);
    expect(updated.shop_customer_address[0]).toMatchObject({ id: addressId, address: "2 Hàng Bạc" });
    expect((await get(`${shopPath}/customers`, { search: "0988777666" })).body.data.map((c: Json) => c.id)).toEqual([created.id]);
    expect((await get(`${shopPath}/customers/${created.id}`)).body.data.name).toBe("Lý Thị Test");
  });

  it("pages point logs, keeps notes and searches levels", async () => {
    const rich = [...state.customers].sort((a, b) => b.reward_point - a.reward_point)[0]!;
    const logs = (await get(`${shopPath}/customers/point_logs`, { shop_customer_id: rich.id, page_size: 100 })).body;
    expect(logs.total_entries).toBe(state.pointLogs.filter((l) => l.shop_customer_id === rich.id).length);
    expect(logs.data[0].current_point).toBe(rich.reward_point);
    expect((await get(`${shopPath}/customers/point_logs`)).status).toBe(400);
    const note = (await call("POST", `${shopPath}/customers/${rich.id}/create_note`, {}, { message: "Thích váy dài" })).body.data;
    const loaded = (await get(`${shopPath}/customers/${rich.id}/load_customer_notes`)).body.customer_notes[0].notes;
    expect(loaded.at(-1)).toEqual(note);
    expect((await get(`${shopPath}/customer_levels`, { search: "vang" })).body.data.map((l: Json) => l.name)).toEqual(["Vàng"]);
  });

  it("creates and updates warehouses, requiring name and shelf_config", async () => {
    expect((await call("POST", `${shopPath}/warehouses`, {}, { name: "Kho mới" })).status).toBe(400);
    const created = (await call("POST", `${shopPath}/warehouses`, {}, { name: "Kho Cần Thơ", shelf_config: {}, address: "3 Hòa Bình", commune_id: "8150102" })).body.data;
    expect(created.full_address).toBe("3 Hòa Bình, Phường Cái Khế, Quận Ninh Kiều, Cần Thơ");
    const updated = (await call("PUT", `${shopPath}/warehouses/${created.id}`, {}, { name: "Kho Cần Thơ 2", shelf_config: {} })).body.data;
    expect(updated.name).toBe("Kho Cần Thơ 2");
    expect((await get(`${shopPath}/warehouses`)).body.data).toHaveLength(4);
  });
});

describe("back office", () => {
  it("computes sales analytics from the orders", async () => {
    const rows = (await get(`${shopPath}/analytics/sale`, { since: "2026-02-01 00:00:00", until: "2026-02-28 23:59:59" })).body.data;
    const from = Date.parse("2026-02-01T00:00:00+07:00");
    const to = Date.parse("2026-02-28T23:59:59+07:00");
    const confirmed = visible().filter((o) => {
      const t = Date.parse(`${o.inserted_at}Z`);
      return t >= from && t <= to && o.status_history.some((h) => h.status === 1);
    });
    expect(rows.reduce((sum: number, r: Json) => sum + r.success.order_count, 0)).toBe(confirmed.length);
    expect(rows.reduce((sum: number, r: Json) => sum + r.success.cod, 0)).toBe(confirmed.reduce((s, o) => s + o.cod, 0));
    const formula = state.formulas[0]!;
    const row = rows[0];
    expect(row["Time.day"]).toMatch(/^2026-02-\d\d$/);
    expect(row.success[`custom_formula_${formula.id}`]).toBe(row.success.price - row.success.shipping_fee);
    const bySource = (await get(`${shopPath}/analytics/sale`, { "split_by[]": "Order.source", "select_fields[]": ["order_count"] })).body.data;
    // By the source's id, as the filter on the key takes it (the OpenAPI's keys hold ids and codes).
    expect(bySource.map((r: Json) => r["Order.source"])).toContain("-1");
    expect(Object.keys(bySource[0].success)).toEqual(["order_count"]);
  });

  it("splits and filters sales analytics by the order's keys, its customer and month, as the orders say", async () => {
    const range = { since: "2026-01-01 00:00:00", until: "2026-02-28 23:59:59" };
    const [from, to] = [Date.parse("2026-01-01T00:00:00+07:00"), Date.parse("2026-02-28T23:59:59+07:00")];
    // A product discount besides the order's, and free shipping over a recorded fee: what each figure means.
    const sample = visible().find((o) => o.status === 3 && Date.parse(`${o.inserted_at}Z`) >= from && o.shipping_fee > 0)!;
    const saved = structuredClone(sample);
    sample.items[0]!.discount_each_product = 15_000;
    sample.is_free_shipping = true;
    applyTotals(sample);
    try {
      const sold = visible().filter((o) => {
        const t = Date.parse(`${o.inserted_at}Z`);
        return t >= from && t <= to && o.status_history.some((h) => h.status === 1);
      });
      const figures = (orders: OrderRecord[]) => ({
        order_count: orders.length,
        price: orders.reduce((t, o) => t + o.items.reduce((s, it) => s + it.variation_info.retail_price * it.quantity, 0), 0),
        discount: orders.reduce((t, o) => t + o.total_discount + o.items.reduce((s, it) => s + it.discount_each_product * it.quantity, 0), 0),
        cod: orders.reduce((t, o) => t + o.cod, 0),
        shipping_fee: orders.reduce((t, o) => t + (o.is_free_shipping ? 0 : o.shipping_fee), 0),
      });
      const month = (o: OrderRecord) => new Date(Date.parse(`${o.inserted_at}Z`) + 7 * 3_600_000).toISOString().slice(0, 7);
      const keys: Record<string, (o: OrderRecord) => unknown> = {
        "Order.status": (o) => o.status,
        "Order.partner_id": (o) => o.partner?.partner_id ?? null,
        "Order.province_id": (o) => o.shipping_address.province_id,
        "Order.warehouse_id": (o) => o.warehouse_id,
        "Order.source": (o) => o.order_sources,
        "Customer.id": (o) => o.shop_customer_id,
        "Time.month": month,
      };
      const select = { "select_fields[]": ["order_count", "price", "discount", "cod", "shipping_fee"] };
      const grouped = (orders: OrderRecord[], key: (o: OrderRecord) => unknown) => {
        const groups = new Map<string, OrderRecord[]>();
        for (const o of orders) groups.set(JSON.stringify(key(o)), [...(groups.get(JSON.stringify(key(o))) ?? []), o]);
        return Object.fromEntries([...groups].map(([k, list]) => [k, figures(list)]));
      };
      for (const [split, key] of Object.entries(keys)) {
        const rows = (await get(`${shopPath}/analytics/sale`, { ...range, ...select, "split_by[]": split })).body.data;
        expect(Object.fromEntries(rows.map((r: Json) => [JSON.stringify(r[split]), r.success])), split).toEqual(grouped(sold, key));
      }
      // Goods before discounts less every discount: the order's goods after discounts.
      const byStatus = (await get(`${shopPath}/analytics/sale`, { ...range, ...select, "split_by[]": "Order.status" })).body.data;
      for (const row of byStatus) {
        const orders = sold.filter((o) => o.status === row["Order.status"]);
        expect(row.success.price - row.success.discount).toBe(orders.reduce((t, o) => t + o.total_price_after_sub_discount, 0));
      }
      // Filters keyed alike, `_exclude` negating; the assigned seller by User.id with user_type assign.
      const carrier = sold.find((o) => o.partner)!.partner!.partner_id;
      const filter = { "Order.status": ["3", "16"], "Order.partner_id_exclude": [String(carrier)] };
      const filtered = (await get(`${shopPath}/analytics/sale`, { ...range, ...select, "split_by[]": ["User.id", "Time.month"], user_type: "assign", filter: JSON.stringify(filter) })).body.data;
      const kept = sold.filter((o) => [3, 16].includes(o.status) && o.partner?.partner_id !== carrier);
      expect(kept.length).toBeGreaterThan(5);
      expect(Object.fromEntries(filtered.map((r: Json) => [`${r["User.id"]}|${r["Time.month"]}`, r.success]))).toEqual(
        Object.fromEntries(Object.entries(grouped(kept, (o) => `${o.assigning_seller_id ?? ""}|${month(o)}`)).map(([k, f]) => [JSON.parse(k), f])),
      );
      const buyer = sold[0]!.shop_customer_id!;
      const mine = (await get(`${shopPath}/analytics/sale`, { ...range, ...select, "split_by[]": "Customer.id", filter: JSON.stringify({ "Customer.id": [buyer] }) })).body.data;
      expect(mine.map((r: Json) => [r["Customer.id"], r.success])).toEqual([[buyer, figures(sold.filter((o) => o.shop_customer_id === buyer))]]);
      const unknown: Query[] = [{ filter: JSON.stringify({ "Order.tags": ["1"] }) }, { filter: JSON.stringify({ "Order.status": "3" }) }, { "split_by[]": "Order.tag" }];
      for (const bad of unknown) {
        expect((await get(`${shopPath}/analytics/sale`, { ...range, ...bad })).status, JSON.stringify(bad)).toBe(400);
      }
    } finally {
      Object.assign(sample, saved);
    }
  });

  it("lists and writes finance, inventory and promotion records", async () => {
    const tx = (await call("POST", `${shopPath}/transactions`, {}, { transaction: { name: "Mua móc treo", amount: -150_000 } })).body.data;
    expect((await get(`${shopPath}/transactions`, { page_size: 1 })).body.data[0].id).toBe(tx.id);
    expect((await call("POST", `${shopPath}/transactions`, {}, { transaction: {} })).status).toBe(400);
    const debts = (await get(`${shopPath}/debt`, { status: 1, page_size: 100 })).body;
    expect(debts.total_entries).toBe(state.debts.filter((d) => d.status === 1).length);
    expect(debts.sum.money_must_pay_or_collect).toBe(debts.sum.money_payed_or_collected);
    expect((await get(`${shopPath}/payment_accounts/get_payment_histories`)).body.total_entries).toBe(state.paymentHistories.length);
    expect((await get(`${shopPath}/purchases`)).body.total_entries).toBe(15);
    expect((await get(`${shopPath}/inventory_histories`)).body.total_entries).toBe(state.inventoryHistories.length);
    const take = (await get(`${shopPath}/stocktakings`)).body.data[0];
    expect((await get(`${shopPath}/stocktakings/${take.id}`)).body.data.items.length).toBeGreaterThan(0);
    const promos = (await get(`${shopPath}/promotion_advance`, { textSearch: "freeship" })).body.data;
    expect(promos.map((p: Json) => p.name)).toEqual(["Mã FREESHIP50"]);
    expect((await call("POST", `${shopPath}/promotion_advance/delete_multi`, {}, { ids: [promos[0].id] })).body.deleted).toBe(1);
    expect((await get(`${shopPath}/combo_products`)).body.total_entries).toBe(4);
  });
});
