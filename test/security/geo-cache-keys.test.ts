import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it, vi } from "vitest";
import { TtlCache } from "../../src/state/ttl-cache.js";
import { useHarness } from "../helpers/harness.js";

// Issue 33: every cache a caller's input can key is capped and validates its keys. The address
// cache (geo, src/tools/shop/geo-index.ts) is keyed by place ids that callers give: the resource
// templates pos://geo/provinces/{province_id}/districts and pos://geo/districts/{district_id}/communes,
// lookup_address and save_customer. A made-up id must be refused before anything is read or
// cached under it, with an error that says what an id looks like, and real ids keep answering.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });

// Every key asked of the geo cache, and the cache itself (its size in entries and bytes).
const asked: string[] = [];
let geo: TtlCache | undefined;
const get = TtlCache.prototype.get;
const spy = vi.spyOn(TtlCache.prototype, "get").mockImplementation(function (this: TtlCache, key, load) {
  if (Reflect.get(this, "name") === "geo") {
    geo = this;
    asked.push(key);
  }
  return get.call(this, key, load) as never;
});
afterAll(() => spy.mockRestore());

const geoReads = (from: number) => h.sandbox.server.requests.slice(from).filter((r) => r.path.includes("/geo/"));

async function refusal(uri: string): Promise<string> {
  const error = await h.client.readResource({ uri }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, uri.slice(0, 80)).toBeInstanceOf(ProtocolError);
  expect(error).toMatchObject({ code: -32602, data: { uri } });
  return (error as Error).message;
}

// 2,000 distinct made-up ids, each of one of four kinds: 8 KB long, 100 characters (under the
// 128 of any id, over a place id's 32), a place id's form with a character it never has, and a
// place id's form that names no place.
const madeUp = (i: number): { id: string; says: RegExp } => {
  switch (i % 4) {
    case 0:
      return { id: String(i).padStart(8000, "9"), says: /at most 128|<=128/ };
    case 1:
      return { id: String(i).padStart(100, "9"), says: /is not a place id: at most 32 letters, digits, _ or -/ };
    case 2:
      return { id: `9.${i}`, says: /is not a place id: at most 32 letters, digits, _ or -/ };
    default:
      return { id: String(90_000_000 + i), says: /no (province|district) 9\d+/ };
  }
};

describe("the address cache takes no made-up id as a key", () => {
  it("resources/read of a province's districts: 2,000 distinct long made-up ids are refused, nothing read or cached under them", async () => {
    const geoData = h.sandbox.pos.geo;
    // Both province lists, read once: what every id is checked against.
    await h.client.readResource({ uri: "pos://geo/provinces" });
    const real = (await h.client.readResource({ uri: "pos://geo/provinces/501/districts" })).contents[0] as { text: string };
    expect(JSON.parse(real.text).districts.map((d: { id: string }) => d.id)).toEqual(geoData.districts.filter((d) => d.province_id === "501").map((d) => d.id));
    const held = geo!.size;
    const [from, keysFrom] = [h.sandbox.server.requests.length, asked.length];
    for (let i = 0; i < 2000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, k) => {
          const { id, says } = madeUp(i + k);
          expect(await refusal(`pos://geo/provinces/${id}/districts`)).toMatch(says);
        }),
      );
    }
    // The province lists were asked for (to check each id against), never a list under a made-up id.
    expect([...new Set(asked.slice(keysFrom))].sort()).toEqual(["p:new", "p:old"]);
    expect(geo!.size).toEqual(held);
    expect(geoReads(from)).toEqual([]);
    // A post-2025 province says why it has no districts.
    expect(await refusal("pos://geo/provinces/84_VN129/districts")).toMatch(/84_VN129 is a post-2025 province, which has no districts/);
    // Real ids still answer, from the cache.
    const again = (await h.client.readResource({ uri: "pos://geo/provinces/501/districts" })).contents[0] as { text: string };
    expect(again.text).toBe(real.text);
    expect(geoReads(from)).toEqual([]);
  });

  it("resources/read of a district's communes: made-up district ids are refused, nothing cached under them", async () => {
    const real = (await h.client.readResource({ uri: "pos://geo/districts/50103/communes" })).contents[0] as { text: string };
    expect(JSON.parse(real.text).communes.length).toBeGreaterThan(0);
    const held = geo!.size;
    const keysFrom = asked.length;
    for (let i = 0; i < 400; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, k) => {
          const { id, says } = madeUp(i + k);
          expect(await refusal(`pos://geo/districts/${id}/communes`)).toMatch(says);
        }),
      );
    }
    expect(asked.slice(keysFrom).filter((key) => key.includes("9000") || key.length > 40)).toEqual([]);
    expect(asked.slice(keysFrom).every((key) => key === "p:old" || /^d:\d+$/.test(key))).toBe(true);
    expect(geo!.size.entries).toBeLessThanOrEqual(held.entries + h.sandbox.pos.geo.provinces.length);
  });

  it("save_customer's address ids: a made-up province or district is refused by name, nothing read or cached under it", async () => {
    const [from, keysFrom] = [h.sandbox.server.requests.length, asked.length];
    const customer = { name: "Khách Thử", phone_numbers: ["0901234567"] };
    const province = await h.call("save_customer", { ...customer, addresses: [{ address: "1 Lê Lợi", province_id: "97531", district_id: "9753101" }] });
    expect(province.isError).toBe(true);
    expect(province.text).toMatch(/province_id: no province 97531/);
    const district = await h.call("save_customer", { ...customer, addresses: [{ address: "1 Lê Lợi", province_id: "701", district_id: "7019999", commune_id: "701999901" }] });
    expect(district.isError).toBe(true);
    expect(district.text).toMatch(/district_id: no district 7019999 in province 701/);
    const form = await h.call("save_customer", { ...customer, addresses: [{ address: "1 Lê Lợi", province_id: "7 0 1", district_id: "70101" }] });
    expect(form.text).toMatch(/is not a place id/);
    expect(asked.slice(keysFrom).filter((key) => /9753|7019999|7 0 1/.test(key))).toEqual([]);
    expect(geoReads(from).filter((r) => /9753|7019999|7 0 1/.test(JSON.stringify(r.query)))).toEqual([]);
    // Nothing was created with a made-up place.
    expect(h.sandbox.server.requests.slice(from).filter((r) => r.method === "POST")).toEqual([]);
  });

  it("lookup_address still browses real ids and refuses made-up ones", async () => {
    const listed = await h.call("lookup_address", { province_id: "701", district_id: "70101" });
    expect(listed.isError, listed.text).toBe(false);
    expect(listed.data.matches.length).toBeGreaterThan(0);
    const made = await h.call("lookup_address", { province_id: "701", district_id: "7019999" });
    expect(made.isError).toBe(true);
    expect(asked.filter((key) => key.includes("7019999"))).toEqual([]);
  });
});
