import type { Sandbox } from "../../src/sandbox/index.js";
import type { Scenario } from "./framework.js";

// Addresses as customers write them since the reform of 1 July 2025: a province and a ward, no
// district. The truth comes from the sandbox's address lists, never from the tools' matching.

const STREET = "12 Lê Lợi";

/** Phường Sài Gòn and the post-2025 province it belongs to, from the raw address data. */
function saiGon(s: Sandbox) {
  const ward = s.pos.geo.wards.find((w) => w.name === "Phường Sài Gòn")!;
  return { ward, province: s.pos.geo.newProvinces.find((p) => p.id === ward.province_id)! };
}

/** "This order": the oldest order still new, the one a seller would be fixing before it ships. */
const newOrder = (s: Sandbox) => s.pos.orders.find((o) => o.status === 0 && !o.is_removed)!;

export const addressScenarios: Scenario<unknown>[] = [
  {
    question: "What is the ward id of Phường Sài Gòn?",
    async ask(q) {
      const r = await q.call("lookup_address", { query: "Phường Sài Gòn" });
      const top = r.data.matches[0];
      return { ward: top.commune.id, province: top.province.id };
    },
    truth: (s) => ({ ward: saiGon(s).ward.id, province: saiGon(s).province.id }),
  },
  {
    question: "Ship this order to 12 Lê Lợi, Phường Sài Gòn, TP HCM.",
    async ask(q) {
      const order = newOrder(q.sandbox);
      const r = await q.call("update_order", { order_id: `#${order.display_id}`, shipping_address: { address: `${STREET}, Phường Sài Gòn, TP HCM` } });
      return { order: r.data.order.id, address: r.data.order.address.full_address, form: r.data.address_match.form };
    },
    truth: (s) => ({ order: String(newOrder(s).id), address: `${STREET}, ${saiGon(s).ward.name}, ${saiGon(s).province.name}`, form: "new" }),
  },
];
