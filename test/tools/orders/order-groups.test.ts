import { afterEach, describe, expect, it } from "vitest";
import type { OrderRecord } from "../../../src/sandbox/pos/index.js";
import { SWEEP_BOUNDS as GROUP_BOUNDS } from "../../../src/tools/orders/every-order.js";
import { useHarness } from "../../helpers/harness.js";

// search_orders group_by: every expectation is computed here from the sandbox's raw records (names
// from its partner, staff, warehouse, source and province lists), never from the tool's code.
// Counted from the shop index and from the list: the POS's statistics (posStatistics) are tested
// against the list in order-pushdown.test.ts.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 }, config: { posStatistics: false } });
/** Without the shop index: the list is read page by page, within its bounds. */
const paged = useHarness({
  sandbox: { ratePerSecond: 10_000 },
  config: { posStatistics: false, index: { mode: "off", refreshSeconds: 0, maxRows: 1_000, preload: false } },
});
const pos = () => h.sandbox.pos;
const visible = () => pos().orders.filter((o) => !o.is_removed);
/** Canceled and deleted-recently orders: left out of groups unless statuses or a status key ask for them. */
const isVoid = (o: OrderRecord) => o.status === 6 || o.status === 7;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (recordTime: string) => Date.parse(`${recordTime}Z`);
/** The shop's calendar day (Asia/Ho_Chi_Minh, UTC+7 all year) of a record time. */
const shopDay = (recordTime: string) => new Date(at(recordTime) + 7 * HOUR).toISOString().slice(0, 10);

/** Newest first, ties by the higher id first: the list's default order. */
const newestOf = (orders: OrderRecord[]) => [...orders].sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : b.id - a.id));

type Figures = { orders: number; amount: number; cod: number; shipping_fee: number };
type Row = Figures & Record<string, unknown>;

function figures(orders: OrderRecord[]): Figures {
  return {
    orders: orders.length,
    amount: orders.reduce((t, o) => t + o.total_price_after_sub_discount, 0),
    cod: orders.reduce((t, o) => t + o.cod, 0),
    shipping_fee: orders.reduce((t, o) => t + (o.is_free_shipping ? 0 : o.shipping_fee), 0),
  };
}

/** Orders grouped by a label, as label -> figures. */
function truth(orders: OrderRecord[], label: (o: OrderRecord) => string): Record<string, Figures> {
  const groups = new Map<string, OrderRecord[]>();
  for (const o of orders) groups.set(label(o), [...(groups.get(label(o)) ?? []), o]);
  return Object.fromEntries([...groups].map(([key, list]) => [key, figures(list)]));
}

/**
 * The answer's rows as label -> figures of the orders they count (the `other` row left out, and
 * the canceled and deleted counts beside them, which "counts canceled and deleted apart" checks).
 */
function answered(rows: Row[], key: string): Record<string, Figures> {
  return Object.fromEntries(
    rows
      .filter((r) => r.groups === undefined && r.orders > 0)
      .map((r) => [r[key] as string, { orders: r.orders, amount: r.amount, cod: r.cod, shipping_fee: r.shipping_fee }]),
  );
}

/** A row without its canceled and deleted counts. */
const counting = ({ canceled: _c, deleted: _d, returned_amount: _r, ...row }: Row) => row;

/** The row summing groups left out of a listing: labelled for `key`, with how many groups it holds. */
const summed = (key: string, label: string, rest: Figures[]) => ({
  [key]: label,
  groups: rest.length,
  orders: rest.reduce((t, f) => t + f.orders, 0),
  amount: rest.reduce((t, f) => t + f.amount, 0),
  cod: rest.reduce((t, f) => t + f.cod, 0),
  shipping_fee: rest.reduce((t, f) => t + f.shipping_fee, 0),
});

