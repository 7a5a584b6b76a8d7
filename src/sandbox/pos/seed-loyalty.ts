import type { Random } from "../random.js";
import { makeReturn } from "./return-model.js";
import type { PosState } from "./state.js";
import { HOUR, iso, ms } from "./time.js";
import type { OrderRecord } from "./types.js";

const SUCCEEDED = new Set([3, 16]);

/** The time an order entered `status`, from its history. */
export function enteredAt(order: OrderRecord, status: number): string | undefined {
  return order.status_history.find((h) => h.status === status)?.updated_at;
}

/** Return orders for the returned and partly returned orders, linked both ways. */
export function seedReturns(state: PosState, rng: Random): void {
  const clerk = state.users.find((u) => u.department.name === "Kho")!;
  for (const original of state.orders) {
    if (original.is_removed || (original.status !== 5 && original.status !== 15)) continue;
    const full = original.status === 5;
    const lines = full
      ? original.items.map((item) => ({ item, quantity: item.quantity }))
      : [{ item: original.items[0]!, quantity: 1 }];
    const at = ms(enteredAt(original, original.status)!) + HOUR;
    const id = state.returnOrders.length + 1;
    state.returnOrders.push(
      makeReturn(state, {
        id,
        original,
        lines,
        status: full ? 1 : rng.pick([0, 2, 1, 4]),
        at: iso(Math.min(at, state.now.getTime())),
        warehouseId: original.warehouse_id,
        creator: clerk,
        exchange: null,
        restock: false,
      }),
    );
  }
  state.sequences.returnOrder = state.returnOrders.length;
}

/**
 * Order counts, spend, points and levels of customers, derived from their orders: one point per
 * 10,000 VND of a received order, and a few redemptions.
 */
export function seedLoyalty(state: PosState, rng: Random): void {
  const cashier = state.users[0]!;
  const levels = [...state.levels].sort((a, b) => b.upgrade_by_total_purchase - a.upgrade_by_total_purchase);
  for (const customer of state.customers) {
    const orders = state.orders.filter((o) => o.shop_customer_id === customer.id && !o.is_removed);
    const succeeded = orders.filter((o) => SUCCEEDED.has(o.status));
    customer.order_count = orders.length;
    customer.succeed_order_count = succeeded.length;
    customer.purchased_amount = succeeded.reduce((sum, o) => sum + o.total_price, 0);
    customer.last_order_at = orders.at(-1)?.inserted_at ?? null;
    let points = 0;
    for (const order of succeeded) {
      const earned = Math.floor(order.total_price / 10_000);
      points += earned;
      const at = enteredAt(order, 3)!;
      state.pointLogs.push({
        shop_customer_id: customer.id,
        amount: earned,
        current_point: points,
        creator: { id: cashier.id, name: cashier.name, fb_id: cashier.fb_id, avatar_url: null },
        inserted_at: at,
        note: `Tích điểm từ đơn hàng #${order.display_id}`,
      });
      if (points >= 100 && rng.chance(0.3)) {
        points -= 50;
        state.pointLogs.push({
          shop_customer_id: customer.id,
          amount: -50,
          current_point: points,
          creator: { id: cashier.id, name: cashier.name, fb_id: cashier.fb_id, avatar_url: null },
          inserted_at: at,
          note: "Đổi điểm lấy voucher 50.000đ",
        });
      }
    }
    customer.reward_point = points;
    customer.level_id = levels.find((l) => customer.purchased_amount >= l.upgrade_by_total_purchase)?.id ?? null;
  }
}
