import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosProvince } from "../../clients/schemas/pos.js";
import { sanitizeName } from "../../format/text.js";
import { type GeoIndex, geoIndex, matchScore } from "../shop/geo-index.js";
import { addressForm, byScore, matchPlaces, matchWards, type PlaceMatch, placeRow, wardRow } from "../shop/place-match.js";

interface Address {
  address?: string | undefined;
  commune_id?: string | undefined;
  district_id?: string | undefined;
  province_id?: string | undefined;
}

/**
 * What was read from an address in words, for the result: `matched` the places found (as the
 * address data names them), `form` the tiers they were placed in, `unmatched` typed parts no place
 * matched (kept in the street text, never dropped), `note` set when no ward matched and the text
 * went as typed.
 */
export const addressMatchSchema = z.object({
  matched: z.string().optional(),
  form: addressForm.optional(),
  unmatched: z.array(z.string()).optional(),
  note: z.string().optional(),
});
export type AddressMatch = z.infer<typeof addressMatchSchema>;

/**
 * The fields a two-tier address adds to an order's shipping_address, named as the vendor's order
 * records name them (render_type, new_province_id, new_full_address beside the old fields; see the
 * order examples in pos-openapi.yaml). The write form is inferred, not documented: province_id
 * also carries the new id, because the POS parses the street text itself when province_id is
 * empty (OpenAPI, ShippingAddress.address), and district_id is sent as null so an update does not
 * keep the old district beside the new ward.
 */
export interface NewForm {
  render_type: "new";
  new_province_id: string;
  new_full_address: string;
  district_id: null;
}

export interface Placed<A> {
  address: A;
  match?: AddressMatch;
  /** Set when the address is placed in the post-2025 tiers. */
  newForm?: NewForm;
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

/** The post-2025 provinces the old ones in scope merged into (or the typed name fits), scored alike. */
function newProvincesNamed(typed: string, scope: { p: PosProvince; score: number }[], merged: PosProvince[]) {
  return merged
    .map((n) => ({ p: n, score: Math.max(matchScore(typed, n.name ?? ""), ...scope.filter((s) => String(s.p.new_id) === String(n.id)).map((s) => s.score)) }))
    .filter((s) => s.score >= 2);
}

/**
 * An address given in words without ids: its last part names the province (old or post-2025
 * name), up to two parts before it the ward and district ("12 Lê Lợi, Bến Nghé, Q1, tp hcm") or
 * the ward alone ("12 Lê Lợi, Phường Sài Gòn, TP HCM"). Both readings are scored; the better one
 * wins, the two-tier one when they tie (no district was written). One best ward fills the ids;
 * several equally good wards are an error listing them. Words that match no place stay in the
 * street text. Without a ward the address goes as typed (the POS parses free text when
 * province_id is empty, per its OpenAPI), and `match` says what was found.
 *
 * Ids given are sent as given; a post-2025 province id (lookup_address) makes them a two-tier
 * address, its ward checked and named.
 */
export async function addressIds<A extends Address | undefined>(pos: PosClient, field: string, given: A): Promise<Placed<A>> {
  if (!given) return { address: given };
  if (given.commune_id || given.district_id || given.province_id) return placedByIds(geoIndex(pos), field, given);
  if (!given.address) return { address: given };
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
  const threeTier = scope.map(async ({ p, score }) =>
    (places.length ? await matchPlaces(geo, [p], places, p) : [placeRow(p)]).map((m) => ({ ...m, score: (m.score ?? 0) + score })),
  );
  const twoTier = (places.length ? newProvincesNamed(parts.at(-1)!, scope, merged) : []).map(async ({ p, score }) =>
    (await matchWards(geo, places, p)).map((m) => ({ ...m, score: (m.score ?? 0) + score })),
  );
  const matches = (await Promise.all([...threeTier, ...twoTier])).flat().sort(byScore);
  // Equal scores in both forms: the first (two-tier, by byScore) form's places only.
  const best = matches.filter((m) => m.score === matches[0]?.score && m.form === matches[0]?.form);
  const distinct = [...new Map<string, PlaceMatch>(best.map((m) => [m.commune?.id ?? m.district?.id ?? m.province.id, m])).values()];
  const only = distinct.length === 1 ? distinct[0] : undefined;
  const named = [only?.commune?.name, only?.district?.name].filter((n): n is string => !!n);
  const unmatched = places.filter((part) => !named.some((n) => matchScore(part, n) > 0));
  const found = { matched: only?.district || only?.commune ? only.full_name : label, ...(unmatched.length ? { unmatched } : {}) };
  if (best.some((m) => !m.commune)) return { address: given, match: { ...found, note: AS_TYPED } };
  if (!only) {
    const listed = distinct.slice(0, 5).map((m) => m.full_name).join("; ");
    throw new InputError(`${field}.address`, `the place ${JSON.stringify(parts.slice(street.length).join(", "))} matches ${distinct.length} places: ${listed}`, "Name the ward or district too, or pass commune_id from lookup_address.");
  }
  const text = [...street, ...unmatched].join(", ");
  const address = { ...given, address: text, province_id: only.province.id, district_id: only.district?.id, commune_id: only.commune!.id };
  return only.form === "new"
    ? { address, match: { ...found, form: "new" }, newForm: newForm(only, text) }
    : { address, match: { ...found, form: "old" } };
}

/** Ids as given, unless the province is a post-2025 one: then a two-tier address, its ward checked. */
async function placedByIds<A extends Address>(geo: GeoIndex, field: string, given: A): Promise<Placed<A>> {
  if (!given.province_id) return { address: given };
  const province = (await geo.provinces("new")).find((p) => String(p.id) === given.province_id);
  if (!province) return { address: given };
  if (given.district_id) throw new InputError(`${field}.district_id`, `province ${given.province_id} is a post-2025 province, which has no districts`, "Leave district_id out; commune_id is the ward's id from lookup_address.");
  const wards = await geo.wards(given.province_id);
  const ward = given.commune_id === undefined ? undefined : wards.find((w) => String(w.id) === given.commune_id);
  if (given.commune_id !== undefined && !ward) {
    throw new InputError(`${field}.commune_id`, `no ward ${given.commune_id} in ${sanitizeName(province.name) ?? given.province_id}`, "Pass a ward id lookup_address gives for this province_id, or the ward's name in address.");
  }
  const place = wardRow(province, ward);
  return { address: given, match: { matched: place.full_name, form: "new" }, newForm: newForm(place, given.address ?? "") };
}

function newForm(place: PlaceMatch, street: string): NewForm {
  return {
    render_type: "new",
    new_province_id: place.province.id,
    new_full_address: [street, place.full_name].filter(Boolean).join(", "),
    district_id: null,
  };
}

/** The address as it will be saved, for a confirmation: the street with the places matched, else as typed. */
export function addressText(placed: Placed<Address | undefined>): string | undefined {
  const { address, match, newForm } = placed;
  if (newForm) return newForm.new_full_address;
  if (!address?.address) return undefined;
  return address.commune_id && match?.matched ? `${address.address}, ${match.matched}` : address.address;
}
