import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosProvince } from "../../clients/schemas/pos.js";
import { defineTool, READ } from "../define.js";
import { idInput, limitInput } from "../inputs.js";
import { geoIndex } from "./geo-index.js";
import { matchAddress, type PlaceMatch, placeMatchSchema, placeRow, wardRow } from "./place-match.js";

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
    'Province/district/ward ids from place names in any spelling, 3-tier ("ben nghe, q1, tp hcm") or post-2025 2-tier ("phuong sai gon, hcm"); no query: browse.',
  toolset: "shop",
  annotations: READ,
  input: z.object({
    query: z
      .string()
      .max(200)
      .optional()
      .describe("Commune, district, province; any order"),
    province_id: idInput("Lists its districts (new id: wards), or narrows query").optional(),
    district_id: idInput("Lists its communes (needs province_id)").optional(),
    province_list: z
      .enum(["old", "new", "all"])
      .optional()
      .describe("old: 3-tier, new: 2-tier; default all (browsing: old)"),
    limit: limitInput(50, 10),
  }),
  output,
  async handler(input, ctx) {
    const geo = geoIndex(ctx.pos);
    // Fewer rows than found says so: the model must not take the first `limit` for all.
    const answer = (list: "old" | "new" | "all", matches: PlaceMatch[]) => ({
      province_list: list,
      matches: matches.slice(0, input.limit),
      ...(matches.length > input.limit ? { total: matches.length, truncated: true } : {}),
    });

    const [old, fresh] = await Promise.all([geo.provinces("old"), geo.provinces("new")]);
    const scope = input.province_id === undefined ? undefined : findProvince(old, fresh, input.province_id);
    if (!input.query?.trim()) {
      if (input.district_id) {
        if (!scope) throw new InputError("province_id", "is required with district_id", "Pass the province_id the district belongs to.");
        if (scope.form === "new") throw new InputError("district_id", "a post-2025 province has no districts", "Leave district_id out: province_id alone lists its wards.");
        const district = findById(await geo.districts(input.province_id!), input.district_id);
        const communes = await geo.communes(input.province_id!, input.district_id);
        return answer("old", communes.map((c) => placeRow(scope.p, district, c)));
      }
      if (scope?.form === "new") return answer("new", (await geo.wards(input.province_id!)).map((w) => wardRow(scope.p, w)));
      if (scope) return answer("old", (await geo.districts(input.province_id!)).map((d) => placeRow(scope.p, d)));
      const list = input.province_list ?? "old";
      return answer(list, [...(list === "new" ? [] : old.map((p) => placeRow(p))), ...(list === "old" ? [] : fresh.map((p) => wardRow(p)))]);
    }

    const parts = input.query.split(",").map((s) => s.trim()).filter(Boolean);
    // A province given decides the form; otherwise both, unless one is asked for.
    const list = scope ? scope.form : (input.province_list ?? "all");
    return answer(list, await matchAddress(geo, parts, { list, scope: scope?.p }));
  },
});

/** A province of the old list or the post-2025 one, by id. */
function findProvince(old: PosProvince[], fresh: PosProvince[], id: string): { p: PosProvince; form: "old" | "new" } {
  const inOld = old.find((p) => String(p.id) === id);
  if (inOld) return { p: inOld, form: "old" };
  return { p: findById(fresh, id), form: "new" };
}

function findById<T extends { id: string | number }>(items: T[], id: string): T {
  const found = items.find((item) => String(item.id) === id);
  if (!found) throw new InputError("province_id/district_id", `no place with id ${id}`, "Use lookup_address without ids to list provinces, then browse down.");
  return found;
}
