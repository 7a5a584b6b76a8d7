import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// Orders shipped to addresses written in either form: the two-tier one (province, ward) goes
// upstream the way the vendor's order records carry it, the three-tier one as before, and the
// answer says which form was used.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const pos = () => h.sandbox.pos;
const hcm = () => pos().geo.newProvinces.find((p) => p.id === pos().geo.provinces.find((o) => o.name === "Hồ Chí Minh")!.new_id)!;
const ward = (name: string) => pos().geo.wards.find((w) => w.province_id === hcm().id && w.name === name)!;
const ordersPath = () => `/pos/api/v1/shops/${pos().shop.id}/orders`;
const lastPost = () => h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path === ordersPath()).at(-1)!;
const lastPut = (id: number) => h.sandbox.server.requests.filter((q) => q.method === "PUT" && q.path === `${ordersPath()}/${id}`).at(-1)!;
const sentAddress = (body: unknown) => (body as { shipping_address: Record<string, unknown> }).shipping_address;
const item = () => ({ product: pos().variations[0]!.display_id, quantity: 1 });

/** What a two-tier address should look like upstream, from the raw address data. */
function twoTier(street: string, wardName: string) {
  const w = ward(wardName);
  const text = `${street}, ${w.name}, ${hcm().name}`;
  return { address: street, province_id: hcm().id, new_province_id: hcm().id, commune_id: w.id, district_id: null, render_type: "new", new_full_address: text };
}

