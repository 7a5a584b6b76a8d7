import { z } from "zod";
import type { PosCommune, PosDistrict, PosProvince } from "../../clients/schemas/pos.js";
import { sanitizeName } from "../../text/sanitize.js";
import { type GeoIndex, matchScore, placeLevel } from "./geo-index.js";

// Typed place names ("Bến Nghé, Q1, tp hcm") matched to province, district and commune records:
// shared by lookup_address and the order tools that take an address in words.

const place = z.object({ id: z.string(), name: z.string().optional() });

/** old: the three tiers before the reform of 1 July 2025 (province, district, ward); new: province and ward. */
export const addressForm = z.enum(["old", "new"]);

export const placeMatchSchema = z.object({
  full_name: z.string(),
  form: addressForm,
  province: place.extend({ new_id: z.string().optional() }),
  district: place.optional(),
  commune: place.extend({ postcode: z.string().optional() }).optional(),
  score: z.number().optional(),
});
export type PlaceMatch = z.infer<typeof placeMatchSchema>;

/**
 * An old district named alone first, then the post-2025 form (the one addresses are written in
 * now), then the other old readings: "Bình Thạnh" without "Quận" is as likely the old district,
 * several wards since July 2025, as the new ward of its name, and the broader reading is the
 * safer first.
 */
const rank = (m: PlaceMatch) => (m.form === "old" && m.district && !m.commune ? 0 : m.form === "new" ? 1 : 2);

/** Best first; between equal readings, by rank. */
const byScore = (a: PlaceMatch, b: PlaceMatch) => (b.score ?? 0) - (a.score ?? 0) || rank(a) - rank(b);

interface MatchOptions {
  /** old: three-tier places only, new: two-tier only; default both. */
  list?: "old" | "new" | "all";
  /** The province (of the list asked for) the places are in. */
  scope?: PosProvince;
  /** The one part that may name the province (an address's last); else any part may. */
  provincePart?: number;
}

/**
 * Every place the parts (ward or commune, district, province; any order) may name, in the forms
 * asked for, best first: lookup_address's answer, and what the order tools place an address in
 * words by, so both place a text alike. A post-2025 province is named by its own name or by an
 * old one merged into it ("Thủ Dầu Một, Bình Dương" finds the new ward in TP HCM). An old
 * province is named by its own name; by the post-2025 province it merged into only when nothing
 * was found below a province otherwise ("phường Phú Cường, TP HCM": an old ward under today's
 * name), so the other provinces' lists are read only then. A province named only so is no answer
 * by itself, and a post-2025 province alone is left out where an old one that merged into it
 * matched as well: that row already gives its new_id.
 */
export async function matchAddress(geo: GeoIndex, parts: string[], options: MatchOptions = {}): Promise<PlaceMatch[]> {
  const list = options.list ?? "all";
  const [old, fresh] = await Promise.all([geo.provinces("old"), geo.provinces("new")]);
  const sameId = (a: unknown, b: unknown) => a != null && String(a) === String(b);
  const byOwn = provincesNamed(old, (p) => [p.name], parts, options);
  const [first, two] = await Promise.all([
    list === "new" ? [] : matchPlaces(geo, byOwn, parts),
    list === "old" ? [] : matchWards(geo, provincesNamed(fresh, (p) => [p.name, ...old.filter((o) => sameId(o.new_id, p.id)).map((o) => o.name)], parts, options), parts),
  ]);
  const below = (m: PlaceMatch) => m.district || m.commune;
  const looked = new Set(byOwn.filter((c) => c.named).map((c) => c.p));
  const underNewName = () =>
    provincesNamed(
      old.filter((p) => !looked.has(p)),
      (p) => [undefined, ...fresh.filter((n) => sameId(n.id, p.new_id)).map((n) => n.name)],
      parts,
      options,
    ).filter((c) => c.named);
  const three = list === "new" || options.scope || [...first, ...two].some(below) ? first : [...first, ...(await matchPlaces(geo, underNewName(), parts))];
  const covered = (m: PlaceMatch) => !m.commune && three.some((o) => o.province.new_id === m.province.id && (o.score ?? 0) >= (m.score ?? 0));
  return [...three, ...two.filter((m) => !covered(m))].sort(byScore);
}

