import { z } from "zod";
import { TRANSACTION_STATUSES, requireStatus } from "../../clients/pos-codes.js";
import { id, num } from "../../format/compact.js";
import { parseDateInput, toYmdHms } from "../../format/time.js";
import { CREATE, defineTool } from "../define.js";
import { dateInput, jsonish, shopIdInput } from "../inputs.js";
import { nonEmpty, someOf } from "../pos/fields.js";
import { shopScope } from "../pos/shop-scope.js";
import { formatMoney } from "../../format/money.js";
import { adCostItems } from "./ad-cost-items.js";
import { planned } from "../pos/plan.js";

/** "all" only filters lists; a recorded transaction has a real status. */
const TRANSACTION_STATES = TRANSACTION_STATUSES.filter((r) => r.code >= 0);
const item = z.object({
  cost: z.number().int().refine((n) => n >= 0, "must not be negative"),
  tax: z.number().min(0).refine((n) => n <= 100, "at most 100 (%)").optional().describe("%"),
  warehouse_id: nonEmpty(64).optional(),
  product: nonEmpty(200).optional(),
  marketer: nonEmpty(120).optional(),
  source: z.object({ key: nonEmpty(32), account: nonEmpty(64).optional().describe("Page") }).optional(),
  post_ids: z.array(nonEmpty(80)).max(50).optional(),
  is_livestream: z.boolean().optional(),
  is_wholesale: z.boolean().optional(),
});

const input = z.object({
  shop_id: shopIdInput,
  cost_date: dateInput,
  transaction: jsonish(
    z.object({
      name: nonEmpty(200),
      status: z.union([z.string().max(40), z.number().int()]),
      note: z.string().max(2000).optional(),
      time_incurred: z.union([z.string().max(40), z.number().int()]).optional(),
      tags: z.array(nonEmpty(60)).max(20).optional(),
      is_locked: z.boolean().optional(),
    }),
  ).describe("The expense"),
  items: jsonish(someOf(item, 50)).describe("Costs"),
});

/** Dates, status and every reference resolved: before the user is asked, and once. */
const plan = planned(async (args: z.output<typeof input>, ctx) => {
  const tz = ctx.config.timezone;
  const { name, status, time_incurred, ...txRest } = args.transaction;
  const code = requireStatus("transaction.status", TRANSACTION_STATES, status);
  const costDate = toYmdHms(parseDateInput("cost_date", args.cost_date, tz), tz);
  // cost_date is shop wall time, time_incurred UTC: the API's example pairs 22:00 with 15:00.
  const incurred = time_incurred === undefined ? undefined : toYmdHms(parseDateInput("transaction.time_incurred", time_incurred, tz), "UTC");
  const { shopId, currency } = await shopScope(ctx, args.shop_id);
  const lines = await adCostItems(ctx.pos, shopId, args.items);
  const params = { cost_date: costDate, transaction: { ...txRest, name, status: String(code), time_incurred: incurred }, items: lines.items };
  return { shopId, currency, params, labels: lines.labels };
});

export const recordAdCost = defineTool({
  name: "record_ad_cost",
  title: "Record advertising cost",
  description:
    'Record ad spend as an expense transaction. Example: transaction {name: "QC FB", status: "in_effect"}, items [{cost: 500000}].',
  toolset: "finance",
  annotations: CREATE,
  input,
  output: z.object({
    recorded: z.boolean(),
    ad_cost_id: z.string().optional(),
    transaction_id: z.string().optional(),
    cost_date: z.string(),
    total_cost: z.number().optional(),
    items: z.array(z.string()).describe("Each cost with what it was resolved to (source, page, product, staff)"),
    currency: z.string().optional(),
  }),
  async confirm(args, ctx) {
    const { currency, labels } = await plan(args, ctx);
    const money = (n: number) => formatMoney(n, currency);
    return {
      action: "Ghi chi phí quảng cáo này?",
      details: [
        ["Ngày", String(args.cost_date)],
        ["Khoản chi", args.transaction.name],
        ["Tổng chi phí", money(args.items.reduce((sum, it) => sum + it.cost, 0))],
        ["Chi tiết", args.items.map((it, i) => [money(it.cost), labels[i]].filter(Boolean).join(": ")).join("; ")],
        ["Ghi chú", args.transaction.note],
      ],
    };
  },
  async handler(args, ctx) {
    const { shopId, currency, params, labels } = await plan(args, ctx);
    const created = await ctx.pos.createAdvCost(shopId, { params });
    const tx = created.transaction as { id?: unknown } | undefined;
    // The live service answers only {success}; ids come back where it sends them.
    return {
      recorded: true,
      ad_cost_id: id(created.id),
      transaction_id: id(tx?.id),
      // What was recorded, as resolved: the live service answers only {success}.
      cost_date: params.cost_date,
      total_cost: num(created.total_cost) ?? args.items.reduce((sum, it) => sum + it.cost, 0),
      items: args.items.map((it, i) => [formatMoney(it.cost, currency), labels[i]].filter(Boolean).join(": ")),
      currency,
    };
  },
});
