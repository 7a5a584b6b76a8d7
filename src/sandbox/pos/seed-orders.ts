import { Random } from "../random.js";
import { FIRST_ORDER_ID, applyTotals, moveStatus, newOrder, orderItem, shippingAddress } from "./order-model.js";
import { SAME_CITY_PARTNERS } from "./seed-catalog.js";
import type { PosState } from "./state.js";
import { DAY, HOUR, iso, ms } from "./time.js";
import type { OrderRecord, OrderTagRecord, UserRecord } from "./types.js";

/** The usual path of an order; returns branch off after "shipped". */
const FLOW = [0, 1, 12, 13, 8, 9, 2, 3, 16];

export function statusPath(status: number): number[] {
  if (status === 11 || status === 20) return [0, status];
  const shipped = FLOW.slice(0, FLOW.indexOf(2) + 1);
  if (status === 4) return [...shipped, 4];
  if (status === 15) return [...shipped, 15];
  if (status === 5) return [...shipped, 4, 5];
  return FLOW.slice(0, FLOW.indexOf(status) + 1);
}

const statusWeights: [number, number][] = [
  [0, 6], [11, 3], [20, 3], [1, 6], [12, 3], [13, 3], [8, 3],
  [9, 4], [2, 10], [3, 24], [16, 20], [4, 4], [15, 4], [5, 7],
];
const sourceWeights: [string, number][] = [["-1", 55], ["-4", 12], ["-5", 8], ["-2", 12], ["-3", 8], ["-7", 5]];
const orderNotes = ["Giao giờ hành chính", "Gọi trước khi giao", "Khách quen, tặng kèm túi", "Cho xem hàng trước khi nhận"];
/** The shop's order tags; orders carry them as {id, name}. */
export const ORDER_TAGS: OrderTagRecord[] = [
  { id: 1, name: "Khách VIP", color: "#faad14", is_system_tag: false, groups: [] },
  { id: 2, name: "Đổi size", color: "#13c2c2", is_system_tag: false, groups: [] },
  { id: 3, name: "Giao gấp", color: "#f5222d", is_system_tag: false, groups: [] },
  { id: 4, name: "Đã gọi xác nhận", color: "#52c41a", is_system_tag: false, groups: [] },
];
const orderTags = ORDER_TAGS.slice(0, 3).map(({ id, name }) => ({ id, name }));
const CARRIERS = [1, 5, 15, 11];
export const AD_IDS = ["120210000000000101", "120210000000000102", "120210000000000103", "120210000000000104"];

function weighted<T>(rng: Random, rows: [T, number][]): T {
  let roll = rng.next() * rows.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, weight] of rows) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return rows[rows.length - 1]![0];
}

function sourceOf(state: PosState, rng: Random, id: string) {
  const top = state.orderSources.find((s) => String(s.id) === id)!;
  const accounts = state.orderSources.filter((s) => s.parent_id === Number(id));
  const account = accounts.length ? rng.pick(accounts) : undefined;
  return { id, name: top.name, account: account ? String(account.id) : null, accountName: account?.name ?? null };
}

/** Several hundred orders over the last 90 days, every status code, ids rising with time. */
export function seedOrders(state: PosState, rng: Random, count: number): void {
  const now = state.now.getTime();
  const sellers = state.users.filter((u) => u.department.name === "Sales");
  const marketer = state.users.find((u) => u.department.name === "Marketing")!;
  const care = state.users.find((u) => u.department.name === "CSKH")!;
  const buyers = state.customers.slice(0, 240);
  const stuck = new Map<OrderRecord, number>();
  const starts = Array.from({ length: count }, () => now - rng.int(10 * 60_000, 90 * DAY)).sort((a, b) => a - b);
  starts.forEach((start, index) => {
    const customer = rng.pick(buyers);
    const home = customer.shop_customer_address[0]!;
    const phone = customer.phone_numbers[0]!;
    const seller = rng.pick(sellers);
    const order = newOrder(state, {
      id: FIRST_ORDER_ID + index + 1,
      displayId: index + 1,
      at: iso(start),
      creator: seller,
      warehouse: rng.pick(state.warehouses.slice(0, 2)),
      customer,
      billName: customer.name,
      billPhone: phone,
      address: shippingAddress(state.geo, home.commune_id, home.address, customer.name, phone),
      items: Array.from({ length: rng.int(1, 3) }, (_, i) =>
        orderItem(index * 10 + i + 1, rng.pick(state.variations), rng.int(1, 2)),
      ),
      source: sourceOf(state, rng, weighted(rng, sourceWeights)),
    });
    order.shipping_fee = rng.pick([0, 20_000, 30_000]);
    order.is_free_shipping = order.shipping_fee === 0;
    order.total_discount = rng.chance(0.2) ? 20_000 : 0;
    order.transfer_money = rng.chance(0.2) ? 100_000 : 0;
    order.note = rng.chance(0.3) ? rng.pick(orderNotes) : null;
    order.tags = rng.chance(0.15) ? [rng.pick(orderTags)] : [];
    order.is_removed = rng.chance(0.02);
    if (order.order_sources === "-1" && rng.chance(0.5)) {
      order.ad_id = rng.pick(AD_IDS);
      order.ads_source = "facebook";
      order.marketer = { id: marketer.id, name: marketer.name };
      order.time_assign_marketer = iso(start + 60_000);
    }
    if (rng.chance(0.85)) {
      order.assigning_seller_id = seller.id;
      order.assigning_seller = { id: seller.id, name: seller.name };
      order.time_assign_seller = iso(start + 5 * 60_000);
    }
    if (rng.chance(0.3)) {
      order.assigning_care_id = care.id;
      order.time_assign_care = iso(start + 30 * 60_000);
    }
    applyTotals(order);
    const hold = stuckAt(order, now);
    if (hold !== undefined) stuck.set(order, hold);
    walk(state, rng, order, weighted(rng, statusWeights), seller, now, hold);
    state.orders.push(order);
  });
  sideStatusesAndWallets(state.orders.filter((o) => !stuck.has(o)), sellers[0]!, now);
  moveOn(state, new Random(84_2033), sellers[0]!, now, stuck);
  state.sequences.order = count;
  state.sequences.orderItem = count * 10;
}

