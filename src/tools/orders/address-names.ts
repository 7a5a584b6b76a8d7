import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import { geoIndex, matchScore } from "../shop/geo-index.js";
import { matchPlaces } from "../shop/place-match.js";

interface Address {
  address?: string | undefined;
  commune_id?: string | undefined;
  district_id?: string | undefined;
  province_id?: string | undefined;
}

/**
 * An address given in words without ids ("12 Lê Lợi, Bến Nghé, Q1, tp hcm"): its last parts are
 * matched to commune, district and province, the rest kept as the street. Only an address that
 * ends with a province is read this way; one best place fills the ids, several equally good ones
 * are an error listing them, and anything else is left as typed.
 */
export async function addressIds<A extends Address | undefined>(pos: PosClient, field: string, given: A): Promise<A> {
  if (!given?.address || given.commune_id || given.district_id || given.province_id) return given;
  const parts = given.address.split(",").map((s) => s.trim()).filter(Boolean);
  if (parts.length < 2) return given;
  const geo = geoIndex(pos);
  const provinces = await geo.provinces();
  if (!provinces.some((p) => matchScore(parts.at(-1)!, p.name ?? "") >= 2)) return given;
  const places = parts.slice(Math.max(1, parts.length - 3));
  const matches = await matchPlaces(geo, provinces, places);
  const best = matches.filter((m) => m.score === matches[0]?.score);
  const distinct = new Map(best.map((m) => [m.commune?.id ?? m.district?.id ?? m.province.id, m]));
  if (distinct.size > 1) {
    const listed = [...distinct.values()].slice(0, 5).map((m) => m.full_name).join("; ");
    throw new InputError(`${field}.address`, `the place ${JSON.stringify(places.join(", "))} matches ${distinct.size} places: ${listed}`, "Name the ward or district too, or pass commune_id from lookup_address.");
  }
  const [place] = distinct.values();
  if (!place) return given;
  return {
    ...given,
    address: parts.slice(0, parts.length - places.length).join(", "),
    province_id: place.province.id,
    district_id: place.district?.id,
    commune_id: place.commune?.id,
  };
}
