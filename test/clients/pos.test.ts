import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, UpstreamError } from "../../src/clients/errors.js";
import { HttpCore } from "../../src/clients/http.js";
import { PosClient } from "../../src/clients/pos.js";
import { findStatus, ORDER_STATUSES, POS_STATUS_TABLES } from "../../src/clients/pos-codes.js";
import { makePeople } from "../../src/sandbox/people.js";
import { type PosState, registerPos, seedPos } from "../../src/sandbox/pos/index.js";
import { type RecordedRequest, SandboxServer } from "../../src/sandbox/server.js";

const now = new Date("2026-03-01T03:00:00Z");
let server: SandboxServer;
let state: PosState;
let core: HttpCore;
let pos: PosClient;
let shop: number;

beforeAll(async () => {
  server = new SandboxServer();
  state = seedPos({ now, people: makePeople(320) });
  registerPos(server.router, state, "/pos/api/v1");
  const origin = await server.listen();
  core = new HttpCore({ baseUrl: `${origin}/pos/api/v1`, retry: { attempts: 1 } });
  pos = new PosClient({ core, apiKeys: { [state.shop.id]: state.apiKey } });
  shop = state.shop.id;
});
afterAll(async () => {
  await core.close();
  await server.close();
});
beforeEach(() => server.resetRecords());

function last(): RecordedRequest {
  const request = server.requests.at(-1);
  if (!request) throw new Error("no request reached the sandbox");
  return request;
}
const base = () => `/pos/api/v1/shops/${state.shop.id}`;

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe("keys", () => {
  it("sends the key as api_key in the query, picks it per shop and names the setting when missing", async () => {
    await pos.listShops();
    expect(last().query.api_key).toEqual([state.apiKey]);
    const single = new PosClient({ core, apiKeys: {}, defaultKey: state.apiKey });
    expect((await single.listWarehouses(shop)).length).toBe(3);
    const none = new PosClient({ core, apiKeys: {} });
    await expect(none.listOrders(shop)).rejects.toBeInstanceOf(ConfigError);
    await expect(none.listOrders(shop)).rejects.toThrow(/PANCAKE_POS_API_KEY/);
    const two = new PosClient({ core, apiKeys: { "1": "key-one-abc", "2": "key-two-abc" } });
    await expect(two.getOrder(3, 1)).rejects.toThrow(/PANCAKE_POS_API_KEY/);
  });

  it("lists shops once per key when several shop keys and no default key are set, merged", async () => {
    const two = new PosClient({ core, apiKeys: { "1": "key-one-abc", "2": "key-two-abc" } });
    server.injectFault({ path: "/shops", kind: "status", status: 200, body: { shops: [{ id: 1, name: "A" }], success: true } });
    server.injectFault({ path: "/shops", kind: "status", status: 200, body: { shops: [{ id: 2, name: "B" }], success: true } });
    const shops = await two.listShops();
    expect(shops.map((s) => s.id).sort()).toEqual([1, 2]);
    expect(server.requests.map((r) => r.query.api_key?.[0]).sort()).toEqual(["key-one-abc", "key-two-abc"]);
  });

  it("maps 101, 105, 404 and 400 to UpstreamError without leaking the key", async () => {
    server.injectFault({ kind: "status", status: 200, body: { success: false, error_code: 101, message: "Missing access_token" } });
    const missing = await failure(pos.listShops());
    expect(missing).toMatchObject({ code: 101, status: undefined });

    const secret = "wrong-key-5f1e9d2c";
    const wrong = await failure(new PosClient({ core, apiKeys: {}, defaultKey: secret }).listOrders(shop));
    expect(wrong).toMatchObject({ code: 105, status: 403, upstreamMessage: "api_key is invalid" });
    expect(wrong.hint).toBe("The POS api key is rejected: check PANCAKE_POS_API_KEY (shop settings, API KEY frame); copy the key again, whole.");

    const notFound = await failure(pos.getOrder(shop, 999_999));
    expect(notFound).toMatchObject({ status: 404, upstreamMessage: "order_not_found" });
    const bad = await failure(pos.listOrders(shop, { option_sort: "nope" as never }));
    expect(bad).toMatchObject({ status: 400, upstreamMessage: "invalid_parameters" });

    for (const error of [missing, wrong, notFound, bad]) {
      const text = `${error.message} ${error.hint ?? ""} ${JSON.stringify(error)}`;
      expect(text).not.toContain(secret);
      expect(text).not.toContain(state.apiKey);
    }
  });

  it("encodes ids into one path segment", async () => {
    await expect(pos.getOrder(shop, "../shops")).rejects.toMatchObject({ status: 404 });
    expect(last().path).toBe(`${base()}/orders/..%2Fshops`);
  });
});

