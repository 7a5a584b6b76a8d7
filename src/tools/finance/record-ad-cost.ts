import { z } from "zod";
import { TRANSACTION_STATUSES } from "../../clients/pos-codes.js";
import { id, num } from "../../format/compact.js";
import { parseDateInput, toYmdHms } from "../../format/time.js";
import { CREATE, defineTool } from "../define.js";
import { dateInput, jsonish, shopIdInput } from "../inputs.js";
import { toCode } from "./codes.js";
import { shopScope } from "./shop-scope.js";

/** "all" only filters lists; a recorded transaction has a real status. */
const TRANSACTION_STATES = TRANSACTION_STATUSES.filter((r) => r.code >= 0);
const text = (max: number) => z.string().trim().min(1).max(max);

const item = z.object({
  cost: z.number().int().nonnegative(),
  tax: z.number().min(0).max(100).optional().describe("percent"),
  warehouse_id: text(64).optional(),
  product: text(64).optional().describe("product id"),
  marketer: text(120).optional().describe("marketer e-mail or user id"),
  source: z.object({ key: text(32), account: text(64).optional() }).optional().describe("order source"),
  post_ids: z.array(text(80)).max(50).optional(),
  is_livestream: z.boolean().optional(),
  is_wholesale: z.boolean().optional(),
});

export const recordAdCost = defineTool({
  name: "record_ad_cost",
  title: "Record advertising cost",
  description:
    'Record advertising spend, split into cost items (per product, marketer, order source or posts); the shop books it as an expense transaction (see list_transactions). Example: cost_date "2026-11-20", transaction {"name":"Quảng cáo FB","status":"in_effect"}, items [{"cost":500000,"tax":10}].',
  toolset: "finance",
  annotations: CREATE,
  input: z.object({
    shop_id: shopIdInput,
    cost_date: dateInput.describe("Day or time of the spend"),
    transaction: jsonish(
      z.object({
        name: text(200),
        status: z.union([z.string().max(40), z.number().int()]).describe("transaction status name or code"),
        note: z.string().max(2000).optional(),
        time_incurred: dateInput.optional(),
        tags: z.array(text(60)).max(20).optional(),
        is_locked: z.boolean().optional(),
      }),
    ).describe("The expense transaction to book: name and status required"),
    items: jsonish(z.array(item).min(1).max(50)).describe("Cost items: cost (integer) required; tax in percent"),
  }),
  output: z.object({ ad_cost_id: z.string().optional(), transaction_id: z.string().optional(), total_cost: z.number().optional(), currency: z.string().optional() }),
  async handler(input, ctx) {
    const tz = ctx.config.timezone;
    const { name, status, time_incurred, ...txRest } = input.transaction;
    const code = toCode(TRANSACTION_STATES, "transaction.status", status);
    const costDate = toYmdHms(parseDateInput("cost_date", input.cost_date, tz), tz);
    const incurred = time_incurred === undefined ? undefined : toYmdHms(parseDateInput("transaction.time_incurred", time_incurred, tz), tz);
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const created = await ctx.pos.createAdvCost(shopId, {
      params: {
        cost_date: costDate,
        transaction: { ...txRest, name, status: String(code), time_incurred: incurred },
        items: input.items.map(({ marketer, ...rest }) => ({ ...rest, pke_mkter: marketer })),
      },
    });
    const tx = created.transaction as { id?: unknown } | undefined;
    return {
      ad_cost_id: id(created.id),
      transaction_id: id(tx?.id),
      total_cost: num(created.total_cost),
      currency,
    };
  },
});
