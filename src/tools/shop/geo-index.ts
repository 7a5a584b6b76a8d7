import { InputError } from "../../clients/errors.js";
import { POST_2025_PROVINCE } from "../../clients/openapi/allow-list.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosCommune, PosDistrict, PosProvince } from "../../clients/schemas/pos.js";
import { fold } from "../../text/fold.js";
import { cachePer } from "../../state/ttl-cache.js";

// Ids in the keys come from callers (lookup_address, save_customer, the geo resource templates): a
// cache without bounds would keep whatever they send for a day. All of the country's places, in
// both forms (old three-tier and post-2025 two-tier lists), take under 3 MB of JSON. Bounded, it
// still must not fill with made-up ids (each an upstream read, each pushing a real list out), so
// every id is checked against the list above it before anything is read or cached under it.
const geoCache = cachePer<PosClient>("geo", { ttlMs: 24 * 60 * 60_000, maxEntries: 2000, maxBytes: 8_000_000 });

/** The form of the service's place ids ("101", "10101", "84_VN101"), with room to spare. */
const PLACE_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** A post-2025 province's id (the only kind whose wards are asked without a district, as the contract's amendment allows): a "new" list's other ids are not believed. */
const NEW_PROVINCE = new RegExp(POST_2025_PROVINCE);
const HINT = "Take the ids from lookup_address (or pos://geo/provinces).";

/** `id` when it has a place id's form; else an error naming the form, before any list is read. */
function placeId(field: string, id: string): string {
  if (PLACE_ID.test(id)) return id;
  const shown = id.length > 40 ? `${id.slice(0, 40)}… (${id.length} characters)` : id;
  throw new InputError(field, `${JSON.stringify(shown)} is not a place id: at most 32 letters, digits, _ or -`, HINT);
}

/**
 * Address reference data changes a few times a decade, so it is fetched once per process and
 * day, then matched locally: typed place names become province/district/commune ids.
 */
export class GeoIndex {
  constructor(private readonly pos: PosClient) {}

  private cached<T>(key: string, load: (pos: PosClient) => Promise<T>): Promise<T> {
    return geoCache(this.pos).get(key, load);
  }

  /** The 63 provinces before the reform of 1 July 2025 (each with its new_id), or the 34 after it. */
  provinces(list: "old" | "new" = "old"): Promise<PosProvince[]> {
    if (list === "new") return this.cached("p:new", async (pos) => (await pos.listProvinces({ is_new: true })).filter((p) => NEW_PROVINCE.test(String(p.id))));
    return this.cached("p:old", (pos) => pos.listProvinces({}));
  }

  /** The districts of a pre-2025 province: an id the province list does not hold is refused, nothing read. */
  async districts(provinceId: string): Promise<PosDistrict[]> {
    placeId("province_id", provinceId);
    if (!(await this.provinces()).some((p) => String(p.id) === provinceId)) {
      const isNew = (await this.provinces("new")).some((p) => String(p.id) === provinceId);
      throw new InputError("province_id", isNew ? `${provinceId} is a post-2025 province, which has no districts` : `no province ${provinceId}`, HINT);
    }
    return this.cached(`d:${provinceId}`, (pos) => pos.listDistricts({ province_id: provinceId }));
  }

  /**
   * The wards and communes of a post-2025 province (two tiers, no district). The OpenAPI requires
   * district_id on /geo/communes, and a two-tier province has none to give: a public client
   * replaying production traces (/work/shared/reference/README.md) reports that /geo/communes with
   * the province's new_id and no district_id answers them, with district_id null. So this one
   * request leaves it out, and only for an id of the post-2025 list (the contract allows no other:
   * clients/openapi/allow-list.ts); an old province's communes are asked district by district.
   */
  async wards(newProvinceId: string): Promise<PosCommune[]> {
    placeId("province_id", newProvinceId);
    if (!(await this.provinces("new")).some((p) => String(p.id) === newProvinceId)) {
      throw new InputError("province_id", `${newProvinceId} is not a post-2025 province, whose wards need no district`, "Give the province's new_id, or list its communes by district_id.");
    }
    return this.cached(`w:${newProvinceId}`, (pos) => pos.listCommunes({ province_id: newProvinceId }));
  }

  /**
   * The communes of a district of an old (three-tier) province: never asked without the district,
   * nor for a district the province's list does not hold.
   */
  async communes(provinceId: string, districtId: string): Promise<PosCommune[]> {
    if (!districtId) throw new InputError("district_id", "is required to list communes before the 2025 reform", "Pass the district's id from lookup_address.");
    placeId("district_id", districtId);
    if (!(await this.districts(provinceId)).some((d) => String(d.id) === districtId)) throw new InputError("district_id", `no district ${districtId} in province ${provinceId}`, HINT);
    return this.cached(`c:${provinceId}:${districtId}`, (pos) =>
      pos.listCommunes({ province_id: provinceId, district_id: districtId }),
    );
  }