const partnerName = (o: OrderRecord) => pos().partners.find((p) => p.id === o.partner?.partner_id)?.name ?? "(none)";
const provinceName = (provinceId: string) => {
  const old = pos().geo.provinces.find((p) => p.id === provinceId)!;
  return pos().geo.newProvinces.find((p) => p.id === old.new_id)!.name;
};

/** An order changed as the POS changes it: its update time moves, so the index reads it again. */
function touch(order: OrderRecord): void {
  order.updated_at = new Date(Math.max(Date.now(), Date.parse(`${order.updated_at}Z`) + 1000)).toISOString().slice(0, 19);
}

async function groups(args: Record<string, unknown>, harness = h) {
  const r = await harness.call("search_orders", args);
  expect(r.isError, r.text).toBe(false);
  return r.data as { groups: Row[]; total: number; as_of?: string; canceled?: { orders: number; amount: number }; deleted?: { orders: number; amount: number }; complete: boolean; note?: string };
}

afterEach(() => {
  h.sandbox.server.clearFaults();
});

describe("search_orders group_by", () => {
  it("counts and sums every match, not one page: all upstream pages read with only the fields grouping needs", async () => {
    const orders = visible();
    expect(orders.length).toBeGreaterThan(300);
    h.sandbox.server.resetRecords();
    const r = await groups({ group_by: ["carrier"] });
    expect(answered(r.groups, "carrier")).toEqual(truth(orders.filter((o) => !isVoid(o)), partnerName));
    // total counts every match, as the plain list does; the groups, those neither canceled nor deleted.
    expect(r.total).toBe(orders.length);
    expect(r.groups.reduce((t, g) => t + g.orders, 0)).toBe(orders.filter((o) => !isVoid(o)).length);
    // Canceled (6) and deleted recently (7) apart, each under its own name.
    const [canceled, deleted] = [6, 7].map((status) => orders.filter((o) => o.status === status));
    expect(canceled!.length).toBeGreaterThan(0);
    expect(deleted!.length).toBeGreaterThan(0);
    expect(r.canceled).toEqual({ orders: canceled!.length, amount: figures(canceled!).amount });
    expect(r.deleted).toEqual({ orders: deleted!.length, amount: figures(deleted!).amount });
    expect(r.note).toContain(`${canceled!.length} canceled and ${deleted!.length} deleted of the ${orders.length} orders (total) are left out of the groups' figures and counted apart, in all and in each group`);
    // And per group, so a ranking never hides whose orders were canceled.
    for (const [name, code] of [["canceled", 6], ["deleted", 7]] as const) {
      const perCarrier = truth(orders.filter((o) => o.status === code), partnerName);
      const shown = Object.fromEntries(r.groups.filter((g) => g[name] !== undefined).map((g) => [g.carrier as string, g[name]]));
      expect(shown, name).toEqual(Object.fromEntries(Object.entries(perCarrier).map(([carrier, f]) => [carrier, f.orders])));
    }
    expect(r.complete).toBe(true);
    expect(Date.parse(r.as_of!)).toBeGreaterThan(Date.now() - 60_000);
    // Read into the index with the fields it keeps, the lines among them (sales per variant, what
    // came back); the index's count of the list asks for ids alone.
    const reads = h.sandbox.server.requests.filter((q) => q.path.endsWith("/orders") && q.query.page_size?.[0] !== "1");
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect(read.query["fields[]"]).toContain("partner");
      expect(read.query["fields[]"]).toContain("items");
    }
    // Asked again, the index is brought up to date and checked: two requests, not every page again.
    h.sandbox.server.resetRecords();
    const again = await groups({ group_by: ["carrier"] });
    expect(again.groups).toEqual(r.groups);
    expect(h.sandbox.server.requests.filter((q) => q.path.endsWith("/orders")).length).toBeLessThanOrEqual(2);
  });

  it("without the index, reads every page of the list with only the fields grouping needs", async () => {
    const r = await groups({ group_by: ["carrier"] }, paged);
    expect(r.total).toBe(visible().length);
    expect(r.as_of).toBeUndefined();
    const reads = paged.sandbox.server.requests.filter((q) => q.path.endsWith("/orders"));
    expect(reads.map((q) => Number(q.query.page_number?.[0])).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const read of reads) {
      expect(read.query["fields[]"]).toContain("partner");
      expect(read.query["fields[]"]).not.toContain("items");
    }
  });

  it("counts canceled orders when the statuses ask for them, or as their own group by status", async () => {
    const byStatus = await groups({ group_by: ["status"] });
    expect(answered(byStatus.groups, "status")).toEqual(truth(visible(), (o) => o.status_name));
    expect(byStatus.canceled).toBeUndefined();
    expect(byStatus.deleted).toBeUndefined();
    const canceled = await groups({ group_by: ["carrier"], statuses: ["canceled"] });
    expect(canceled.total).toBe(visible().filter((o) => o.status === 6).length);
  });

  it("names every group as the shop does, never by id", async () => {
    const live = visible().filter((o) => !isVoid(o));
    const staff = (id: string | null | undefined) => pos().users.find((u) => u.id === id)?.name ?? "(none)";
    const sourceName = (id: string | null) => pos().orderSources.find((s) => String(s.id) === id)?.name ?? "(none)";
    const cases: [string, (o: OrderRecord) => string][] = [
      ["seller", (o) => staff(o.assigning_seller_id)],
      ["creator", (o) => staff(o.creator.id)],
      ["warehouse", (o) => pos().warehouses.find((w) => w.id === o.warehouse_id)!.name],
      ["source", (o) => sourceName(o.order_sources)],
      ["page", (o) => sourceName(o.page_id ?? o.account)],
    ];
    for (const [key, label] of cases) {
      const r = await groups({ group_by: [key] });
      expect(answered(r.groups, key), key).toEqual(truth(live, label));
      for (const row of r.groups) expect(String(row[key]), key).not.toMatch(/^-?\d+$|^[0-9a-f]{8}-|^zl_|^igo_/);
    }
  });

  it("sums the groups past limit in one other row, and sorts by the figure asked for", async () => {
    const live = visible().filter((o) => !isVoid(o));
    const all = truth(live, (o) => provinceName(o.shipping_address.province_id));
    const ranked = Object.entries(all).sort(([a, x], [b, y]) => y.orders - x.orders || a.localeCompare(b));
    expect(ranked.length).toBeGreaterThan(4);
    const r = await groups({ group_by: ["province"], limit: 3 });
    expect(r.groups.slice(0, 3).map((g) => g.province)).toEqual(ranked.slice(0, 3).map(([name]) => name));
    const rest = ranked.slice(3).map(([, f]) => f);
    expect(counting(r.groups[3]!)).toEqual(summed("province", "other", rest));
    expect(r.note).toContain(`${rest.length} more groups`);
    expect(r.note).not.toContain("tied");

    // A limit that cuts between two equal groups says how many equal the last one listed.
    const pairs = Object.values(truth(visible(), (o) => `${provinceName(o.shipping_address.province_id)}|${o.status_name}`)).map((f) => f.orders).sort((a, b) => b - a);
    const cut = pairs.findIndex((n, i) => i > 0 && n === pairs[i - 1]);
    expect(cut).toBeGreaterThan(0);
    const tied = pairs.slice(cut).filter((n) => n === pairs[cut - 1]).length;
    const atTie = await groups({ group_by: ["province", "status"], limit: cut });
    expect(atTie.note).toContain(`${pairs.length - cut} more groups are summed in the "other" row, ${tied} of them tied with the last listed group`);

    const byCod = await groups({ group_by: ["carrier"], statuses: ["shipped"], group_sort: "cod" });
    const cods = byCod.groups.map((g) => g.cod);
    expect(cods).toEqual([...cods].sort((a, b) => b - a));
    expect(byCod.total).toBe(visible().filter((o) => o.status === 2).length);
  });

  it("counts an address on the old province list under the province it is in today, and says which merged", async () => {
    const live = visible().filter((o) => !isVoid(o));
    const hcm = pos().geo.provinces.filter((p) => p.new_id === "84_VN129").map((p) => p.id);
    expect(hcm.length).toBeGreaterThan(1);
    const r = await groups({ group_by: ["province"] });
    expect(answered(r.groups, "province")).toEqual(truth(live, (o) => provinceName(o.shipping_address.province_id)));
    expect(r.groups.filter((g) => g.province === "Thành phố Hồ Chí Minh")).toHaveLength(1);
    expect(r.groups.find((g) => g.province === "Thành phố Hồ Chí Minh")!.orders).toBe(live.filter((o) => hcm.includes(o.shipping_address.province_id)).length);
    expect(r.groups.some((g) => g.province === "Bình Dương" || g.province === "Bà Rịa-Vũng Tàu")).toBe(false);
    expect(r.note).toMatch(/Thành phố Hồ Chí Minh counts old .*Bình Dương/);
    expect(r.note).toContain("Bà Rịa-Vũng Tàu");
  });

  it("places an order that carries new_province_id by it", async () => {
    const order = visible().find((o) => !isVoid(o) && o.shipping_address.province_id === "101")!;
    const saved = order.shipping_address;
    // An address written on the new list: no old province, the new one's id (OpenAPI order examples).
    order.shipping_address = { ...saved, province_id: "", province_name: "", new_province_id: "84_VN121", render_type: "new" } as typeof saved;
    touch(order);
    try {
      const live = visible().filter((o) => !isVoid(o));
      const r = await groups({ group_by: ["province"] });
      const expected = truth(live, (o) => (o === order ? "Thành phố Đà Nẵng" : provinceName(o.shipping_address.province_id)));
      expect(answered(r.groups, "province")).toEqual(expected);
    } finally {
      order.shipping_address = saved;
      touch(order);
    }
  });

  it("names the old provinces merged into one when the orders carry both ids, as the vendor's records do", async () => {
    // The OpenAPI's order examples carry the old province_id beside new_province_id.
    const oldForm = visible().filter((o) => !o.shipping_address.new_province_id);
    const saved = oldForm.map((o) => o.shipping_address);
    for (const o of oldForm) {
      o.shipping_address = { ...o.shipping_address, new_province_id: pos().geo.provinces.find((p) => p.id === o.shipping_address.province_id)!.new_id };
      touch(o);
    }
    try {
      const live = visible().filter((o) => !isVoid(o));
      const r = await groups({ group_by: ["province"] });
      expect(answered(r.groups, "province")).toEqual(truth(live, (o) => provinceName(o.shipping_address.province_id)));
      expect(r.note).toMatch(/Thành phố Hồ Chí Minh counts old .*Bình Dương/);
    } finally {
      oldForm.forEach((o, i) => {
        o.shipping_address = saved[i]!;
        touch(o);
      });
    }
  });

  it("names ids no list names by the id, sanitized", async () => {
    const order = visible().find((o) => !isVoid(o) && o.partner)!;
    const saved = order.partner;
    order.partner = { ...saved!, partner_id: "77\u202e\u200bx" as unknown as number };
    touch(order);
    try {
      const r = await groups({ group_by: ["carrier"], limit: 100 });
      expect(r.groups.map((g) => g.carrier)).toContain("(unnamed 77x)");
    } finally {
      order.partner = saved;
      touch(order);
    }
  });

  it("groups by day, week and month of the time field the call filters on, in the shop's time zone", async () => {
    const shippedAt = (o: OrderRecord) => o.status_history.find((s) => s.status === 2)?.updated_at;
    const first = shopDay(new Date(Date.now() - 30 * DAY).toISOString().slice(0, 19));
    const since = Date.parse(`${first}T00:00:00+07:00`);
    const inRange = visible().filter((o) => !isVoid(o) && shippedAt(o) && at(shippedAt(o)!) >= since);
    expect(inRange.length).toBeGreaterThan(10);
    const byDay = await groups({ group_by: ["day"], time_field: "shipped", since: first });
    const days = truth(inRange, (o) => shopDay(shippedAt(o)!));
    expect(answered(byDay.groups, "day")).toEqual(days);
    // In time order, not by count.
    expect(byDay.groups.map((g) => g.day)).toEqual(Object.keys(days).sort());

    const monday = (day: string) => {
      const d = new Date(`${day}T00:00:00Z`);
      return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);
    };
    const weekOf = (day: string) => `${monday(day)}/${new Date(Date.parse(`${monday(day)}T00:00:00Z`) + 6 * DAY).toISOString().slice(0, 10)}`;
    const byWeek = await groups({ group_by: ["week"], time_field: "shipped", since: first });
    expect(answered(byWeek.groups, "week")).toEqual(truth(inRange, (o) => weekOf(shopDay(shippedAt(o)!))));
    const byMonth = await groups({ group_by: ["month"], time_field: "shipped", since: first });
    expect(answered(byMonth.groups, "month")).toEqual(truth(inRange, (o) => shopDay(shippedAt(o)!).slice(0, 7)));
  });

  it("lists the newest periods past limit and sums the earlier ones in one row before them", async () => {
    const live = visible().filter((o) => !isVoid(o));
    const days = truth(live, (o) => shopDay(o.inserted_at));
    const order = Object.keys(days).sort();
    expect(order.length).toBeGreaterThan(40);
    const r = await groups({ group_by: ["day"] });
    const [first, ...listed] = r.groups;
    expect(listed.map((g) => g.day)).toEqual(order.slice(-40));
    // Today's orders are listed (the seed has some), not summed away.
    expect(listed.at(-1)!.day).toBe(shopDay(new Date().toISOString().slice(0, 19)));
    const earlier = order.slice(0, -40).map((d) => days[d]!);
    expect(counting(first!)).toEqual(summed("day", "earlier", earlier));
    expect(r.note).toContain(`The ${earlier.length} earliest groups are summed in the "earlier" row`);
  });

  it("splits by two keys", async () => {
    const live = visible().filter((o) => !isVoid(o));
    const r = await groups({ group_by: ["warehouse", "carrier"], limit: 100 });
    const keyed = Object.fromEntries(r.groups.map((g) => [`${g.warehouse}|${g.carrier}`, { orders: g.orders, amount: g.amount, cod: g.cod, shipping_fee: g.shipping_fee }]));
    expect(keyed).toEqual(truth(live, (o) => `${pos().warehouses.find((w) => w.id === o.warehouse_id)!.name}|${partnerName(o)}`));
  });

  it("sums each value of the first key over its groups, those past limit included", async () => {
    // Grouped by status, canceled and deleted orders are groups of their own, in the figures.
    const live = visible();
    const r = (await groups({ group_by: ["carrier", "status"], limit: 3 })) as Awaited<ReturnType<typeof groups>> & { subtotals: Row[] };
    expect(r.groups.at(-1)!.groups).toBeGreaterThan(0);
    const byCarrier = truth(live, partnerName);
    expect(Object.keys(byCarrier).length).toBeGreaterThan(3);
    // Largest first, cut at the same limit, the rest summed in one row.
    const ranked = Object.entries(byCarrier).sort(([ka, a], [kb, b]) => b.orders - a.orders || ka.localeCompare(kb));
    expect(r.subtotals.map(counting)).toEqual([
      ...ranked.slice(0, 3).map(([carrier, f]) => ({ carrier, ...f })),
      summed("carrier", "other", ranked.slice(3).map(([, f]) => f)),
    ]);
    expect(r.subtotals.reduce((t, row) => t + row.orders, 0)).toBe(r.total);
    const one = await groups({ group_by: ["carrier"], limit: 3 });
    expect((one as { subtotals?: unknown }).subtotals).toBeUndefined();
  });

  it("says complete: false and how far it got when the order bound stops it", async () => {
    const saved = { ...GROUP_BOUNDS };
    GROUP_BOUNDS.orders = 150;
    try {
      const r = await groups({ group_by: ["status"] }, paged);
      expect(r.complete).toBe(false);
      const newest = newestOf(visible()).slice(0, 100);
      expect(r.total).toBe(100);
      expect(answered(r.groups, "status")).toEqual(truth(newest, (o) => o.status_name));
      expect(r.note).toContain(`Read the newest 100 of the ${visible().length} orders the list holds for these filters`);
    } finally {
      Object.assign(GROUP_BOUNDS, saved);
    }
  });

  it("says complete: false when its time runs out, counting only the pages read from the first on", async () => {
    const saved = { ...GROUP_BOUNDS };
    GROUP_BOUNDS.ms = 50;
    paged.sandbox.server.injectFault({ kind: "latency", delayMs: 200, path: "/orders", times: Number.POSITIVE_INFINITY });
    try {
      const r = await groups({ group_by: ["status"] }, paged);
      expect(r.complete).toBe(false);
      expect(r.total).toBe(100);
      expect(r.note).toMatch(/Read the newest 100 of the \d+ orders the list holds for these filters \(read in 0\.05 s\)/);
    } finally {
      Object.assign(GROUP_BOUNDS, saved);
      paged.sandbox.server.clearFaults();
    }
  });

  it("refuses a key it does not know naming the keys it takes, and parameters that do not apply", async () => {
    const typo = await h.call("search_orders", { group_by: ["provinces"] });
    expect(typo.isError).toBe(true);
    for (const key of ["status", "source", "province", "carrier", "seller", "day", "week", "month"]) expect(typo.text).toContain(`"${key}"`);
    const three = await h.call("search_orders", { group_by: ["status", "carrier", "day"] });
    expect(three.isError).toBe(true);
    expect(three.text).toContain("group_by");
    const twice = await h.call("search_orders", { group_by: ["status", "status"] });
    expect(twice.isError).toBe(true);
    const fields = await h.call("search_orders", { group_by: ["status"], fields: ["id"] });
    expect(fields.text).toContain("fields: does not apply with group_by");
  });
});