describe("create_order with a two-tier address", () => {
  it("sends the new province and ward with render_type new, and says it used the new form", async () => {
    for (const typed of ["12 Lê Lợi, Phường Sài Gòn, TP Hồ Chí Minh", "12 Lê Lợi, phuong sai gon, tp hcm"]) {
      const posts = h.sandbox.server.count("POST", ordersPath());
      const r = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: typed } });
      expect(r.isError, r.text).toBe(false);
      expect(h.sandbox.server.count("POST", ordersPath()) - posts).toBe(1);
      const expected = twoTier("12 Lê Lợi", "Phường Sài Gòn");
      expect(sentAddress(lastPost().body)).toMatchObject(expected);
      const stored = pos().orders.find((o) => String(o.id) === r.data.id)!;
      expect(stored.shipping_address).toMatchObject(expected);
      expect(r.data.address_match).toEqual({ matched: `Phường Sài Gòn, ${hcm().name}`, form: "new" });
      expect(r.data.order.address.full_address).toBe(expected.new_full_address);
    }
  });

  it("ships from the warehouse in the delivery's post-2025 province, whose record names the old one", async () => {
    const near = pos().warehouses.find((w) => pos().geo.provinces.find((p) => p.id === w.province_id)?.new_id === hcm().id)!;
    pos().variations[0]!.variations_warehouses.find((s) => s.warehouse_id === near.id)!.remain_quantity = 5;
    const r = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: "3 Lê Thánh Tôn, Bến Thành, TP HCM" } });
    expect(r.data.address_match.form).toBe("new");
    expect(pos().orders.find((o) => String(o.id) === r.data.id)!.warehouse_id).toBe(near.id);
    expect(r.data.defaults[0]).toBe(`warehouse: ${near.name}, in the delivery's province with every item in stock (none given)`);
  });

  it("still sends a three-tier address with its old ids, saying so", async () => {
    const benNghe = pos().geo.communes.find((c) => c.name === "Phường Bến Nghé")!;
    const r = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: "12 Lê Lợi, Bến Nghé, Q1, tp hcm" } });
    expect(r.isError, r.text).toBe(false);
    const sent = sentAddress(lastPost().body);
    // Sent as the vendor's records carry a three-tier address: render_type old, the province's new id.
    const province = pos().geo.provinces.find((p) => p.id === benNghe.province_id)!;
    expect(sent).toEqual(
      expect.objectContaining({ address: "12 Lê Lợi", commune_id: benNghe.id, district_id: benNghe.district_id, province_id: benNghe.province_id, render_type: "old", new_province_id: province.new_id }),
    );
    expect(r.data.address_match).toMatchObject({ form: "old" });
    // Read back as the vendor's records show a three-tier address: in its old form.
    const stored = pos().orders.find((o) => String(o.id) === r.data.id)!;
    expect(stored.shipping_address.render_type).toBe("old");
    expect(r.data.order.address.full_address).toBe(stored.shipping_address.full_address);
  });

  it("sends an old district written without Quận as typed, naming both readings, where it once became one new ward", async () => {
    for (const [typed, name] of [
      ["208 Xô Viết Nghệ Tĩnh, Bình Thạnh, TP HCM", "Bình Thạnh"],
      ["12 Quang Trung, Gò Vấp, HCM", "Gò Vấp"],
    ] as const) {
      const district = pos().geo.districts.find((d) => d.province_id === "701" && d.name === `Quận ${name}`)!;
      const w = ward(`Phường ${name}`);
      const r = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: typed } });
      expect(r.isError, r.text).toBe(false);
      const sent = sentAddress(lastPost().body);
      expect(sent.address).toBe(typed);
      expect(sent.commune_id).toBeUndefined();
      expect(sent.render_type).toBeUndefined();
      expect(r.data.address_match.form).toBeUndefined();
      expect(r.data.address_match.note).toContain(`${district.name}, Hồ Chí Minh`);
      expect(r.data.address_match.note).toContain(`${w.name}, ${hcm().name}`);
      expect(r.data.address_match.note).toContain("sent as typed");
    }
    // Written as the ward, it is the ward.
    const r = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: "208 Xô Viết Nghệ Tĩnh, Phường Bình Thạnh, TP HCM" } });
    expect(sentAddress(lastPost().body)).toMatchObject(twoTier("208 Xô Viết Nghệ Tĩnh", "Phường Bình Thạnh"));
    expect(r.data.address_match.form).toBe("new");
    // A ward's prefix is never the old city of the same name (Thành phố Thủ Dầu Một, Bình Dương).
    const city = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: "7 Yersin, Phường Thủ Dầu Một, Bình Dương" } });
    expect(city.data.address_match).toEqual({ matched: `Phường Thủ Dầu Một, ${hcm().name}`, form: "new" });
    expect(sentAddress(lastPost().body)).toMatchObject({ commune_id: ward("Phường Thủ Dầu Một").id, render_type: "new" });
  });

  it("places a ward named like the city as lookup_address does", async () => {
    const typed = "12 Lê Lợi, Sài Gòn, HCM";
    const looked = await h.call("lookup_address", { query: typed });
    expect(looked.data.matches[0].commune.id).toBe(ward("Phường Sài Gòn").id);
    const r = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: typed } });
    expect(r.isError, r.text).toBe(false);
    expect(sentAddress(lastPost().body)).toMatchObject(twoTier("12 Lê Lợi", "Phường Sài Gòn"));
    expect(r.data.address_match).toEqual({ matched: looked.data.matches[0].full_name, form: "new" });
  });

  it("lists the wards an ambiguous name fits and sends nothing", async () => {
    const posts = h.sandbox.server.count("POST", ordersPath());
    const r = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: "12 Lê Lợi, Tân Sơn, TP HCM" } });
    expect(r.isError).toBe(true);
    for (const w of pos().geo.wards.filter((x) => x.province_id === hcm().id && x.name.startsWith("Phường Tân Sơn "))) expect(r.text).toContain(w.name);
    expect(h.sandbox.server.count("POST", ordersPath())).toBe(posts);
  });

  it("takes a post-2025 province and ward by id (lookup_address), and checks the ward first", async () => {
    const w = ward("Phường Bến Thành");
    const r = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: "5 Lý Tự Trọng", province_id: hcm().id, commune_id: w.id } });
    expect(r.isError, r.text).toBe(false);
    expect(sentAddress(lastPost().body)).toMatchObject(twoTier("5 Lý Tự Trọng", "Phường Bến Thành"));
    expect(r.data.address_match).toEqual({ matched: `${w.name}, ${hcm().name}`, form: "new" });

    const posts = h.sandbox.server.count("POST", ordersPath());
    const old = pos().geo.communes.find((c) => c.name === "Phường Bến Nghé")!;
    const wrong = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: "5 Lý Tự Trọng", province_id: hcm().id, commune_id: old.id } });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain("shipping_address.commune_id");
    const district = await h.call("create_order", { items: [item()], phone: "0912345678", shipping_address: { address: "5 Lý Tự Trọng", province_id: hcm().id, district_id: old.district_id, commune_id: w.id } });
    expect(district.isError).toBe(true);
    expect(district.text).toContain("shipping_address.district_id");
    expect(h.sandbox.server.count("POST", ordersPath())).toBe(posts);
  });
});