  /** A district by id: its province is the id without the last two digits (the service's scheme), else searched. */
  async district(districtId: string): Promise<PosDistrict | undefined> {
    placeId("district_id", districtId);
    const guess = districtId.slice(0, -2);
    const provinces = await this.provinces();
    const order = [...provinces].sort((a, b) => Number(String(b.id) === guess) - Number(String(a.id) === guess));
    for (const province of order) {
      const found = (await this.districts(String(province.id))).find((d) => String(d.id) === districtId);
      if (found) return { ...found, province_id: found.province_id ?? province.id };
    }
    return undefined;
  }
}

/** The index as seen by one call: its reads carry that call's signal, its cache is the client's. */
export function geoIndex(pos: PosClient): GeoIndex {
  return new GeoIndex(pos);
}

// Administrative prefixes people type or leave out: "Thành phố", "TP.", "Quận 1" vs "1".
const PREFIX = /^(thanh pho|tinh|tp\.?|quan|huyen|thi xa|thi tran|phuong|xa|dac khu|q\.|p\.|h\.|tx\.?)\s+/;
/** "q1", "Q.3", "p 12", "F4" (phường in speech): a numbered district or ward. */
const NUMBERED = /^(?:q|quan|p|phuong|f)(\d{1,2})$/;
/** Short names people use for provinces, keyed without spaces. */
const ALIASES: Record<string, string> = {
  hcm: "ho chi minh",
  hcmc: "ho chi minh",
  tphcm: "ho chi minh",
  saigon: "ho chi minh",
  sg: "ho chi minh",
  hn: "ha noi",
  tphn: "ha noi",
  hp: "hai phong",
  brvt: "ba ria vung tau",
};

/** Without spaces or hyphens: "hanoi" and "Hà Nội" meet. */
const squash = (key: string) => key.replace(/[\s-]/g, "");

/** A place name reduced for matching: folded diacritics, no administrative prefix. */
export function placeKey(name: string): string {
  const folded = fold(name).replace(/[.,]/g, " ").replace(/\s+/g, " ").trim();
  return folded.replace(PREFIX, "").trim() || folded;
}

/**
 * What a person typed, reduced the same way ("q1" read as "1"), and the province a short name
 * stands for ("hcm"). A stated level keeps the name as typed: "Phường Sài Gòn" is a ward of the
 * city, not the city people also call Sài Gòn.
 */
function typedKeys(typed: string): string[] {
  const key = squash(placeKey(typed));
  const alias = placeLevel(typed) ? undefined : ALIASES[key];
  return [NUMBERED.exec(key)?.[1] ?? key, ...(alias ? [squash(alias)] : [])];
}

/** The level a prefix names ("Quận 1" a district, "P.1" a ward), when it names one. */
export function placeLevel(name: string): "district" | "ward" | undefined {
  const folded = fold(name).replace(/[.,]/g, " ").trim();
  if (/^(quan|huyen|thi xa|q|h|tx)(\s|\d|$)/.test(folded)) return "district";
  if (/^(phuong|xa|thi tran|dac khu|p|f|tt)(\s|\d|$)/.test(folded)) return "ward";
  return undefined;
}

const isCity = (name: string) => /^(thanh pho|tinh|tp)(\s|$)/.test(fold(name).replace(/[.,]/g, " ").trim());

/** 3: same name, 2: one starts with the other, 1: one contains the other, 0: no match. */
export function matchScore(typed: string, name: string): number {
  const b = squash(placeKey(name));
  if (!b) return 0;
  // "Phường 1" is not "Quận 1": a stated level must be the place's level. A ward is never a
  // "Thành phố" (a province, or a city that was a district): "Phường Thủ Dầu Một" is not the old city.
  const [typedLevel, nameLevel] = [placeLevel(typed), placeLevel(name)];
  if (typedLevel && nameLevel && typedLevel !== nameLevel) return 0;
  if ((typedLevel === "ward" && isCity(name)) || (nameLevel === "ward" && isCity(typed))) return 0;
  if (fold(typed) === fold(name)) return 3;
  return Math.max(0, ...typedKeys(typed).map((a) => keyScore(a, b)));
}

function keyScore(a: string, b: string): number {
  if (!a) return 0;
  if (a === b) return 3;
  // A number names one place: "12 Lê Lợi" is not "Quận 1", nor "Q1" "Quận 10".
  if (/^\d+$/.test(a) || /^\d+$/.test(b)) return 0;
  if (b.startsWith(a) || a.startsWith(b)) return 2;
  if (Math.min(a.length, b.length) >= 3 && (b.includes(a) || a.includes(b))) return 1;
  return 0;
}
