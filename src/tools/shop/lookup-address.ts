import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { defineTool, READ } from "../define.js";
import { idInput, limitInput } from "../inputs.js";
import { geoIndex, type ProvinceList } from "./geo-index.js";
import { matchPlaces, type PlaceMatch, placeMatchSchema, placeRow } from "./place-match.js";

const output = z.object({
  matches: z.array(placeMatchSchema).describe("Best first"),
  province_list: z.enum(["old", "new", "all"]),
  total: z.number().optional(),
  truncated: z.boolean().optional(),
});

export const lookupAddress = defineTool({
  name: "lookup_address",
  title: "Look up address ids",
  description:
    'Province/district/commune ids from place names, any spelling ("ben nghe, q1, tp hcm"); province_id alone lists districts, district_id communes, nothing provinces.',
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
      .describe("old (with districts) or new (post-2025)"),
    limit: limitInput(50, 10),
  }),
  output,
  async handler(input, ctx) {
    const geo = geoIndex(ctx.pos);
    const list = input.province_list as ProvinceList;
    const provinces = await geo.provinces(list);
    // Fewer rows than found says so: the model must not take the first `limit` for all.
    const answer = (matches: PlaceMatch[]) => ({
      province_list: list,
      matches: matches.slice(0, input.limit),
      ...(matches.length > input.limit ? { total: matches.length, truncated: true } : {}),
    });

    if (!input.query?.trim()) {
      if (input.district_id) {
        if (!input.province_id) throw new InputError("province_id", "is required with district_id", "Pass the province_id the district belongs to.");
        const province = findById(provinces, input.province_id);
        const district = findById(await geo.districts(input.province_id), input.district_id);
        const communes = await geo.communes(input.province_id, input.district_id);
        return answer(communes.map((c) => placeRow(province, district, c)));
      }
      if (input.province_id) {
        const province = findById(provinces, input.province_id);
        const districts = await geo.districts(input.province_id);
        return answer(districts.map((d) => placeRow(province, d)));
      }
      return answer(provinces.map((p) => placeRow(p)));
    }

    const parts = input.query.split(",").map((s) => s.trim()).filter(Boolean);
    const scope = input.province_id ? findById(provinces, input.province_id) : undefined;
    return answer(await matchPlaces(geo, provinces, parts, scope));
  },
});

function findById<T extends { id: string | number }>(items: T[], id: string): T {
  const found = items.find((item) => String(item.id) === id);
  if (!found) throw new InputError("province_id/district_id", `no place with id ${id}`, "Use lookup_address without ids to list provinces, then browse down.");
  return found;
}