/** What the carrier reports as the order moves (its extend_update), per status reached. */
const CARRIER_UPDATES: Record<number, string> = {
  9: "Chờ lấy hàng",
  2: "Đã lấy hàng, đang giao",
  3: "Giao hàng thành công",
  4: "Đang chuyển hoàn",
  15: "Giao một phần, hoàn phần còn lại",
  5: "Đã chuyển hoàn về shop",
  16: "Đã đối soát tiền thu hộ",
};

/**
 * Hours from the status before to each status ([soonest, latest]): the shop confirms, prints and
 * packs within the day, the carrier picks up within a day or so, a national carrier delivers in 1
 * to 5 days (a same-city courier within hours, SAME_CITY_HOURS), returns take days, and the
 * carrier settles COD a few days after delivery. Shipped is reached 8 hours after the order at
 * the soonest, received 32 (national carriers).
 */
const STEP_HOURS: Record<number, [number, number]> = {
  1: [1, 24],
  11: [1, 24],
  20: [1, 24],
  12: [1, 10],
  13: [0.5, 6],
  8: [0.5, 4],
  9: [1, 8],
  2: [4.5, 30],
  3: [24, 120],
  16: [48, 168],
  4: [48, 144],
  15: [48, 144],
  5: [72, 240],
};
/** Goods restocked (waiting for goods, ordered from the supplier) or a buyer's confirmation, then confirmed. */
const CONFIRM_AFTER_HOURS: Record<number, [number, number]> = { 11: [48, 240], 20: [24, 168], 17: [2, 48] };
const SAME_CITY_HOURS: [number, number] = [1, 8];

/** The next status of an order nothing holds up, from each status that is not final. */
const NEXT: Record<number, number> = { 0: 1, 17: 1, 11: 1, 20: 1, 1: 12, 12: 13, 13: 8, 8: 9, 9: 2, 2: 3, 4: 5 };

const sameCity = (state: PosState, order: OrderRecord) =>
  state.warehouses.find((w) => w.id === order.warehouse_id)?.province_id === order.shipping_address.province_id;

/** Milliseconds an order takes from its current status to `step`; `fraction` in [0, 1] places it in the range. */
function stepTime(order: OrderRecord, step: number, fraction: number): number {
  const courier = order.partner && SAME_CITY_PARTNERS.has(order.partner.partner_id);
  const [soonest, latest] =
    step === 3 && courier ? SAME_CITY_HOURS : step === 1 ? (CONFIRM_AFTER_HOURS[order.status] ?? STEP_HOURS[1]!) : STEP_HOURS[step]!;
  return (soonest + fraction * (latest - soonest)) * HOUR;
}

interface CarrierDraw {
  partner_id: number;
  extend_code: string;
}

/**
 * A carrier for the order's route: a same-city courier only where the parcel stays in the
 * warehouse's province; a draw of one for a parcel between provinces goes to a national carrier
 * chosen by the order's number (no draw, so the rest of the data set stays as it was).
 */
function routeCarrier(state: PosState, order: OrderRecord, draw: CarrierDraw): CarrierDraw {
  if (!SAME_CITY_PARTNERS.has(draw.partner_id) || sameCity(state, order)) return draw;
  const national = CARRIERS.filter((id) => !SAME_CITY_PARTNERS.has(id));
  return { ...draw, partner_id: national[order.display_id % national.length]! };
}

