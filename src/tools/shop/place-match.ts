import { z } from "zod";
import type { PosCommune, PosDistrict, PosProvince } from "../../clients/schemas/pos.js";
import { sanitizeName } from "../../format/text.js";
import { type GeoIndex, matchScore } from "./geo-index.js";

// Typed place names ("Bến Nghé, Q1, tp hcm") matched to province, district and commune records:
// shared by lookup_address and the order tools that take an address in words.

const place = z.object({ id: z.string(), name: z.string().optional() });

/** old: the three tiers before the reform of 1 July 2025 (province, district, ward); new: province and ward. */
export const addressForm = z.enum(["old", "new"]);
export type AddressForm = z.infer<typeof addressForm>;

export const placeMatchSchema = z.object({
  full_name: z.string(),
  form: addressForm,
  province: place.extend({ new_id: z.string().optional() }),
  district: place.optional(),
  commune: place.extend({ postcode: z.string().optional() }).optional(),
  score: z.number().optional(),
});
export type PlaceMatch = z.infer<typeof placeMatchSchema>;

/** Best first; between equal readings the post-2025 one, the form addresses are written in now. */
export const byScore = (a: PlaceMatch, b: PlaceMatch) => (b.score ?? 0) - (a.score ?? 0) || Number(b.form === "new") - Number(a.form === "new");

/** Every place the parts (commune, district, province; any order) may name, best first. */
export async function matchPlaces(geo: GeoIndex, provinces: PosProvince[], parts: string[], scope?: PosProvince): Promise<PlaceMatch[]> {
  const scored = (scope ? [scope] : provinces).map((p) => ({ p, ...best(parts, p.name ?? "") })).filter((m) => m.score > 0 || scope);
  const topScore = Math.max(0, ...scored.map((m) => m.score));
  // No province named: look for the district in every province (cached after the first time).
  const candidates = scored.length > 0 ? scored.filter((m) => m.score === topScore) : provinces.map((p) => ({ p, score: 0, part: -1 }));

  // A cold cache reads every candidate province's districts at once, not one after another.
  await Promise.all(candidates.map(({ p }) => geo.districts(String(p.id))));
  const matches: PlaceMatch[] = [];
  for (const { p, score, part } of candidates) {
    const rest = parts.filter((_, i) => i !== part);
    if (rest.length === 0) {
      matches.push({ ...placeRow(p), score });
      continue;
    }
    const districts = await geo.districts(String(p.id));
    const hits = districts.map((d) => ({ d, ...best(rest, d.name ?? "") })).filter((m) => m.score > 0);
    if (hits.length === 0 && (score > 0 || scope)) {
      // A named province but no district: the ward alone ("Phường 1, hcm"), in any of its districts.
      const wards = await communesNamed(geo, p, districts, rest);
      matches.push(...(wards.length ? wards.map((w) => ({ ...w, score: score + (w.score ?? 0) })) : [{ ...placeRow(p), score }]));
    }
    const dTop = Math.max(0, ...hits.map((h) => h.score));
    const top = hits.filter((h) => h.score === dTop);
    await Promise.all(top.map((hit) => geo.communes(String(p.id), String(hit.d.id))));
    for (const hit of top) {
      const left = rest.filter((_, i) => i !== hit.part);
      if (left.length === 0) {
        matches.push({ ...placeRow(p, hit.d), score: score + hit.score });
        continue;
      }
      const communes = await geo.communes(String(p.id), String(hit.d.id));
      const cHits = communes.map((c) => ({ c, ...best(left, c.name ?? "") })).filter((m) => m.score > 0);
      if (cHits.length === 0) matches.push({ ...placeRow(p, hit.d), score: score + hit.score });
      for (const c of cHits) matches.push({ ...placeRow(p, hit.d, c.c), score: score + hit.score + c.score });
    }
  }
  return matches.sort(byScore);
}

/**
 * Every post-2025 place the parts (ward, province; any order) may name, best first: the province
 * by its own name or by an old one merged into it ("Bình Dương" is part of TP HCM now), then the
 * province's best-matching wards. No province named: the wards of every province (cached).
 */
export async function matchWards(geo: GeoIndex, parts: string[], scope?: PosProvince): Promise<PlaceMatch[]> {
  const [fresh, old] = await Promise.all([geo.provinces("new"), geo.provinces("old")]);
  const named = (p: PosProvince) =>
    [p, ...old.filter((o) => o.new_id != null && String(o.new_id) === String(p.id))]
      .map((q) => best(parts, q.name ?? ""))
      .reduce((a, b) => (b.score > a.score ? b : a));
  const scored = (scope ? [scope] : fresh).map((p) => ({ p, ...named(p) })).filter((m) => m.score > 0 || scope);
  const topScore = Math.max(0, ...scored.map((m) => m.score));
  const candidates = scored.length > 0 ? scored.filter((m) => m.score === topScore) : fresh.map((p) => ({ p, score: 0, part: -1 }));
  const lists = await Promise.all(candidates.map(({ p }) => geo.wards(String(p.id))));
  const matches = candidates.flatMap(({ p, score, part }, i) => {
    const rest = parts.filter((_, j) => j !== part);
    if (rest.length === 0) return [{ ...wardRow(p), score }];
    const hits = lists[i]!.map((w) => ({ w, ...best(rest, w.name ?? "") })).filter((h) => h.score > 0);
    const top = Math.max(0, ...hits.map((h) => h.score));
    return hits.filter((h) => h.score === top).map((h) => ({ ...wardRow(p, h.w), score: score + h.score }));
  });
  return matches.sort(byScore);
}

/** The communes of a province that the parts name, the best-scored only. */
async function communesNamed(geo: GeoIndex, p: PosProvince, districts: PosDistrict[], parts: string[]): Promise<PlaceMatch[]> {
  const found: PlaceMatch[] = [];
  const lists = await Promise.all(districts.map((d) => geo.communes(String(p.id), String(d.id))));
  for (const [i, d] of districts.entries()) {
    for (const c of lists[i]!) {
      const { score } = best(parts, c.name ?? "");
      if (score > 0) found.push({ ...placeRow(p, d, c), score });
    }
  }
  const top = Math.max(0, ...found.map((m) => m.score ?? 0));
  return found.filter((m) => m.score === top);
}

/**
 * The best-matching part of the typed query for a name, and its index; the later part on a tie,
 * as people write the province last ("Sài Gòn, hcm": the ward, then the city).
 */
function best(parts: string[], name: string): { score: number; part: number } {
  let result = { score: 0, part: -1 };
  parts.forEach((typed, i) => {
    const score = matchScore(typed, name);
    if (score > 0 && score >= result.score) result = { score, part: i };
  });
  return result;
}

export function placeRow(
  province: PosProvince,
  district?: PosDistrict,
  commune?: { id: string | number; name?: string | null; postcode?: string | number | null },
): PlaceMatch {
  const names = [commune?.name, district?.name, province.name].map((n) => sanitizeName(n)).filter(Boolean);
  return {
    full_name: names.join(", "),
    form: "old",
    province: { id: String(province.id), name: sanitizeName(province.name), new_id: province.new_id ? String(province.new_id) : undefined },
    district: district ? { id: String(district.id), name: sanitizeName(district.name) } : undefined,
    commune: commune
      ? { id: String(commune.id), name: sanitizeName(commune.name), postcode: commune.postcode ? String(commune.postcode) : undefined }
      : undefined,
  };
}

/** A post-2025 province, and one of its wards when given: two tiers, no district. */
export function wardRow(province: PosProvince, ward?: PosCommune): PlaceMatch {
  return { ...placeRow(province, undefined, ward), form: "new" };
}
