import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// Addresses as customers write them since the reform of 1 July 2025: province and ward, no
// district. lookup_address reads both forms and says which each match is in.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const geo = () => h.sandbox.pos.geo;
/** The post-2025 province an old one merged into, and one of its wards by name, from the raw data. */
const newProvince = (oldName: string) => geo().newProvinces.find((p) => p.id === geo().provinces.find((o) => o.name === oldName)!.new_id)!;
const ward = (provinceId: string, name: string) => geo().wards.find((w) => w.province_id === provinceId && w.name === name)!;

type Match = { form: string; full_name: string; province: { id: string }; district?: { id: string }; commune?: { id: string; name: string } };

describe("lookup_address, two-tier addresses", () => {
  it("places a ward of the new form in its post-2025 province, with no district", async () => {
    const hcm = newProvince("Hồ Chí Minh");
    const saiGon = ward(hcm.id, "Phường Sài Gòn");
    for (const query of ["12 Lê Lợi, Phường Sài Gòn, TP Hồ Chí Minh", "12 le loi, phuong sai gon, tp ho chi minh", "Sài Gòn, hcm", "Phường Sài Gòn"]) {
      const r = await h.call("lookup_address", { query });
      expect(r.isError, r.text).toBe(false);
      const top: Match = r.data.matches[0];
      expect({ form: top.form, province: top.province.id, district: top.district, commune: top.commune?.id }, query).toEqual({
        form: "new",
        province: hcm.id,
        district: undefined,
        commune: saiGon.id,
      });
      expect(top.full_name).toBe(`${saiGon.name}, ${hcm.name}`);
    }
  });

  it("reads the street's number as a street, not as Quận 1", async () => {
    const r = await h.call("lookup_address", { query: "12 Lê Lợi, Phường Sài Gòn, TP Hồ Chí Minh" });
    expect(r.data.matches.some((m: Match) => m.district)).toBe(false);
  });

  it("still reads the three-tier form, saying so", async () => {
    const benNghe = geo().communes.find((c) => c.name === "Phường Bến Nghé")!;
    const r = await h.call("lookup_address", { query: "12 Lê Lợi, Bến Nghé, Q1, tp hcm" });
    const top: Match = r.data.matches[0];
    expect({ form: top.form, province: top.province.id, district: top.district?.id, commune: top.commune?.id }).toEqual({
      form: "old",
      province: benNghe.province_id,
      district: benNghe.district_id,
      commune: benNghe.id,
    });
  });

  it("lists every ward a name fits, in one province or across provinces", async () => {
    const hcm = newProvince("Hồ Chí Minh");
    const tanSon = await h.call("lookup_address", { query: "Tân Sơn, HCM" });
    const top = tanSon.data.matches.filter((m: Match) => m.form === "new" && m.commune);
    expect(top.map((m: Match) => m.commune!.id).sort()).toEqual(
      geo().wards.filter((w) => w.province_id === hcm.id && w.name.startsWith("Phường Tân Sơn ")).map((w) => w.id).sort(),
    );
    expect(top.length).toBeGreaterThan(1);

    const longBinh = await h.call("lookup_address", { query: "phuong long binh" });
    const expected = geo().wards.filter((w) => w.name === "Phường Long Bình");
    expect(expected.length).toBeGreaterThan(1);
    expect(longBinh.data.matches.map((m: Match) => [m.province.id, m.commune?.id]).sort()).toEqual(expected.map((w) => [w.province_id, w.id]).sort());
  });

  it("finds the new ward of an old province's town through the city it merged into, beside the old town", async () => {
    const hcm = newProvince("Bình Dương");
    const r = await h.call("lookup_address", { query: "Thủ Dầu Một, Bình Dương" });
    const [first, second] = r.data.matches as (Match & { score: number })[];
    // The old town (several wards since July 2025) and the new ward of its name, equally good readings.
    const town = geo().districts.find((d) => d.province_id === geo().provinces.find((p) => p.name === "Bình Dương")!.id && d.name.endsWith("Thủ Dầu Một"))!;
    expect([first!.form, first!.district?.id, first!.commune]).toEqual(["old", town.id, undefined]);
    expect([second!.form, second!.province.id, second!.commune?.id]).toEqual(["new", hcm.id, ward(hcm.id, "Phường Thủ Dầu Một").id]);
    expect(first!.score).toBe(second!.score);
  });

  it("lists a post-2025 province's wards by its new id, and refuses a district there", async () => {
    const hanoi = newProvince("Hà Nội");
    const r = await h.call("lookup_address", { province_id: hanoi.id, limit: 50 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.province_list).toBe("new");
    expect(r.data.matches.map((m: Match) => [m.form, m.commune?.id, m.district])).toEqual(
      geo().wards.filter((w) => w.province_id === hanoi.id).map((w) => ["new", w.id, undefined]),
    );
    const narrowed = await h.call("lookup_address", { province_id: hanoi.id, query: "hoan kiem" });
    expect(narrowed.data.matches.map((m: Match) => m.commune?.id)).toEqual([ward(hanoi.id, "Phường Hoàn Kiếm").id]);
    const district = await h.call("lookup_address", { province_id: hanoi.id, district_id: "10101" });
    expect(district.isError).toBe(true);
    expect(district.text).toContain("district_id");
  });

  it("keeps to one form when asked", async () => {
    const old = await h.call("lookup_address", { query: "Bến Thành, hcm", province_list: "old" });
    expect(old.data.matches.map((m: Match) => m.form)).not.toContain("new");
    expect(old.data.matches[0].commune.id).toBe(geo().communes.find((c) => c.name === "Phường Bến Thành")!.id);
    const fresh = await h.call("lookup_address", { query: "Bến Thành, hcm", province_list: "new" });
    expect(fresh.data.matches.map((m: Match) => m.form)).not.toContain("old");
    expect(fresh.data.matches[0].commune.id).toBe(ward(newProvince("Hồ Chí Minh").id, "Phường Bến Thành").id);
  });
});
