import { describe, expect, it } from "vitest";
import { HttpCore } from "../../../src/clients/http.js";
import { checkRequest } from "../../../src/clients/openapi/match.js";
import { PosClient } from "../../../src/clients/pos.js";
import { GeoIndex } from "../../../src/tools/shop/geo-index.js";
import { INDEX } from "../../contract/recorder.js";
import { useHarness } from "../../helpers/harness.js";

// The vendor's OpenAPI requires district_id on /geo/communes. A post-2025 province has no district:
// its two-tier wards are the one request without it (province_id = its new id, reported from
// production), and no other /geo/communes request may leave it out.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

const communeReads = (from: number) => h.sandbox.server.requests.slice(from).filter((q) => q.method === "GET" && q.path.endsWith("/geo/communes"));

describe("/geo/communes and district_id", () => {
  it("the contract requires district_id except with a post-2025 province id", () => {
    const problems = (query: Record<string, string[]>) => checkRequest(INDEX.operations, { api: "pos", method: "GET", path: "/geo/communes", query: { api_key: ["k"], ...query } }).problems;
    expect(problems({ province_id: ["101"] })).toEqual(["pos GET /geo/communes: query.district_id: is required"]);
    expect(problems({ province_id: ["101"], district_id: ["10101"] })).toEqual([]);
    expect(problems({ province_id: ["84_VN129"] })).toEqual([]);
  });

  it("lookup_address asks an old province's communes by district, a new province's wards by its new id alone", async () => {
    const geo = h.sandbox.pos.geo;
    const newIds = new Set(geo.newProvinces.map((p) => p.id));
    const old = geo.provinces.find((p) => p.id === "701")!;
    const district = geo.districts.find((d) => d.province_id === old.id)!;
    const before = h.sandbox.server.requests.length;
    for (const args of [
      { query: "ben nghe, q1, tp hcm" },
      { query: "phuong sai gon, hcm" },
      { query: "Phường 1" },
      { query: "phường Phú Cường, TP HCM" },
      { province_id: old.id },
      { province_id: old.new_id },
      { province_id: old.id, district_id: district.id },
    ]) {
      const r = await h.call("lookup_address", args);
      expect(r.isError, `${JSON.stringify(args)}: ${r.text}`).toBe(false);
    }
    const reads = communeReads(before);
    expect(reads.length).toBeGreaterThan(0);
    for (const q of reads) {
      const province = q.query.province_id?.[0] ?? "";
      if (!q.query.district_id) expect(newIds.has(province), `communes of ${province} without district_id`).toBe(true);
      else expect(geo.districts.find((d) => d.id === q.query.district_id![0])?.province_id).toBe(province);
    }
    expect(reads.some((q) => !q.query.district_id)).toBe(true);
  });

  it("never lists an old province's communes without a district: refused before any request", async () => {
    const core = new HttpCore({ baseUrl: h.config.posBaseUrl, retry: { attempts: 1 } });
    try {
      const geo = new GeoIndex(new PosClient({ core, apiKeys: {}, defaultKey: h.sandbox.credentials.posApiKey }));
      const before = h.sandbox.server.requests.length;
      await expect(geo.wards("101")).rejects.toThrow(/province_id: 101 is not a post-2025 province/);
      await expect(geo.communes("101", "")).rejects.toThrow(/district_id: is required/);
      expect(communeReads(before)).toEqual([]);
      expect((await geo.wards("84_VN129")).length).toBeGreaterThan(0);
    } finally {
      await core.close();
    }
  });
});