describe("search_orders status_older_than", () => {
  it("finds orders in their status longer than the span, to the minute, with how long", async () => {
    const news = visible().filter((o) => o.status === 0);
    expect(news.length).toBeGreaterThanOrEqual(2);
    const [justOver, justUnder] = news;
    const saved = news.map((o) => o.last_update_status_at);
    const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    justOver!.last_update_status_at = stamp(Date.now() - 2 * DAY - 10 * 60_000);
    justUnder!.last_update_status_at = stamp(Date.now() - 2 * DAY + 10 * 60_000);
    try {
      const expected = news.filter((o) => at(o.last_update_status_at) <= Date.now() - 2 * DAY).map((o) => String(o.id));
      expect(expected).toContain(String(justOver!.id));
      expect(expected).not.toContain(String(justUnder!.id));
      const r = await h.call("search_orders", { statuses: ["new"], status_older_than: "2 days", limit: 100 });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.orders.map((o: { id: string }) => o.id).sort()).toEqual(expected.sort());
      expect(r.data.orders.find((o: { id: string }) => o.id === String(justOver!.id)).in_status_for).toBe("2d");
      // Every page says how long, the ones read on with the cursor too.
      const first = await h.call("search_orders", { statuses: ["new"], status_older_than: "2 days", limit: 1 });
      const next = await h.call("search_orders", { cursor: first.data.next_cursor, limit: 1 });
      for (const page of [first, next]) expect(page.data.orders[0].in_status_for).toMatch(/^\d+d/);
      // The same in hours, and with since/until on another field (then filtered here, not upstream).
      const hours = await h.call("search_orders", { statuses: ["new"], status_older_than: "48h", limit: 100 });
      expect(hours.data.orders.map((o: { id: string }) => o.id).sort()).toEqual(expected.sort());
      const since = Date.now() - 20 * DAY;
      const ranged = await h.call("search_orders", { statuses: ["new"], status_older_than: "2 days", since: new Date(since).toISOString(), limit: 100 });
      expect(ranged.isError, ranged.text).toBe(false);
      expect(ranged.data.orders.map((o: { id: string }) => o.id).sort()).toEqual(news.filter((o) => at(o.inserted_at) >= since && expected.includes(String(o.id))).map((o) => String(o.id)).sort());
    } finally {
      news.forEach((o, i) => {
        o.last_update_status_at = saved[i]!;
      });
    }
  });

  it("combines with group_by: stuck orders by status", async () => {
    const stuck = (o: OrderRecord) => at(o.last_update_status_at) <= Date.now() - 7 * DAY;
    const working = [0, 1, 12, 13, 8, 9, 2];
    const r = await groups({ group_by: ["status"], statuses: ["new", "confirmed", "waiting_to_print", "printed", "packing", "waiting_to_ship", "shipped"], status_older_than: "1 week" });
    expect(answered(r.groups, "status")).toEqual(truth(visible().filter((o) => working.includes(o.status) && stuck(o)), (o) => o.status_name));
  });

  it("with since/until too (then filtered here), counts the total and totals of every match, and counts a partial grouping right", async () => {
    const since = Date.now() - 60 * DAY;
    const inRange = visible().filter((o) => at(o.inserted_at) >= since);
    const stale = (o: OrderRecord) => at(o.last_update_status_at) <= Date.now() - HOUR;
    const rows = await h.call("search_orders", { status_older_than: "1 hour", since: new Date(since).toISOString(), limit: 5 });
    expect(rows.isError, rows.text).toBe(false);
    expect(rows.data.next_cursor).toBeDefined();
    // Not the list's total (it counts before the filter applied here): every match, counted.
    expect(rows.data.total).toBe(inRange.filter(stale).length);
    expect(rows.data.complete).toBe(true);

    const saved = { ...GROUP_BOUNDS };
    GROUP_BOUNDS.orders = 150;
    try {
      const r = await groups({ group_by: ["status"], status_older_than: "1 hour", since: new Date(since).toISOString() }, paged);
      const read = newestOf(inRange).slice(0, 100);
      // Grouped by status, canceled orders are a group of their own.
      const counted = read.filter(stale);
      expect(counted.length).toBeLessThan(100);
      expect(r.total).toBe(counted.length);
      expect(r.note).toContain(`Read the newest 100 of the ${inRange.length} orders the list holds for these filters`);
      expect(r.note).toContain("grouped the matches among them");
    } finally {
      Object.assign(GROUP_BOUNDS, saved);
    }
  });

  it("refuses a span it cannot read, naming the forms it takes", async () => {
    for (const value of ["soon", "2 fortnights", "-3 days", "days"]) {
      const r = await h.call("search_orders", { status_older_than: value });
      expect(r.isError, value).toBe(true);
      expect(r.text).toContain("status_older_than");
      expect(r.text).toContain('"2 days", "36 hours", "1 week"');
    }
  });
});

describe("search_orders group_by province without the province lists", () => {
  const cold = useHarness({ sandbox: { ratePerSecond: 10_000 }, config: { posStatistics: false } });
  it("names each order's province as the order does, and says so", async () => {
    cold.sandbox.server.injectFault({ path: "/geo/provinces", kind: "status", status: 502, times: Number.POSITIVE_INFINITY });
    const live = cold.sandbox.pos.orders.filter((o) => !o.is_removed && !isVoid(o));
    const r = await cold.call("search_orders", { group_by: ["province"], limit: 100 });
    expect(r.isError, r.text).toBe(false);
    expect(answered(r.data.groups, "province")).toEqual(truth(live, (o) => o.shipping_address.province_name));
    expect(r.data.note).toContain("The province lists could not be read");
  });
});
