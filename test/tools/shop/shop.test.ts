import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const pos = () => h.sandbox.pos;

describe("list_shops", () => {
  it("lists the shop and its pages", async () => {
    const r = await h.call("list_shops");
    expect(r.data.shops).toEqual([
      {
        id: String(pos().shop.id),
        name: pos().shop.name,
        pages: pos().shop.pages.map((p) => ({ id: p.id, name: p.name, platform: p.platform })),
      },
    ]);
  });
});

describe("lookup_address", () => {
  const expected = () => {
    const commune = pos().geo.communes.find((c) => c.name === "Phường Bến Nghé")!;
    return { commune: commune.id, district: commune.district_id, province: commune.province_id };
  };
  const top = (r: { data: { matches: { commune?: { id: string }; district?: { id: string }; province: { id: string } }[] } }) => {
    const m = r.data.matches[0]!;
    return { commune: m.commune?.id, district: m.district?.id, province: m.province.id };
  };

  it("resolves a place typed with diacritics", async () => {
    const r = await h.call("lookup_address", { query: "Phường Bến Nghé, Quận 1, Hồ Chí Minh" });
    expect(top(r)).toEqual(expected());
  });

  it("resolves the same place typed without diacritics and prefixes", async () => {
    const r = await h.call("lookup_address", { query: "ben nghe, quan 1, ho chi minh" });
    expect(top(r)).toEqual(expected());
  });

  it("reads provinces and districts typed without accents or spaces, and short names", async () => {
    const province = (name: string) => pos().geo.provinces.find((p) => p.name === name)!.id;
    for (const [typed, name] of [["hanoi", "Hà Nội"], ["hcm", "Hồ Chí Minh"], ["tp hcm", "Hồ Chí Minh"], ["TP.HCM", "Hồ Chí Minh"], ["sai gon", "Hồ Chí Minh"], ["saigon", "Hồ Chí Minh"], ["danang", "Đà Nẵng"]] as const) {
      const r = await h.call("lookup_address", { query: typed });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.matches[0].province.id, typed).toBe(province(name));
      expect(r.data.matches[0].district, typed).toBeUndefined();
    }
    expect(top(await h.call("lookup_address", { query: "ben nghe, q1, tp hcm" }))).toEqual(expected());
    expect(top(await h.call("lookup_address", { query: "Bến Nghé, Q.1, Sài Gòn" }))).toEqual(expected());
    expect(top(await h.call("lookup_address", { query: "ben nghe, sai gon" }))).toEqual(expected());
    const wards = await h.call("lookup_address", { query: "phuong 1, hcm" });
    expect(wards.data.matches.map((m: { district: { name: string } }) => m.district.name).sort()).toEqual(["Quận Bình Thạnh", "Quận Gò Vấp"]);
    // "Bình Thạnh" names an old district and a post-2025 ward alike: both readings come, equally
    // scored, the district first (several wards since July 2025, the new Phường Bình Thạnh one of them).
    const district = await h.call("lookup_address", { query: "binhthanh, hcm" });
    const [first, second] = district.data.matches as { district?: { id: string }; commune?: { id: string }; score: number }[];
    expect([first!.commune?.id ?? first!.district?.id, second!.commune?.id ?? second!.district?.id]).toEqual([
      pos().geo.districts.find((d) => d.name === "Quận Bình Thạnh")!.id,
      pos().geo.wards.find((w) => w.name === "Phường Bình Thạnh")!.id,
    ]);
    expect(first!.score).toBe(second!.score);
    // With its prefix, the ward alone.
    const ward = await h.call("lookup_address", { query: "Phường Bình Thạnh, hcm" });
    expect(ward.data.matches[0].commune.id).toBe(pos().geo.wards.find((w) => w.name === "Phường Bình Thạnh")!.id);
    expect(ward.data.matches.some((m: { district?: unknown }) => m.district)).toBe(false);
  });

  it("says when it shows fewer places than it found", async () => {
    const all = pos().geo.districts.filter((d) => d.province_id === "701");
    const r = await h.call("lookup_address", { province_id: "701", limit: 2 });
    expect(r.data.matches).toHaveLength(2);
    expect(r.data).toMatchObject({ total: all.length, truncated: true });
    const whole = await h.call("lookup_address", { province_id: "701", limit: 50 });
    expect(whole.data.truncated).toBeUndefined();
    const provinces = await h.call("lookup_address", {});
    expect(provinces.data).toMatchObject({ total: pos().geo.provinces.length, truncated: true });
  });

  it("browses provinces, districts and communes, and the new province list", async () => {
    const provinces = await h.call("lookup_address", { limit: 50 });
    expect(provinces.data.matches.map((m: { province: { id: string } }) => m.province.id)).toEqual(pos().geo.provinces.map((p) => p.id));
    const districts = await h.call("lookup_address", { province_id: "701", limit: 50 });
    expect(districts.data.matches.map((m: { district: { id: string } }) => m.district.id)).toEqual(
      pos().geo.districts.filter((d) => d.province_id === "701").map((d) => d.id),
    );
    const communes = await h.call("lookup_address", { province_id: "701", district_id: "70101", limit: 50 });
    expect(communes.data.matches.map((m: { commune: { id: string } }) => m.commune.id)).toEqual(
      pos().geo.communes.filter((c) => c.district_id === "70101").map((c) => c.id),
    );
    const fresh = await h.call("lookup_address", { province_list: "new", limit: 50 });
    expect(fresh.data.matches.map((m: { province: { id: string } }) => m.province.id)).toEqual(pos().geo.newProvinces.map((p) => p.id));
  });
});