/** Moves an order into `step` at `at`, with what the carrier records on the way. */
function reach(state: PosState, order: OrderRecord, editor: UserRecord, step: number, at: number, carrier?: CarrierDraw): void {
  moveStatus(order, editor, step, iso(at));
  if (carrier) {
    order.partner_inserted_at = iso(at);
    order.estimate_delivery_date = iso(at + 3 * DAY);
    order.partner = {
      ...routeCarrier(state, order, carrier),
      cod: order.cod,
      total_fee: order.shipping_fee || 22_000,
      is_returned: false,
      paid_at: null,
      picked_up_at: null,
      first_delivery_at: null,
      updated_at: iso(at),
      system_created: true,
      delivery_name: null,
      delivery_tel: null,
    };
    order.partner_fee = order.partner.total_fee;
  }
  if (!order.partner) return;
  order.partner.updated_at = iso(at);
  const news = CARRIER_UPDATES[step];
  if (news) {
    order.partner.extend_update ??= [];
    const updates = order.partner.extend_update;
    updates.push({ key: String(updates.length + 1), status: news, tracking_id: order.partner.extend_code, note: "", update_at: iso(at) });
  }
  if (step === 2) order.partner.picked_up_at = iso(at);
  if (step === 3 || step === 4 || step === 15) order.partner.first_delivery_at ??= iso(at);
  if (step === 16) order.partner.paid_at = iso(at);
  if (step === 4) order.partner.is_returned = true;
}

const carrierDraw = (rng: Random): CarrierDraw => ({ partner_id: rng.pick(CARRIERS), extend_code: `S${rng.int(100_000_000, 999_999_999)}` });

/**
 * Orders stuck where a seller should chase them (a buyer who never answered the confirmation
 * call, a parcel lost in transit): every `every`-th order by number among those of an age
 * (picked by position, not by a draw). About 4 new for 2 to 20 days, 4 shipped for over a week.
 */
const STUCK = [
  { status: 0, every: 29, from: 2 * DAY, to: 20 * DAY },
  { status: 2, every: 37, from: 8 * DAY, to: 30 * DAY },
];

function stuckAt(order: OrderRecord, now: number): number | undefined {
  const age = now - ms(order.inserted_at);
  return STUCK.find((s) => order.display_id % s.every === 0 && age > s.from && age <= s.to)?.status;
}

/**
 * Takes an order along the path to `status`, each step at a shop's and a carrier's pace
 * (STEP_HOURS), no further than where it is stuck (`hold`); a young order stops at the last status
 * reached before `now`. Every step's random draws are taken all the same, so the rest of the data
 * set stays as it was.
 */
function walk(state: PosState, rng: Random, order: OrderRecord, status: number, editor: UserRecord, now: number, hold: number | undefined): void {
  let at = ms(order.inserted_at);
  let going = order.status !== hold;
  for (const step of statusPath(status).slice(1)) {
    const fraction = (rng.int(1, 30) - 1) / 29;
    const carrier = step === 9 ? carrierDraw(rng) : undefined;
    if (!going) continue;
    at += stepTime(order, step, fraction);
    going = at < now;
    if (going) reach(state, order, editor, step, at, carrier);
    going &&= step !== hold;
  }
}

/**
 * Moves on every order a shop and its carriers would have moved on by `now`: the status an order
 * was drawn to is where it goes at least, not where it sits for months (44 of 52 shipped orders
 * were in transit since August). Stuck orders stay where they are. Draws from its own generator.
 */
function moveOn(state: PosState, rng: Random, editor: UserRecord, now: number, stuck: ReadonlyMap<OrderRecord, number>): void {
  for (const order of state.orders) {
    for (let step = NEXT[order.status]; step !== undefined && stuck.get(order) !== order.status; step = NEXT[order.status]) {
      const at = ms(order.last_update_status_at) + stepTime(order, step, rng.next());
      if (at >= now) break;
      reach(state, order, editor, step, at, step === 9 ? carrierDraw(rng) : undefined);
    }
  }
}

const WALLETS = ["charged_by_momo", "charged_by_vnpay", "charged_by_card", "charged_by_kredivo", "charged_by_fundiin", "charged_by_qrpay"] as const;

/**
 * The statuses off the usual path (waiting for confirmation, canceled, deleted recently) and
 * payments through e-wallets, cards and pay-later, on a fixed share of the orders: picked by
 * position rather than by the random source, so the rest of the data set stays as it was.
 */
function sideStatusesAndWallets(orders: OrderRecord[], editor: UserRecord, now: number): void {
  const early = orders.filter((o) => o.status === 0 || o.status === 1);
  early.forEach((order, i) => {
    const at = iso(Math.min(ms(order.updated_at) + 2 * HOUR, now - 60_000));
    if (i % 6 === 1) moveStatus(order, editor, 6, at);
    else if (i % 6 === 3 && order.status === 0) moveStatus(order, editor, 17, at);
    else if (i % 9 === 5) moveStatus(order, editor, 7, at);
  });
  orders
    .filter((o) => o.transfer_money > 0)
    .forEach((order, i) => {
      if (i % 2 === 0) return;
      order[WALLETS[(i >> 1) % WALLETS.length]!] = order.transfer_money;
      order.transfer_money = 0;
      applyTotals(order);
    });
}
