import { NotFoundError } from "../clients/errors.js";
import { POS_STATUS_TABLES, type PosStatusTable } from "../clients/pos-codes.js";
import { fold } from "../text/fold.js";
import { sanitizeName } from "../text/sanitize.js";
import { geoIndex } from "../tools/shop/geo-index.js";
import { shopRow } from "../tools/shop/list-shops.js";
import { cachedShops } from "../tools/pos/resolve-shop.js";
import { defineResource, type ResourceContext, type ResourceDefinition } from "./define.js";
import { settleAll } from "../tools/settle.js";

const MAX_COMPLETIONS = 50;

type Place = { id: string | number; name?: string | null };
const place = (p: Place & { name_en?: string | null }) => ({ id: String(p.id), name: sanitizeName(p.name), name_en: p.name_en ?? undefined });

/** Ids of the places whose id or name starts with (or whose name contains) what was typed. */
function completeIds(places: Place[], typed: string): string[] {
  const key = fold(typed);
  const hits = places.filter((p) => {
    const name = fold(p.name ?? "");
    return String(p.id).startsWith(typed.trim()) || name.startsWith(key) || (key.length >= 2 && name.includes(key));
  });
  return hits.slice(0, MAX_COMPLETIONS).map((p) => String(p.id));
}

async function allDistricts(ctx: ResourceContext) {
  const geo = geoIndex(ctx.pos);
  const provinces = await geo.provinces();
  return (await settleAll(provinces.map((p) => geo.districts(String(p.id))))).flat();
}

const TABLES = Object.keys(POS_STATUS_TABLES) as PosStatusTable[];

export const posResources: ResourceDefinition[] = [
  defineResource({
    name: "pos_shops",
    title: "POS shops",
    description: "The shops the POS api key reaches, with their linked pages.",
    uri: "pos://shops",
    async read(_params, ctx) {
      return { shops: (await cachedShops(ctx.pos)).map(shopRow) };
    },
  }),
  defineResource({
    name: "pos_provinces",
    title: "Provinces",
    description: "Vietnamese provinces: the pre-2025 list (with districts) and the post-2025 list.",
    uri: "pos://geo/provinces",
    async read(_params, ctx) {
      const geo = geoIndex(ctx.pos);
      const [old, current] = await settleAll([geo.provinces("old"), geo.provinces("new")]);
      return {
        provinces: old.map((p) => ({ ...place(p), new_id: p.new_id ?? undefined })),
        new_provinces: current.map(place),
      };
    },
  }),
  defineResource({
    name: "pos_districts",
    title: "Districts of a province",
    description: "The districts of a province (pre-2025 list).",
    uri: "pos://geo/provinces/{province_id}/districts",
    complete: {
      province_id: async (typed, ctx) => completeIds(await geoIndex(ctx.pos).provinces(), typed),
    },
    async read(params, ctx) {
      const provinceId = params.province_id ?? "";
      // The tools' path: an id of the wrong form or not in the province list is refused, nothing cached.
      const districts = await geoIndex(ctx.pos).districts(provinceId);
      return { province_id: provinceId, districts: districts.map(place) };
    },
  }),
  defineResource({
    name: "pos_communes",
    title: "Communes of a district",
    description: "The communes (wards) of a district, with postcodes.",
    uri: "pos://geo/districts/{district_id}/communes",
    complete: {
      district_id: async (typed, ctx) => completeIds(await allDistricts(ctx), typed),
    },
    async read(params, ctx) {
      const geo = geoIndex(ctx.pos);
      const districtId = params.district_id ?? "";
      const district = await geo.district(districtId);
      if (!district) throw new NotFoundError(`no district ${districtId}`, "Read pos://geo/provinces/{province_id}/districts for the ids.");
      const communes = await geo.communes(String(district.province_id), districtId);
      return {
        district_id: districtId,
        province_id: String(district.province_id),
        communes: communes.map((c) => ({ ...place(c), new_id: c.new_id ?? undefined, postcode: c.postcode == null ? undefined : String(c.postcode) })),
      };
    },
  }),
  defineResource({
    name: "pos_status_codes",
    title: "POS status codes",
    description: `Status codes with names and meanings; tables: ${TABLES.join(", ")}.`,
    uri: "pos://status-codes/{table}",
    complete: {
      table: async (typed) => TABLES.filter((t) => t.startsWith(typed.trim().toLowerCase())),
    },
    list: async () => TABLES.map((t) => ({ uri: `pos://status-codes/${t}`, name: `status codes: ${t}` })),
    async read(params) {
      const table = params.table as PosStatusTable;
      // Own keys only: "__proto__" or "constructor" must not read the object's prototype.
      const rows = Object.hasOwn(POS_STATUS_TABLES, table) ? POS_STATUS_TABLES[table] : undefined;
      if (!rows) throw new NotFoundError(`no status table ${JSON.stringify(params.table)}`, `Use one of: ${TABLES.join(", ")}.`);
      return { table, codes: rows };
    },
  }),
];