/** A province the parts may be in: the part naming it (-1: none), whether by its own name, whether named at all. */
interface Named {
  p: PosProvince;
  score: number;
  part: number;
  own: boolean;
  named: boolean;
}

/**
 * The provinces the parts name best, by any of `names` (its own first); with `scope` that one
 * province, named or not. No part naming one: every province, unnamed (a district or ward is
 * looked for in all), unless `provincePart` had to name it.
 */
function provincesNamed(provinces: PosProvince[], names: (p: PosProvince) => (string | null | undefined)[], parts: string[], options: MatchOptions): Named[] {
  const { scope, provincePart } = options;
  const scored = (scope ? [scope] : provinces)
    .map((p) => {
      const [own, ...others] = names(p).map((n) => best(parts, n ?? "", provincePart));
      const other = others.reduce((a, b) => (b.score > a.score ? b : a), { score: 0, part: -1 });
      return other.score > own!.score ? { p, ...other, own: false, named: true } : { p, ...own!, own: true, named: own!.score > 0 || !!scope };
    })
    .filter((m) => m.named);
  const top = Math.max(0, ...scored.map((m) => m.score));
  if (scored.length > 0) return scored.filter((m) => m.score === top);
  return provincePart === undefined ? provinces.map((p) => ({ p, score: 0, part: -1, own: true, named: false })) : [];
}

/** The old (three-tier) places the parts name in the candidate provinces. */
async function matchPlaces(geo: GeoIndex, candidates: Named[], parts: string[]): Promise<PlaceMatch[]> {
  const restOf = (part: number) => parts.filter((_, i) => i !== part);
  // No province named, only a district is looked for (in every province): a part with a ward's
  // prefix names none, and reading every province's districts would find nothing.
  if (!candidates.some((c) => c.named) && parts.every((part) => placeLevel(part) === "ward")) return [];
  // A cold cache reads every candidate province's districts at once, not one after another.
  await Promise.all(candidates.filter((c) => restOf(c.part).length > 0).map(({ p }) => geo.districts(String(p.id))));
  const matches: PlaceMatch[] = [];
  for (const { p, score, part, own, named } of candidates) {
    const rest = restOf(part);
    if (rest.length === 0) {
      if (own) matches.push({ ...placeRow(p), score });
      continue;
    }
    const districts = await geo.districts(String(p.id));
    const hits = districts.map((d) => ({ d, ...best(rest, d.name ?? "") })).filter((m) => m.score > 0);
    if (hits.length === 0 && named) {
      // A named province but no district: the ward alone ("Phường 1, hcm"), in any of its districts.
      const wards = await communesNamed(geo, p, districts, rest);
      matches.push(...(wards.length ? wards.map((w) => ({ ...w, score: score + (w.score ?? 0) })) : own ? [{ ...placeRow(p), score }] : []));
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
  return matches;
}

/** The post-2025 (two-tier) places the parts name in the candidate provinces: each one's best-matching wards. */
async function matchWards(geo: GeoIndex, candidates: Named[], parts: string[]): Promise<PlaceMatch[]> {
  const restOf = (part: number) => parts.filter((_, i) => i !== part);
  const lists = await Promise.all(candidates.map(({ p, part }) => (restOf(part).length ? geo.wards(String(p.id)) : [])));
  return candidates.flatMap(({ p, score, part, own }, i) => {
    const rest = restOf(part);
    if (rest.length === 0) return own ? [{ ...wardRow(p), score }] : [];
    const hits = lists[i]!.map((w) => ({ w, ...best(rest, w.name ?? "") })).filter((h) => h.score > 0);
    const top = Math.max(0, ...hits.map((h) => h.score));
    return hits.filter((h) => h.score === top).map((h) => ({ ...wardRow(p, h.w), score: score + h.score }));
  });
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
 * The best-matching part of the typed query for a name (of part `only`, if given), and its index; the later part on a tie,
 * as people write the province last ("Sài Gòn, hcm": the ward, then the city).
 */
function best(parts: string[], name: string, only?: number): { score: number; part: number } {
  let result = { score: 0, part: -1 };
  parts.forEach((typed, i) => {
    if (only !== undefined && i !== only) return;
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
