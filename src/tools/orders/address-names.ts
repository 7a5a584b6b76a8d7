import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosProvince } from "../../clients/schemas/pos.js";
import { geoIndex, matchScore } from "../shop/geo-index.js";
import { matchPlaces, type PlaceMatch, placeRow } from "../shop/place-match.js";

interface Address {
  address?: string | undefined;
  commune_id?: string | undefined;
  district_id?: string | undefined;
  province_id?: string | undefined;
}

/**
 * What was read from an address in words, for the result: `matched` the places found (as the
 * address data names them), `unmatched` typed parts no place matched (kept in the street text,
 * never dropped), `note` set when no ward matched and the text went as typed.
 */
export const addressMatchSchema = z.object({ matched: z.string().optional(), unmatched: z.array(z.string()).optional(), note: z.string().optional() });
export type AddressMatch = z.infer<typeof addressMatchSchema>;

export interface Placed<A> {
  address: A;
  match?: AddressMatch;
}

const AS_TYPED =
  "No province or ward matched here, so the address was sent as typed for the POS to place (it parses free text): check it with get_order, or pass commune_id from lookup_address.";

/**
 * The old provinces an address's last part names: by their own name, or by the post-2025 province
 * they merged into ("TP HCM" today also covers old Bình Dương and Bà Rịa-Vũng Tàu), each scored;
 * `label` names the province as typed (the old name when one fits, else the new one).
 */
function provincesNamed(typed: string, old: PosProvince[], merged: PosProvince[]) {
  const fits = (p: PosProvince) => matchScore(typed, p.name ?? "") >= 2;
  const mergedInto = merged.filter(fits);
  const scope = old
    .map((p) => ({ p, score: Math.max(matchScore(typed, p.name ?? ""), ...mergedInto.filter((n) => String(n.id) === String(p.new_id)).map((n) => matchScore(typed, n.name ?? ""))) }))
    .filter((s) => s.score >= 2);
  const label = old.find(fits)?.name ?? mergedInto[0]?.name ?? typed;
  return { scope, label };
}

/**
 * An address given in words without ids ("12 Lê Lợi, Bến Nghé, Q1, tp hcm"): its last part names
 * the province (old or post-2025 name), up to two parts before it the ward and district. One best
 * ward fills the ids; several equally good wards are an error listing them. Words that match no
 * place stay in the street text. Without a ward the address goes as typed (the POS parses free
 * text when province_id is empty, per its OpenAPI), and `match` says what was found.
 */
export async function addressIds<A extends Address | undefined>(pos: PosClient, field: string, given: A): Promise<Placed<A>> {
  if (!given?.address || given.commune_id || given.district_id || given.province_id) return { address: given };
  const parts = given.address.split(",").map((s) => s.trim()).filter(Boolean);
  // Nothing to place it by: it goes as typed, and the result says so (a silent pass read as placed).
  const typedOnly = { address: given, match: { unmatched: parts.slice(1), note: AS_TYPED } };
  if (parts.length < 2) return { ...typedOnly, match: { note: AS_TYPED } };
  const geo = geoIndex(pos);
  const [old, merged] = await Promise.all([geo.provinces("old"), geo.provinces("new")]);
  const { scope, label } = provincesNamed(parts.at(-1)!, old, merged);
  if (scope.length === 0) return typedOnly;
  const street = parts.slice(0, Math.max(1, parts.length - 3));
  const places = parts.slice(street.length, -1);
  const scored = await Promise.all(
    scope.map(async ({ p, score }) =>
      (places.length ? await matchPlaces(geo, [p], places, p) : [placeRow(p)]).map((m) => ({ ...m, score: (m.score ?? 0) + score })),
    ),
  );
  const matches = scored.flat().sort((a, b) => b.score - a.score);
  const best = matches.filter((m) => m.score === matches[0]?.score);
  const distinct = [...new Map<string, PlaceMatch>(best.map((m) => [m.commune?.id ?? m.district?.id ?? m.province.id, m])).values()];
  const only = distinct.length === 1 ? distinct[0] : undefined;
  const named = [only?.commune?.name, only?.district?.name].filter((n): n is string => !!n);
  const unmatched = places.filter((part) => !named.some((n) => matchScore(part, n) > 0));
  const found = { matched: only?.district ? only.full_name : label, ...(unmatched.length ? { unmatched } : {}) };
  if (best.some((m) => !m.commune)) return { address: given, match: { ...found, note: AS_TYPED } };
  if (!only) {
    const listed = distinct.slice(0, 5).map((m) => m.full_name).join("; ");
    throw new InputError(`${field}.address`, `the place ${JSON.stringify(parts.slice(street.length).join(", "))} matches ${distinct.length} places: ${listed}`, "Name the ward or district too, or pass commune_id from lookup_address.");
  }
  return {
    address: {
      ...given,
      address: [...street, ...unmatched].join(", "),
      province_id: only.province.id,
      district_id: only.district?.id,
      commune_id: only.commune!.id,
    },
    match: found,
  };
}

/** The address as it will be saved, for a confirmation: the street with the places matched, else as typed. */
export function addressText(placed: Placed<Address | undefined>): string | undefined {
  const { address, match } = placed;
  if (!address?.address) return undefined;
  return address.commune_id && match?.matched ? `${address.address}, ${match.matched}` : address.address;
}
