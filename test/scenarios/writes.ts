import { ORDER_STATUSES, statusName } from "../../src/clients/pos-codes.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import type { OrderRecord } from "../../src/sandbox/pos/types.js";
import type { Scenario } from "./framework.js";

// Writes a seller asks for, made the way a model would from the default tools, each answer
// checked against what the sandbox's records hold afterwards: what the tool says was done must
// be what was done, and what did not take must say so.

const liveOrders = (s: Sandbox) => s.pos.orders.filter((o) => !o.is_removed);
const orderStatus = (o: OrderRecord) => statusName(ORDER_STATUSES, o.status);

/** Orders picked when a question is asked (before the write changes what they are picked by). */
const picked: { confirm?: OrderRecord[]; tag?: OrderRecord[]; tagsBefore?: string[][]; cancel?: OrderRecord; cancelNote?: string | null; fee?: OrderRecord } = {};

/** The product whose size M a price question names, and its M variants. */
const product = (s: Sandbox) => s.pos.products.find((p) => p.name === "Áo thun Hàn Quốc")!;
const sizeM = (s: Sandbox) => s.pos.variations.filter((v) => v.product_id === product(s).id && v.fields.some((f) => f.name === "Size" && f.value === "M"));

export const writeScenarios: Scenario<unknown>[] = [
  {
    question: "Confirm orders #a, #b and #c.",
    async ask(q) {
      picked.confirm = liveOrders(q.sandbox).filter((o) => o.status === 0 && !o.note).slice(0, 3);
      const r = await q.call("update_order", { order_ids: picked.confirm.map((o) => `#${o.display_id}`), status: "confirmed" });
      return Object.fromEntries(r.data.results.map((row: { order: string; result: string; status_name: string }) => [row.order, `${row.result}: ${row.status_name}`]));
    },
    truth: () => {
      if (!picked.confirm!.every((o) => o.status === 1)) throw new Error("an order was not confirmed");
      return Object.fromEntries(picked.confirm!.map((o) => [`#${o.display_id}`, `ok: ${orderStatus(o)}`]));
    },
  },
  {
    question: "Tag orders #a and #b 'Giao gấp'.",
    async ask(q) {
      // One with a tag already: what was there stays.
      const live = liveOrders(q.sandbox).filter((o) => ![6, 7].includes(o.status) && !o.tags.some((t) => t.name === "Giao gấp"));
      picked.tag = [live.find((o) => o.tags.length === 1)!, live.find((o) => o.tags.length === 0)!];
      picked.tagsBefore = picked.tag.map((o) => o.tags.map((t) => t.name));
      const r = await q.call("update_order", { order_ids: picked.tag.map((o) => `#${o.display_id}`), add_tags: ["giao gap"] });
      return Object.fromEntries(r.data.results.map((row: { order: string; tags: string[] }) => [row.order, row.tags]));
    },
    truth: () => {
      picked.tag!.forEach((o, i) => {
        if (JSON.stringify(o.tags.map((t) => t.name)) !== JSON.stringify([...picked.tagsBefore![i]!, "Giao gấp"])) throw new Error(`#${o.display_id} lost or missed a tag`);
      });
      return Object.fromEntries(picked.tag!.map((o) => [`#${o.display_id}`, o.tags.map((t) => t.name)]));
    },
  },
  {
    question: "Cancel #n because the customer changed her mind.",
    async ask(q) {
      picked.cancel = liveOrders(q.sandbox).find((o) => o.status === 0 && o.note)!;
      picked.cancelNote = picked.cancel.note;
      const r = await q.call("update_order", { order_id: `#${picked.cancel.display_id}`, status: "cancelled", reason: "khách đổi ý" });
      return { status: r.data.order.status_name, note: r.data.order.staff_note, replaced_nothing: r.data.replaced_note === undefined };
    },
    // The reason is added below the note the order had: nothing the staff wrote is lost.
    truth: () => {
      if (picked.cancel!.status !== 6) throw new Error("the order was not cancelled");
      return { status: orderStatus(picked.cancel!), note: picked.cancel!.note, replaced_nothing: picked.cancel!.note === `${picked.cancelNote}\nLý do hủy: khách đổi ý` };
    },
  },
  {
    question: "Set the shipping fee of #n to 0.",
    async ask(q) {
      picked.fee = liveOrders(q.sandbox).find((o) => o.status === 1 && o.shipping_fee > 0)!;
      const r = await q.call("update_order", { order_id: `#${picked.fee.display_id}`, shipping_fee: 0 });
      const [missed] = r.data.not_applied;
      return { fee_now: r.data.order.shipping_fee, not_applied: missed.field, holds: missed.holds, says_what_to_do: /POS app.*create_order/.test(missed.fix) };
    },
    // The live POS keeps the fee of an existing order (so does the sandbox): the answer must say so.
    truth: () => ({ fee_now: picked.fee!.shipping_fee, not_applied: "shipping_fee", holds: picked.fee!.shipping_fee, says_what_to_do: true }),
  },
  {
    question: "Change the price of Áo thun Hàn Quốc M to 199k.",
    async ask(q) {
      const r = await q.call("update_product_prices", { product: "Áo thun Hàn Quốc", prices: [{ variant: "M", price: 199_000 }] });
      if (r.data.not_applied) throw new Error(`not applied: ${JSON.stringify(r.data.not_applied)}`);
      return r.data.changed.map((c: { sku: string; price: number }) => `${c.sku}: ${c.price}`);
    },
    truth: (s) => {
      if (!sizeM(s).every((v) => v.retail_price === 199_000)) throw new Error("the price was not changed");
      return sizeM(s).map((v) => `${v.display_id}: ${v.retail_price}`);
    },
  },
];