describe("shops, geo, staff", () => {
  it("lists shops", async () => {
    expect((await pos.listShops())[0]!.id).toBe(shop);
  });

  it("reads provinces (country_code 84 by default), districts and communes", async () => {
    const old = await pos.listProvinces();
    expect(last().query).toMatchObject({ country_code: ["84"] });
    expect(old.find((p) => p.id === "701")?.name).toBe("Hồ Chí Minh");
    expect(await pos.listProvinces({ is_new: true })).toHaveLength(34);
    expect(last().query.is_new).toEqual(["true"]);
    const districts = await pos.listDistricts({ province_id: "501" });
    expect(districts.map((d) => d.name)).toContain("Quận Hải Châu");
    const communes = await pos.listCommunes({ province_id: "501", district_id: "50101" });
    expect(last().query).toMatchObject({ province_id: ["501"], district_id: ["50101"] });
    expect(communes[0]).toMatchObject({ district_id: "50101", province_id: "501" });
  });

  it("lists staff, carriers and order sources", async () => {
    expect((await pos.listUsers(shop))[0]!.user?.name).toBe(state.users[0]!.name);
    expect((await pos.listPartners(shop)).map((p) => p.id)).toContain(1);
    expect(last().path).toBe(`${base()}/partners`);
    expect((await pos.listOrderSources(shop)).some((s) => s.parent_id === -1)).toBe(true);
    expect(last().path).toBe(`${base()}/order_source`);
  });
});

describe("orders", () => {
  it("sends list filters with the upstream names and array styles", async () => {
    const page = await pos.listOrders(shop, {
      page_size: 20,
      page_number: 2,
      filter_status: [3, 16],
      updateStatus: 2,
      startDateTime: 1_700_000_000,
      option_sort: "inserted_at_asc",
      fields: ["id", "status", "bill_phone_number"],
      partner_id: [1, 5],
      order_sources: [["-1", state.shop.pages[0]!.id], ["-4"]],
      ad_ids: ["a1"],
      is_filter_exclude_source: false,
    });
    const q = last().query;
    expect(last().path).toBe(`${base()}/orders`);
    expect(q["filter_status[]"]).toEqual(["3", "16"]);
    expect(q["fields[]"]).toEqual(["id", "status", "bill_phone_number"]);
    expect(q["partner_id[]"]).toEqual(["1", "5"]);
    expect(q["order_sources[]"]).toEqual([JSON.stringify(["-1", state.shop.pages[0]!.id]), '["-4"]']);
    expect(q["ad_ids[]"]).toEqual(["a1"]);
    expect(q).toMatchObject({ page_size: ["20"], page_number: ["2"], updateStatus: ["2"], option_sort: ["inserted_at_asc"] });
    expect(q.filter_status).toBeUndefined();
    expect(page).toMatchObject({ page_number: 2, page_size: 20, data: [] });
  });

  it("returns paged orders with totals and walks them without gaps", async () => {
    const visible = state.orders.filter((o) => !o.is_removed && o.status === 16);
    const seen: number[] = [];
    for (let n = 1; ; n++) {
      const page = await pos.listOrders(shop, { filter_status: [16], page_size: 25, page_number: n });
      expect(page.total_entries).toBe(visible.length);
      seen.push(...page.data.map((o) => Number(o.id)));
      if (n >= page.total_pages!) break;
    }
    expect(seen.sort()).toEqual(visible.map((o) => o.id).sort());
  });

  it("unwraps the {data} order, creates, updates and reads back", async () => {
    const existing = state.orders[3]!;
    const got = await pos.getOrder(shop, existing.id);
    expect(got).toMatchObject({ id: existing.id, status: existing.status, bill_phone_number: existing.bill_phone_number });
    expect(got.items?.[0]?.variation_info?.name).toBe(existing.items[0]!.variation_info.name);

    const variation = state.variations[11]!;
    const created = await pos.createOrder(shop, {
      bill_full_name: "Trịnh Văn Khách",
      bill_phone_number: "0977123456",
      items: [{ variation_id: variation.id, product_id: variation.product_id, quantity: 1 }],
    });
    expect(last()).toMatchObject({ method: "POST", path: `${base()}/orders` });
    expect(last().query).toEqual({ api_key: [state.apiKey] });
    expect((last().body as { items: unknown[] }).items).toHaveLength(1);
    expect(await pos.getOrder(shop, created.id)).toEqual(created);
    const updated = await pos.updateOrder(shop, created.id, { status: 1 });
    expect(last()).toMatchObject({ method: "PUT", path: `${base()}/orders/${created.id}`, body: { status: 1 } });
    expect(updated.status_history?.map((h) => h.status)).toEqual([0, 1]);
    const found = await pos.listOrders(shop, { search: "0977123456" });
    expect(found.data.map((o) => o.id)).toEqual([created.id]);
  });

  it("lists and creates return orders", async () => {
    const list = await pos.listReturnOrders(shop, { status: -1, page: 1, page_size: 5 });
    expect(last().query).toMatchObject({ status: ["-1"], page: ["1"], page_size: ["5"] });
    expect(list.total_entries).toBe(state.returnOrders.length);
    expect(list.total_pages).toBe(Math.ceil(state.returnOrders.length / 5));
    expect(list.data[0]?.order_to_returned?.id).toBe(list.data[0]?.order_id_to_returned);
    const original = state.orders.find((o) => o.status === 16 && !o.is_removed)!;
    const item = original.items[0]!;
    const ret = await pos.createReturnOrder(shop, {
      status: 0,
      warehouse_id: original.warehouse_id,
      order_to_returned: { id: String(original.id) },
      returned_items: [{ product_id: item.product_id, variation_id: item.variation_id, returned_quantity: 1 }],
      order_additional: { warehouse_id: original.warehouse_id, items: [] },
    });
    expect(ret).toMatchObject({ order_id_to_returned: original.id, order: null });
    expect(ret.returned_items?.[0]?.returned_quantity).toBe(1);
  });
});

