import { describe, expect, it } from "vitest";
import { POS_STATUS_TABLES } from "../../src/clients/pos-codes.js";
import { useHarness } from "../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

async function read(uri: string) {
  const r = await h.client.readResource({ uri });
  const first = r.contents[0] as { text: string; mimeType?: string };
  expect(first.mimeType).toBe("application/json");
  return JSON.parse(first.text);
}

const complete = async (uri: string, name: string, value: string) =>
  (await h.client.complete({ ref: { type: "ref/resource", uri }, argument: { name, value } })).completion.values;

describe("pos resources", () => {
  it("reads the shops", async () => {
    const data = await read("pos://shops");
    expect(data.shops.map((s: { id: string }) => s.id)).toEqual([String(h.sandbox.pos.shop.id)]);
    expect(data.shops[0].pages).toHaveLength(h.sandbox.pos.shop.pages.length);
  });

  it("reads provinces (old and new lists), districts and communes", async () => {
    const geo = h.sandbox.pos.geo;
    const provinces = await read("pos://geo/provinces");
    expect(provinces.provinces.map((p: { id: string }) => p.id)).toEqual(geo.provinces.map((p) => p.id));
    expect(provinces.new_provinces.map((p: { id: string }) => p.id)).toEqual(geo.newProvinces.map((p) => p.id));
    const districts = await read("pos://geo/provinces/501/districts");
    expect(districts.districts.map((d: { id: string }) => d.id)).toEqual(geo.districts.filter((d) => d.province_id === "501").map((d) => d.id));
    const communes = await read("pos://geo/districts/50103/communes");
    expect(communes.province_id).toBe("501");
    expect(communes.communes.map((c: { name: string }) => c.name)).toEqual(geo.communes.filter((c) => c.district_id === "50103").map((c) => c.name));
  });

  it("reads every status table with names and meanings", async () => {
    for (const [table, rows] of Object.entries(POS_STATUS_TABLES)) {
      const data = await read(`pos://status-codes/${table}`);
      expect(data.codes).toEqual(rows);
    }
    await expect(h.client.readResource({ uri: "pos://status-codes/unicorns" })).rejects.toThrow(/unicorns/);
  });

  it("lists the templates and the status tables", async () => {
    const { resourceTemplates } = await h.client.listResourceTemplates();
    const uris = resourceTemplates.map((t) => t.uriTemplate);
    for (const uri of ["pos://geo/provinces/{province_id}/districts", "pos://geo/districts/{district_id}/communes", "pos://status-codes/{table}"]) {
      expect(uris).toContain(uri);
    }
    const { resources } = await h.client.listResources();
    const listed = resources.map((r) => r.uri);
    expect(listed).toContain("pos://shops");
    for (const table of Object.keys(POS_STATUS_TABLES)) expect(listed).toContain(`pos://status-codes/${table}`);
  });

  it("completes template arguments by id or by name, with or without diacritics", async () => {
    expect(await complete("pos://status-codes/{table}", "table", "ret")).toEqual(["return_orders"]);
    expect(await complete("pos://geo/provinces/{province_id}/districts", "province_id", "ho chi")).toEqual(["701"]);
    expect(await complete("pos://geo/provinces/{province_id}/districts", "province_id", "Đà")).toEqual(["501"]);
    expect(await complete("pos://geo/provinces/{province_id}/districts", "province_id", "70")).toEqual(
      h.sandbox.pos.geo.provinces.filter((p) => p.id.startsWith("70")).map((p) => p.id),
    );
    expect(await complete("pos://geo/districts/{district_id}/communes", "district_id", "Ngu Hanh")).toEqual(["50107"]);
  });
});
