import { z } from "zod";
import { TRANSACTION_STATUSES, requireStatus } from "../../clients/pos-codes.js";
import { id, num } from "../../format/compact.js";
import { parseDateInput, toIsoInZone, toYmdHms } from "../../format/time.js";
import { CREATE, defineTool } from "../define.js";
import { dateInput, jsonish, shopIdInput } from "../inputs.js";
import { nonEmpty, someOf } from "../pos/fields.js";
import { shopScope } from "../pos/shop-scope.js";
import { formatMoney } from "../../format/money.js";
import { adCostItems } from "./ad-cost-items.js";
import { planned } from "../pos/plan.js";
import { readBack, verifiedShape } from "../verify.js";
import { adCostEntriesBefore, entryNotApplied, entryTime, findAdCostEntry, tagNames, tieNote } from "./ad-cost-entry.js";

/** "all" only filters lists; a recorded transaction has a real status. */
const TRANSACTION_STATES = TRANSACTION_STATUSES.filter((r) => r.code >= 0);
const item = z.object({
  cost: z.number().int().refine((n) => n > 0, "must be above 0"),
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
  cost_date: dateInput.optional().describe("Day of the cost; default today"),
  campaign: nonEmpty(60).optional().describe("Kept as an expense tag"),
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

/** Dates, status, tags and every reference resolved: before the user is asked, and once. */
const plan = planned(async (args: z.output<typeof input>, ctx) => {
  const tz = ctx.config.timezone;
  const { name, status, time_incurred, tags: given, ...txRest } = args.transaction;
  const code = requireStatus("transaction.status", TRANSACTION_STATES, status);
  const incurredAt = time_incurred === undefined ? undefined : parseDateInput("transaction.time_incurred", time_incurred, tz);
  // The cost's day dates the cash-book entry too: left out, the POS dates the entry when it is written.
  const day = args.cost_date === undefined ? (incurredAt ?? new Date()) : parseDateInput("cost_date", args.cost_date, tz);
  const incurred = incurredAt ?? day;
  const tags = tagNames(given, args.campaign);
  const { shopId, currency } = await shopScope(ctx, args.shop_id);
  const lines = await adCostItems(ctx.pos, shopId, args.items);
  // cost_date is shop wall time, time_incurred UTC: the API's example pairs 22:00 with 15:00.
  const transaction = { ...txRest, name, status: String(code), time_incurred: toYmdHms(incurred, "UTC"), tags: tags.length ? tags : undefined };
  const params = { cost_date: toYmdHms(day, tz), transaction, items: lines.items };
  const total = args.items.reduce((sum, it) => sum + Math.round(it.cost * (1 + (it.tax ?? 0) / 100)), 0);
  return { shopId, currency, params, labels: lines.labels, day, incurred, code, tags, total };
});

export const recordAdCost = defineTool({
  name: "record_ad_cost",
  title: "Record advertising cost",
  description:
    'Record ad spend as an expense transaction. Example: campaign "Sale 12.12", transaction {name: "QC FB", status: "in_effect"}, items [{cost: 500000}].',
  toolset: "finance",
  annotations: CREATE,
  input,
  output: z.object({
    recorded: z.boolean(),
    ad_cost_id: z.string().optional(),
    transaction_id: z.string().optional(),
    cost_date: z.string().describe("The cost's day, as sent"),
    time_incurred: z.string().describe("The cash-book entry's date, as it holds it"),
    total_cost: z.number().optional(),
    tags: z.array(z.string()).optional().describe("Tag names sent (the campaign among them)"),
    items: z.array(z.string()).describe("Each cost with what it was resolved to (source, page, product, staff)"),
    tie: z.string().optional().describe("How to tie the cost to a page, post or product"),
    currency: z.string().optional(),
    ...verifiedShape,
  }),
  async confirm(args, ctx) {
    const { currency, labels, day, tags, total } = await plan(args, ctx);
    const money = (n: number) => formatMoney(n, currency);
    return {
      action: "Ghi chi phí quảng cáo này?",
      details: [
        ["Ngày", toYmdHms(day, ctx.config.timezone).slice(0, 16)],
        ["Khoản chi", args.transaction.name],
        ["Thẻ", tags.join(", ") || undefined],
        ["Tổng chi phí", money(total)],
        ["Chi tiết", args.items.map((it, i) => [money(it.cost), labels[i]].filter(Boolean).join(": ")).join("; ")],
        ["Ghi chú", args.transaction.note],
      ],
    };
  },
  async handler(args, ctx) {
    const tz = ctx.config.timezone;
    const { shopId, currency, params, labels, day, incurred, code, tags, total } = await plan(args, ctx);
    const before = await adCostEntriesBefore(ctx.pos, shopId);
    // Sent once (writes are never retried); the live service answers only {success}.
    await ctx.pos.createAdvCost(shopId, { params });
    const back = await readBack("ad cost", () => findAdCostEntry(ctx.pos, shopId, params.transaction.name, -total, before));
    const entry = back.record;
    const sent = {
      dateField: args.transaction.time_incurred === undefined ? "cost_date" : "transaction.time_incurred",
      tagField: args.campaign === undefined ? "transaction.tags" : "campaign",
      incurred,
      status: code,
      tags,
      note: args.transaction.note,
      is_locked: args.transaction.is_locked,
    };
    return {
      recorded: true,
      ad_cost_id: id(entry?.advertising_cost_id),
      transaction_id: id(entry?.id),
      cost_date: toIsoInZone(day, tz),
      time_incurred: entryTime(entry, incurred, tz),
      // What the cash book holds, else the sum the POS books (each cost with its tax).
      total_cost: entry && num(entry.amount) !== undefined ? -num(entry.amount)! : total,
      tags: tags.length ? tags : undefined,
      items: args.items.map((it, i) => [formatMoney(it.cost, currency), labels[i]].filter(Boolean).join(": ")),
      tie: tieNote(args.items),
      currency,
      not_applied: entry && entryNotApplied(sent, entry, tz),
      unverified: back.unverified,
    };
  },
});