describe("warehouses and products", () => {
  it("lists, creates and updates warehouses", async () => {
    const created = await pos.createWarehouse(shop, { name: "Kho Huế", shelf_config: {}, commune_id: "4110101", address: "10 Lê Lợi" });
    expect(created.full_address).toBe("10 Lê Lợi, Phường Phú Hội, Thành phố Huế, Thừa Thiên Huế");
    const updated = await pos.updateWarehouse(shop, String(created.id), { name: "Kho Huế 2", shelf_config: {} });
    expect(last()).toMatchObject({ method: "PUT", path: `${base()}/warehouses/${created.id}` });
    expect(updated.name).toBe("Kho Huế 2");
    expect((await pos.listWarehouses(shop)).map((w) => w.name)).toContain("Kho Huế 2");
    await expect(pos.createWarehouse(shop, { name: "Thiếu cấu hình" })).rejects.toMatchObject({ status: 400 });
  });

  it("searches variations and reads a product by SKU", async () => {
    const page = await pos.listVariations(shop, { search: "quần jean", page_size: 50 });
    expect(last().query).toMatchObject({ search: ["quần jean"], page_size: ["50"] });
    expect(page.total_entries).toBe(12);
    expect(page.data[0]?.variations_warehouses).toHaveLength(state.warehouses.length);
    const v = state.variations[0]!;
    const byId = await pos.listVariations(shop, { variation_ids: [v.id] });
    expect(last().query["variation_ids[]"]).toEqual([v.id]);
    expect(byId.data.map((x) => x.id)).toEqual([v.id]);
    const product = await pos.getProduct(shop, v.product.display_id);
    expect(product.variations?.map((x) => x.id)).toContain(v.id);
  });
});

