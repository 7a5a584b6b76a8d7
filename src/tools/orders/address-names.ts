import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import { sanitizeName } from "../../text/sanitize.js";
import { type GeoIndex, geoIndex, matchScore } from "../shop/geo-index.js";
import { addressForm, matchAddress, type PlaceMatch, wardRow } from "../shop/place-match.js";

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
 * The fields of the form an address is written in, on an order's shipping_address, named as the
 * vendor's order records name them (render_type, new_province_id, new_full_address beside the old
 * fields; see the order examples in pos-openapi.yaml). The write form is inferred, not documented.
 * Two-tier: province_id also carries the new id, because the POS parses the street text itself
 * when province_id is empty (OpenAPI, ShippingAddress.address), and district_id is sent as null
 * so an update does not keep the old district beside the new ward. Three-tier: render_type old
 * and the province's new id, so an address moved back from the new form does not keep the form
 * and text it had; new_full_address as the example gives it for the old form ("123, Hà Nội": the
 * street and the province).
 */
type AddressForm =
  | { render_type: "new"; new_province_id: string; new_full_address: string; district_id: null }
  | { render_type: "old"; new_province_id?: string; new_full_address: string };

export interface Placed<A> {
  address: A;
  match?: AddressMatch;
  /** Set when the address is placed in one form or the other. */
  form?: AddressForm;
}

/** Why an address went as typed: nothing matched its province, or nothing below it matched a ward. */
const asTyped = (what: "province" | "ward") =>
  `No ${what} matched here, so the address was sent as typed for the POS to place (it parses free text): check it with get_order, or pass commune_id from lookup_address.`;

/** An old district and a post-2025 ward that the same words name equally well ("Bình Thạnh, TP HCM"). */
function districtOrWard(matches: PlaceMatch[]): [PlaceMatch, PlaceMatch] | undefined {
  const top = matches.filter((m) => m.score === matches[0]?.score);
  const district = top.find((m) => m.form === "old" && m.district && !m.commune);
  const ward = top.find((m) => m.form === "new" && m.commune);
  return district && ward ? [district, ward] : undefined;
}

/**
 * An address given in words without ids: its last part names the province (old or post-2025
 * name), up to two parts before it the ward and district ("12 Lê Lợi, Bến Nghé, Q1, tp hcm") or
 * the ward alone ("12 Lê Lợi, Phường Sài Gòn, TP HCM"), placed as lookup_address places them
 * (place-match.ts). The better reading wins; on a tie the two-tier one, except against an old
 * district written without "Quận": that became several wards, so the address goes as typed and
 * the note names both readings. One best ward fills the ids; several equally good wards are an
 * error listing them. Words that match no place stay in the street text. Without a ward the
 * address goes as typed (the POS parses free text when province_id is empty, per its OpenAPI),
 * and `match` says what was found.
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
  const typedOnly = { address: given, match: { unmatched: parts.slice(1), note: asTyped("province") } };
  if (parts.length < 2) return { ...typedOnly, match: { note: asTyped("province") } };
  const geo = geoIndex(pos);
  const last = parts.at(-1)!;
  const [old, fresh] = await Promise.all([geo.provinces("old"), geo.provinces("new")]);
  // A last part that names no province (of either list) leaves nothing to place by, and nothing is read.
  const named = [...old, ...fresh].filter((p) => matchScore(last, p.name ?? "") >= 2);
  if (named.length === 0) return typedOnly;
  const street = parts.slice(0, Math.max(1, parts.length - 3));
  const places = parts.slice(street.length, -1);
  const matches = await matchAddress(geo, [...places, last], { provincePart: places.length });
  const both = districtOrWard(matches);
  if (both) {
    const words = JSON.stringify(places.join(", "));
    return {
      address: given,
      match: {
        note: `${words} names both ${both[0].full_name} (a district before July 2025, several wards since) and ${both[1].full_name}, so the address was sent as typed for the POS to place: name the ward with its district, write "Phường …" for the new ward, or pass commune_id from lookup_address.`,
      },
    };
  }
  // Equal scores in both forms: the first (by byScore) form's places only.
  const best = matches.filter((m) => m.score === matches[0]?.score && m.form === matches[0]?.form);
  const distinct = [...new Map<string, PlaceMatch>(best.map((m) => [m.commune?.id ?? m.district?.id ?? m.province.id, m])).values()];
  const only = distinct.length === 1 ? distinct[0] : undefined;
  const wardNames = [only?.commune?.name, only?.district?.name].filter((n): n is string => !!n);
  const unmatched = places.filter((part) => !wardNames.some((n) => matchScore(part, n) > 0));
  const label = only?.district || only?.commune ? only.full_name : (sanitizeName(named[0]!.name) ?? last);
  const found = { matched: label, ...(unmatched.length ? { unmatched } : {}) };
  if (best.length === 0 || best.some((m) => !m.commune)) return { address: given, match: { ...found, note: asTyped("ward") } };
  if (!only) {
    const listed = distinct.slice(0, 5).map((m) => m.full_name).join("; ");
    throw new InputError(`${field}.address`, `the place ${JSON.stringify(parts.slice(street.length).join(", "))} matches ${distinct.length} places: ${listed}`, "Name the ward or district too, or pass commune_id from lookup_address.");
  }
  const text = [...street, ...unmatched].join(", ");
  const address = { ...given, address: text, province_id: only.province.id, district_id: only.district?.id, commune_id: only.commune!.id };
  return { address, match: { ...found, form: only.form }, form: formOf(only, text) };
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
  return { address: given, match: { matched: place.full_name, form: "new" }, form: formOf(place, given.address ?? "") };
}

function formOf(place: PlaceMatch, street: string): AddressForm {
  if (place.form === "old") {
    return { render_type: "old", new_province_id: place.province.new_id, new_full_address: [street, place.province.name].filter(Boolean).join(", ") };
  }
  return {
    render_type: "new",
    new_province_id: place.province.id,
    new_full_address: [street, place.full_name].filter(Boolean).join(", "),
    district_id: null,
  };
}

/** The address as it will be saved, for a confirmation: the street with the places matched, else as typed. */
export function addressText(placed: Placed<Address | undefined>): string | undefined {
  const { address, match, form } = placed;
  if (form?.render_type === "new") return form.new_full_address;
  if (!address?.address) return undefined;
  return address.commune_id && match?.matched ? `${address.address}, ${match.matched}` : address.address;
}