describe("update_order with a two-tier address", () => {
  it("replaces the address, district cleared, and get_order reads it in the new form", async () => {
    const order = pos().orders.find((o) => o.status === 0 && !o.is_removed && o.shipping_address.district_id)!;
    const r = await h.call("update_order", { order_id: order.id, shipping_address: { address: "7 Hai Bà Trưng, Phường Tân Định, Hồ Chí Minh" } });
    expect(r.isError, r.text).toBe(false);
    const expected = twoTier("7 Hai Bà Trưng", "Phường Tân Định");
    expect(sentAddress(lastPut(order.id).body)).toMatchObject(expected);
    expect(order.shipping_address).toMatchObject({ ...expected, district_name: null, commune_name: "Phường Tân Định" });
    expect(r.data.address_match).toMatchObject({ form: "new" });
    const read = await h.call("get_order", { order_id: order.id });
    expect(read.data.order.address.full_address).toBe(expected.new_full_address);
  });

  it("and back to a three-tier one, saying so in the form fields (the record keeps those it is not sent)", async () => {
    const order = pos().orders.find((o) => o.status === 0 && !o.is_removed && o.shipping_address.render_type === "new")!;
    const daKao = pos().geo.communes.find((c) => c.name === "Phường Đa Kao")!;
    const province = pos().geo.provinces.find((p) => p.id === daKao.province_id)!;
    const r = await h.call("update_order", { order_id: order.id, shipping_address: { address: "7 Hai Bà Trưng, Đa Kao, Quận 1, TP HCM" } });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.address_match).toMatchObject({ form: "old" });
    const form = { render_type: "old", new_province_id: province.new_id, new_full_address: `7 Hai Bà Trưng, ${province.name}` };
    expect(sentAddress(lastPut(order.id).body)).toMatchObject({ commune_id: daKao.id, district_id: daKao.district_id, province_id: daKao.province_id, ...form });
    expect(order.shipping_address).toMatchObject({ commune_id: daKao.id, district_id: daKao.district_id, province_id: daKao.province_id, ...form });
    const read = await h.call("get_order", { order_id: order.id });
    expect(read.data.order.address.full_address).toBe(order.shipping_address.full_address);
  });
});

describe("a customer's two-tier address", () => {
  it("is saved with its new ids and text, and an order for the customer ships there in the new form", async () => {
    const saved = await h.call("save_customer", {
      name: "Chị Thu",
      phone_numbers: ["0911222333"],
      addresses: [{ address: "12 Lê Lợi, Phường Sài Gòn, TP HCM" }, { address: "9 Pasteur, Bến Nghé, Q1, HCM" }],
    });
    expect(saved.isError, saved.text).toBe(false);
    expect(saved.data.address_matches.map((m: { form: string }) => m.form)).toEqual(["new", "old"]);
    const customer = pos().customers.find((c) => c.id === saved.data.id)!;
    const w = ward("Phường Sài Gòn");
    expect(customer.shop_customer_address[0]).toMatchObject({ province_id: hcm().id, commune_id: w.id, address: "12 Lê Lợi", full_address: `12 Lê Lợi, ${w.name}, ${hcm().name}` });
    expect(customer.shop_customer_address[0]!.district_id || undefined).toBeUndefined();
    const benNghe = pos().geo.communes.find((c) => c.name === "Phường Bến Nghé")!;
    expect(customer.shop_customer_address[1]).toMatchObject({ province_id: benNghe.province_id, district_id: benNghe.district_id, commune_id: benNghe.id });
    // The customer endpoints document no render_type: the documented fields carry the address.
    const put = h.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/customers")).at(-1)!;
    expect((put.body as { customer: { shop_customer_address: Record<string, unknown>[] } }).customer.shop_customer_address[0]).not.toHaveProperty("render_type");

    const order = await h.call("create_order", { items: [item()], customer_id: customer.id });
    expect(order.isError, order.text).toBe(false);
    expect(sentAddress(lastPost().body)).toMatchObject(twoTier("12 Lê Lợi", "Phường Sài Gòn"));
  });
});