describe("customers", () => {
  it("searches, reads, creates and updates customers (wrapped in {customer})", async () => {
    const person = state.customers[0]!;
    const found = await pos.listCustomers(shop, { search: person.phone_numbers[0]! });
    expect(found.data.map((c) => c.id)).toEqual([person.id]);
    expect((await pos.getCustomer(shop, person.id)).name).toBe(person.name);
    const created = await pos.createCustomer(shop, { name: "Hồ Thị Mới", phone_numbers: ["0933444555"] });
    expect(last().body).toEqual({ customer: { name: "Hồ Thị Mới", phone_numbers: ["0933444555"] }, name: "Hồ Thị Mới", phoneNumber: "0933444555" });
    const updated = await pos.updateCustomer(shop, String(created.id), {
      shop_customer_address: [{ address: "7 Bạch Đằng", commune_id: "5010103", full_name: "Hồ Thị Mới", phone_number: "0933444555" }],
    });
    expect(updated.shop_customer_address?.[0]).toMatchObject({ district_id: "50101", province_id: "501" });
    const levels = await pos.listCustomerLevels(shop, { search: "Bạc" });
    expect(levels.map((l) => l.name)).toEqual(["Bạc"]);
    const filtered = await pos.listCustomers(shop, { selectedLevel: [levels[0]!.id as string], page_size: 100 });
    expect(last().query["selectedLevel[]"]).toEqual([levels[0]!.id]);
    expect(filtered.total_entries).toBe(state.customers.filter((c) => c.level_id === levels[0]!.id).length);
  });

  it("pages point logs and flattens notes", async () => {
    const customer = state.customers.find((c) => c.reward_point > 0)!;
    const logs = await pos.listCustomerPointLogs(shop, { shop_customer_id: customer.id, page_size: 2 });
    expect(last().query.shop_customer_id).toEqual([customer.id]);
    expect(logs.data[0]?.current_point).toBe(customer.reward_point);
    const note = await pos.createCustomerNote(shop, customer.id, { message: "Hẹn giao thứ 7", order_id: 58_001 });
    const notes = await pos.listCustomerNotes(shop, customer.id);
    expect(notes.at(-1)).toEqual(note);
    expect(note.order_id).toBe("58001");
  });

  it("creates customer promotions", async () => {
    const customers = state.customers.slice(0, 2).map((c) => c.id);
    const promo = await pos.createCustomerPromotions(shop, {
      promotion_advance: {
        promotion: { type: "discount_by_coupon_id", is_activated: true, promo_code_info: { discount: 10, is_percent: true } },
        shop_customer_ids: customers,
      },
    });
    expect(promo.shop_customer_ids).toEqual(customers);
    expect(last().path).toBe(`${base()}/promotion_advance/create_multi`);
  });
});

describe("finance and analytics", () => {
  it("lists and creates transactions, records ad costs, lists payment histories and debts", async () => {
    const tx = await pos.createTransaction(shop, { name: "Phí ship hoàn", amount: -45_000, payments: ["cash"] });
    expect(last().body).toEqual({ transaction: { name: "Phí ship hoàn", amount: -45_000, payments: ["cash"] } });
    const list = await pos.listTransactions(shop, { status: 1, startDateTime: Math.floor(now.getTime() / 1000) - 86_400 });
    expect(list.data.map((t) => t.id)).toContain(tx.id);
    const cost = await pos.createAdvCost(shop, {
      params: { cost_date: "2026-02-28", transaction: { name: "Quảng cáo", status: "1" }, items: [{ cost: 1_000_000, tax: 10 }] },
    });
    expect(cost.total_cost).toBe(1_100_000);
    const payments = await pos.listPaymentHistories(shop, { page: 1, page_size: 10 });
    expect(payments.total_entries).toBe(state.paymentHistories.length);
    const debts = await pos.listDebts(shop, { status: 0 });
    expect(debts.total_entries).toBe(state.debts.filter((d) => d.status === 0).length);
    expect(debts.sum).toBeTypeOf("object");
  });

  it("reads sales analytics with arrays and a JSON filter, formulas and fields", async () => {
    const v = state.variations[0]!;
    const rows = await pos.getSaleAnalytics(shop, {
      since: "2026-01-01 00:00:00",
      until: "2026-02-28 23:59:59",
      split_by: ["Variation.id"],
      filter: { "Variation.id": [v.id] },
      select_fields: ["order_count", "product_count"],
    });
    const q = last().query;
    expect(q["split_by[]"]).toEqual(["Variation.id"]);
    expect(q["select_fields[]"]).toEqual(["order_count", "product_count"]);
    expect(q.filter).toEqual([JSON.stringify({ "Variation.id": [v.id] })]);
    expect(rows.every((r) => r["Variation.id"] === v.id)).toBe(true);
    expect((await pos.listAnalyticsFormulas(shop))[0]?.formula).toContain("{price}");
    expect((await pos.listAnalyticsFields(shop)).map((f) => f.id)).toContain("avg_price");
  });
});

