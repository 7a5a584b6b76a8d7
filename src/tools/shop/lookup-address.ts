import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosDistrict, PosProvince } from "../../clients/schemas/pos.js";
import { sanitizeName } from "../../format/text.js";
import { defineTool, READ } from "../define.js";
import { idInput, limitInput } from "../inputs.js";
import { geoIndex, matchScore, type ProvinceList } from "./geo-index.js";

const place = z.object({ id: z.string(), name: z.string().optional() });

const output = z.object({
  matches: z
    .array(
      z.object({
        full_name: z.string(),
        province: place.extend({ new_id: z.string().optional() }),
        district: place.optional(),
        commune: place.extend({ postcode: z.string().optional() }).optional(),
        score: z.number().optional(),
      }),
    )
    .describe("Best first"),
  province_list: z.enum(["old", "new", "all"]),
});

type Match = z.infer<typeof output>["matches"][number];

export const lookupAddress = defineTool({
  name: "lookup_address",
  title: "Look up address ids",
  description:
    'Find province/district/commune ids from a place name, diacritics optional; province_id alone lists districts, district_id communes, nothing provinces. Example: query "Ben Nghe, Quan 1, Ho Chi Minh".',
  toolset: "shop",
  annotations: READ,
  input: z.object({
    query: z
      .string()
      .max(200)
      .optional()
      .describe("Commune, district, province; any order"),
    province_id: idInput("Lists its districts, or narrows query").optional(),
    district_id: idInput("Lists its communes (needs province_id)").optional(),
    province_list: z
      .enum(["old", "new", "all"])
      .default("old")
      .describe("old: 63 provinces with districts; new: post-2025"),
    limit: limitInput(50, 10),
  }),
  output,
  async handler(input, ctx) {
    const geo = geoIndex(ctx.pos);
    const list = input.province_list as ProvinceList;
    const provinces = await geo.provinces(list);
    const base = { province_list: list };

    if (!input.query?.trim()) {
      if (input.district_id) {
        if (!input.province_id) throw new InputError("province_id", "is required with district_id", "Pass the province_id the district belongs to.");
        const province = findById(provinces, input.province_id);
        const district = findById(await geo.districts(input.province_id), input.district_id);
        const communes = await geo.communes(input.province_id, input.district_id);
        return { ...base, matches: communes.slice(0, input.limit).map((c) => row(province, district, c)) };
      }
      if (input.province_id) {
        const province = findById(provinces, input.province_id);
        const districts = await geo.districts(input.province_id);
        return { ...base, matches: districts.slice(0, input.limit).map((d) => row(province, d)) };
      }
      return { ...base, matches: provinces.slice(0, input.limit).map((p) => row(p)) };
    }

    const parts = input.query.split(",").map((s) => s.trim()).filter(Boolean);
    const scopeProvinces = input.province_id ? [findById(provinces, input.province_id)] : provinces;
    const scored = scopeProvinces
      .map((p) => ({ p, ...best(parts, p.name ?? "") }))
      .filter((m) => m.score > 0 || input.province_id);
    const topScore = Math.max(0, ...scored.map((m) => m.score));
    // No province named: look for the district in every province (cached after the first time).
    const candidates = scored.length > 0 ? scored.filter((m) => m.score === topScore) : provinces.map((p) => ({ p, score: 0, part: -1 }));

    const matches: Match[] = [];
    for (const { p, score, part } of candidates) {
      const rest = parts.filter((_, i) => i !== part);
      if (rest.length === 0) {
        matches.push({ ...row(p), score });
        continue;
      }
      const districts = await geo.districts(String(p.id));
      const hits = districts.map((d) => ({ d, ...best(rest, d.name ?? "") })).filter((m) => m.score > 0);
      if (hits.length === 0 && score > 0) matches.push({ ...row(p), score });
      const dTop = Math.max(0, ...hits.map((h) => h.score));
      for (const hit of hits.filter((h) => h.score === dTop)) {
        const left = rest.filter((_, i) => i !== hit.part);
        if (left.length === 0) {
          matches.push({ ...row(p, hit.d), score: score + hit.score });
          continue;
        }
        const communes = await geo.communes(String(p.id), String(hit.d.id));
        const cHits = communes.map((c) => ({ c, ...best(left, c.name ?? "") })).filter((m) => m.score > 0);
        if (cHits.length === 0) matches.push({ ...row(p, hit.d), score: score + hit.score });
        for (const c of cHits) matches.push({ ...row(p, hit.d, c.c), score: score + hit.score + c.score });
      }
    }
    matches.sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    return { ...base, matches: matches.slice(0, input.limit) };
  },
});

/** The best-matching part of the typed query for a name, and its index. */
function best(parts: string[], name: string): { score: number; part: number } {
  let result = { score: 0, part: -1 };
  parts.forEach((typed, i) => {
    const score = matchScore(typed, name);
    if (score > result.score) result = { score, part: i };
  });
  return result;
}

function findById<T extends { id: string | number }>(items: T[], id: string): T {
  const found = items.find((item) => String(item.id) === id);
  if (!found) throw new InputError("province_id/district_id", `no place with id ${id}`, "Use lookup_address without ids to list provinces, then browse down.");
  return found;
}

function row(
  province: PosProvince,
  district?: PosDistrict,
  commune?: { id: string | number; name?: string | null; postcode?: string | number | null },
): Match {
  const names = [commune?.name, district?.name, province.name].map((n) => sanitizeName(n)).filter(Boolean);
  return {
    full_name: names.join(", "),
    province: { id: String(province.id), name: sanitizeName(province.name), new_id: province.new_id ? String(province.new_id) : undefined },
    district: district ? { id: String(district.id), name: sanitizeName(district.name) } : undefined,
    commune: commune
      ? { id: String(commune.id), name: sanitizeName(commune.name), postcode: commune.postcode ? String(commune.postcode) : undefined }
      : undefined,
  };
}
