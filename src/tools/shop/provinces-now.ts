import type { PosClient } from "../../clients/pos.js";
import type { PosProvince } from "../../clients/schemas/pos.js";
import { id } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { NONE } from "../group-rows.js";
import { geoIndex } from "./geo-index.js";

/** A group the shop's lists do not name: its id, sanitized like any upstream text. */
export const unnamed = (value: string) => `(unnamed ${sanitizeName(value) ?? "?"})`;
export const isUnnamed = (label: string) => label.startsWith("(unnamed ");

/** Which province list places are counted by: the 34 since 1 July 2025, or the 63 before (as lookup_address offers). */
export type ProvinceList = "new" | "old";

/**
 * Provinces by the list in force since 1 July 2025, or the old one: `/geo/provinces` lists the 63
 * old ones, each with the `new_id` it merged into, and `is_new` the 34 current ones (reference
 * README). Without the lists (`read` false), each province is named as the record names it.
 */
export class Provinces {
  /** Current name -> old provinces counted under it, as met. */
  readonly merged = new Map<string, Set<string>>();
  /** Places on the new list alone, which no old province can be told from (the old list asked). */
  private newOnly = 0;
  private readonly current: Map<string, string>;
  private readonly old: Map<string, PosProvince>;

  /** `read` false: the lists could not be read. */
  constructor(
    old: PosProvince[],
    current: PosProvince[],
    readonly read = true,
    private readonly list: ProvinceList = "new",
  ) {
    this.old = new Map(old.map((p) => [String(p.id), p]));
    this.current = new Map(current.map((p) => [String(p.id), sanitizeName(p.name) ?? String(p.id)]));
  }

  /**
   * A place is counted by its `newId` when it has one, else by what its old province became. The
   * vendor's records carry the old `province_id` beside the new one (the OpenAPI's order
   * examples): that old province is counted as merged either way. On the old list, by its old
   * province; a place written on the new list alone keeps its new province's name.
   */
  of(address: { province_id?: unknown; new_province_id?: unknown; province_name?: unknown }): string {
    const given = id(address.province_id);
    const old = given === undefined ? undefined : this.old.get(given);
    const oldName = sanitizeName(old?.name);
    if (this.list === "old" && oldName) return oldName;
    const into = [id(address.new_province_id), given, id(old?.new_id)].map((key) => key && this.current.get(key)).find(Boolean);
    const key = id(address.new_province_id) || given;
    if (!into) return oldName ?? sanitizeName(address.province_name) ?? (key ? unnamed(key) : NONE);
    if (this.list === "old") this.newOnly++;
    else if (oldName) this.merged.set(into, (this.merged.get(into) ?? new Set()).add(oldName));
    return into;
  }

  /** "Thành phố Hồ Chí Minh counts old Hồ Chí Minh, Bình Dương, Bà Rịa-Vũng Tàu" for each province several met old ones merged into. */
  note(): string | undefined {
    if (!this.read) return "The province lists could not be read: provinces are named as each order names them, old and post-2025 names apart.";
    if (this.list === "old") {
      return this.newOnly ? `Provinces as before 1 July 2025; ${this.newOnly} orders carry only a post-2025 province and are counted under it.` : undefined;
    }
    // In name order, not as met: the same answer whichever order the places were read in.
    const merges = [...this.merged]
      .filter(([, olds]) => olds.size > 1)
      .map(([into, olds]) => `${into} counts old ${[...olds].sort((a, b) => a.localeCompare(b, "vi")).join(", ")}`);
    return merges.length ? `Provinces as since 1 July 2025: ${merges.join("; ")}.` : undefined;
  }
}

/** The province lists, old and current; lists that cannot be read leave each place named as written. */
export function provincesNow(pos: PosClient, list: ProvinceList = "new"): Promise<Provinces> {
  const geo = geoIndex(pos);
  return Promise.all([geo.provinces("old"), geo.provinces("new")]).then(
    ([old, current]) => new Provinces(old, current, true, list),
    () => new Provinces([], [], false, list),
  );
}