describe("inventory and promotions", () => {
  it("lists purchases and splits one", async () => {
    const purchases = await pos.listPurchases(shop, { page_size: 5 });
    expect(purchases.total_entries).toBe(15);
    const old = state.purchases[0]!;
    const items = old.items as { variation_id: string; quantity: number; imported_price: number }[];
    const split = await pos.splitPurchase(shop, {
      oldPurchase: { id: old.id, items: items.slice(1) },
      newPurchase: { items: items.slice(0, 1) },
    });
    expect(last().path).toBe(`${base()}/purchases/separate`);
    expect((split.new_purchase as { items: unknown[] }).items).toHaveLength(1);
  });

  it("lists inventory history by variation", async () => {
    const v = state.inventoryHistories[0]!.variation_id as string;
    const page = await pos.listInventoryHistories(shop, { variation_ids: [v] });
    expect(last().query["variation_ids[]"]).toEqual([v]);
    expect(page.total_entries).toBe(state.inventoryHistories.filter((h) => h.variation_id === v).length);
  });

  it("lists and creates stock exports and transfers", async () => {
    const [from, to1, to2] = state.warehouses;
    const v = state.variations[5]!;
    const exp = await pos.createStockExport(shop, {
      export_list: { warehouse_id: from!.id, status: 0, export_items: [{ variation_id: v.id, quantity: 1, imported_price: 1 }] },
    });
    expect((await pos.listStockExports(shop)).data[0]?.id).toBe(exp.id);
    const transfers = await pos.createTransfers(shop, {
      transfer: { from_warehouse_id: from!.id, to_warehouse_ids: [to1!.id, to2!.id], items: [{ variation_id: v.id, quantity: 2 }] },
    });
    expect(transfers.map((t) => t.to_warehouse_id)).toEqual([to1!.id, to2!.id]);
    const moved = await pos.updateTransfer(shop, String(transfers[0]!.id), { transfer: { status: 1 } });
    expect(moved.status).toBe(1);
    expect((await pos.listTransfers(shop, { status: 1 })).data.map((t) => t.id)).toContain(transfers[0]!.id);
  });

  it("lists, reads, creates and updates stocktakings", async () => {
    const list = await pos.listStocktakings(shop, { status: 1 });
    expect(list.total_entries).toBe(state.stocktakings.filter((s) => s.status === 1).length);
    const v = state.variations[9]!;
    const created = await pos.createStocktaking(shop, {
      stocktaking: { warehouse_id: state.warehouses[0]!.id, status: 0, items: [{ variation_id: v.id, changed_quantity: -1 }] },
    });
    const updated = await pos.updateStocktaking(shop, String(created.id), {
      stocktaking: { id: created.id, warehouse_id: state.warehouses[0]!.id, status: 1, items: [{ variation_id: v.id, changed_quantity: -2 }] },
    });
    expect(updated.status).toBe(1);
    expect((await pos.getStocktaking(shop, String(created.id))).items).toHaveLength(1);
  });

  it("lists, creates, updates and deletes promotions; lists and creates combos", async () => {
    const created = await pos.createPromotion(shop, { promotion_advance: { name: "Xả kho", type: "discount_by_product" } });
    expect((await pos.listPromotions(shop, { textSearch: "xả kho" })).data.map((p) => p.id)).toEqual([created.id]);
    expect(last().query.textSearch).toEqual(["xả kho"]);
    const updated = await pos.updatePromotion(shop, String(created.id), { promotion_advance: { is_activated: true } });
    expect(updated.is_activated).toBe(true);
    await pos.deletePromotions(shop, { ids: [created.id] });
    expect((await pos.listPromotions(shop, { textSearch: "xả kho" })).total_entries).toBe(0);
    const v = state.variations[1]!;
    const combo = await pos.createCombo(shop, { combo_product: { name: "Combo thử", variations: [{ count: 1, variation_id: v.id }] } });
    expect((await pos.listCombos(shop, { page_size: 100 })).data.map((c) => c.id)).toContain(combo.id);
  });
});

describe("lenient parsing and status tables", () => {
  it("keeps unknown fields and records that do not match the schema", async () => {
    server.injectFault({
      kind: "status",
      status: 200,
      body: { success: true, data: [{ id: 1, extra: "kept" }, { id: { odd: true }, name: 5 }], page_size: 2, total_entries: 2 },
    });
    const page = await pos.listOrders(shop);
    expect(page.data[0]).toMatchObject({ id: 1, extra: "kept" });
    expect(page.data[1]).toEqual({ id: { odd: true }, name: 5 });
    expect(page.total_pages).toBe(1);
  });

  it("finds statuses by code or name", () => {
    expect(findStatus(ORDER_STATUSES, "shipped")?.code).toBe(2);
    expect(findStatus(ORDER_STATUSES, "2")?.name).toBe("shipped");
    expect(findStatus(POS_STATUS_TABLES.debts, "Settled")?.code).toBe(1);
    expect(ORDER_STATUSES).toHaveLength(17);
    expect(findStatus(ORDER_STATUSES, "cancelled")?.code).toBe(6);
  });
});