describe("warehouses", () => {
  it("lists warehouses with address ids", async () => {
    const r = await h.call("list_warehouses");
    expect(r.data.warehouses[0]).not.toHaveProperty("shelf_config");
    expect(r.data.warehouses.map((w: { id: string; name: string; commune_id: string; can_create_orders?: boolean }) => [w.id, w.name, w.commune_id, w.can_create_orders ?? false])).toEqual(
      pos().warehouses.map((w) => [w.id, w.name, w.commune_id, w.allow_create_order]),
    );
  });

  it("requires name and shelf_config to create, before any write", async () => {
    const path = `/pos/api/v1/shops/${pos().shop.id}/warehouses`;
    const noShelf = await h.call("save_warehouse", { name: "Kho mới" });
    expect(noShelf.isError).toBe(true);
    expect(noShelf.text).toContain("shelf_config");
    const noName = await h.call("save_warehouse", { shelf_config: {} });
    expect(noName.text).toContain("name");
    expect(h.sandbox.server.count("POST", path)).toBe(0);
  });

  it("creates a warehouse and updates it, keeping fields left out", async () => {
    const created = await h.call("save_warehouse", {
      name: "Kho Cần Thơ",
      shelf_config: '{"col":"4"}',
      address: "5 Hòa Bình",
      commune_id: "8150102",
      district_id: "81501",
      province_id: "815",
      extra: { hide_config_batch_shelf: true },
    });
    expect(created.isError, created.text).toBe(false);
    expect(created.data.created).toBe(true);
    const stored = pos().warehouses.find((w) => w.id === created.data.warehouse.id)!;
    expect(stored).toMatchObject({ name: "Kho Cần Thơ", hide_config_batch_shelf: true, commune_id: "8150102", country_code: "84", shelf_config: { col: "4" } });

    // The update requires shelf_config and the list does not show it: it must be given.
    const noShelves = await h.call("save_warehouse", { warehouse_id: stored.id, phone_number: "0900111222" });
    expect(noShelves.isError).toBe(true);
    expect(noShelves.text).toContain("shelf_config");
    const updated = await h.call("save_warehouse", { warehouse_id: stored.id, phone_number: "0900111222", shelf_config: { col: "4" } });
    expect(updated.isError, updated.text).toBe(false);
    const put = h.sandbox.server.requests.filter((r) => r.method === "PUT" && r.path.endsWith(`/warehouses/${stored.id}`)).at(-1);
    expect(put?.body).toMatchObject({ name: "Kho Cần Thơ", phone_number: "0900111222", shelf_config: { col: "4" } });
    expect(stored).toMatchObject({ name: "Kho Cần Thơ", phone_number: "0900111222", shelf_config: { col: "4" } });
    const list = await h.call("list_warehouses");
    expect(list.data.warehouses.map((w: { id: string }) => w.id)).toContain(stored.id);

    const missing = await h.call("save_warehouse", { warehouse_id: "no-such-warehouse", name: "x" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('warehouse_id: unknown value "no-such-warehouse"');
    expect(missing.text).toContain(pos().warehouses[0]!.name);
  });
});
