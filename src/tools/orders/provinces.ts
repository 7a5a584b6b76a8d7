import type { PosOrder, PosProvince } from "../../clients/schemas/pos.js";
import { id } from "../../format/compact.js";
import { sanitizeName } from "../../text/sanitize.js";
import { NONE } from "../group-rows.js";

type Loose = Record<string, unknown>;
const rec = (value: unknown): Loose => (typeof value === "object" && value !== null ? (value as Loose) : {});
/** A province the lists do not name: its id, sanitized like any upstream text. */
const unnamed = (value: string) => `(unnamed ${sanitizeName(value) ?? "?"})`;

/** Which province list groups count by: the 34 since 1 July 2025, or the 63 before (as lookup_address offers). */
export type ProvinceList = "new" | "old";

/**
 * Provinces as an order's address places them. `/geo/provinces` lists the 63 old ones, each with
 * the `new_id` it merged into, and `is_new` the 34 current ones (reference README). Without the
 * lists (`read` false), each order's province is named as the order names it.
 */
export class Provinces {
  /** Current name -> old provinces counted under it, as met in the orders. */
  readonly merged = new Map<string, Set<string>>();
  /** Orders placed only on the new list, which no old province can be told from (the old list asked). */
  private newOnly = 0;
  private readonly current: Map<string, string>;
  private readonly old: Map<string, PosProvince>;

  constructor(
    old: PosProvince[],
    current: PosProvince[],
    private readonly list: ProvinceList = "new",
    private readonly read = true,
  ) {
    this.old = new Map(old.map((p) => [String(p.id), p]));
    this.current = new Map(current.map((p) => [String(p.id), sanitizeName(p.name) ?? String(p.id)]));
  }

  /**
   * On the new list an order is placed by `new_province_id`, else by what its old province became.
   * The vendor's records carry the old `province_id` beside the new one (the OpenAPI's order
   * examples): that old province is counted as merged either way. On the old list, by its old
   * province; an address written on the new list alone keeps its new province's name.
   */
  of(order: PosOrder): string {
    const address = rec(order.shipping_address);
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

  /** What the grouping should say: which old provinces one counts, or orders the old list cannot place. */
  note(): string | undefined {
    if (!this.read) return "The province lists could not be read: provinces are named as each order names them, old and post-2025 names apart.";
    if (this.list === "old") {
      return this.newOnly ? `Provinces as before 1 July 2025; ${this.newOnly} orders carry only a post-2025 province and are counted under it.` : undefined;
    }
    const merges = [...this.merged].filter(([, olds]) => olds.size > 1).map(([into, olds]) => `${into} counts old ${[...olds].join(", ")}`);
    return merges.length ? `Provinces as since 1 July 2025: ${merges.join("; ")}.` : undefined;
  }
}
