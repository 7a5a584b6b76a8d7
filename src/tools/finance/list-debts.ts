import { z } from "zod";
import { DEBT_STATUSES, statusName } from "../../clients/pos-codes.js";
import { id, num } from "../../format/compact.js";
import { sanitizeName, sanitizeText } from "../../format/text.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, limitInput, shopIdInput } from "../inputs.js";
import { codeInput, optionalCode } from "../pos/codes.js";
import { listPage } from "../pos/list-page.js";
import { shopScope } from "../pos/shop-scope.js";

/** Debt `type`: 0 the shop owes (payable), 1 owed to the shop (receivable). */
const DEBT_TYPES = ["payable", "receivable"] as const;

const row = z.looseObject({ id: z.string(), amount_due: z.number().optional(), amount_settled: z.number().optional(), remaining: z.number().optional() });

export const listDebts = defineTool({
  name: "list_debts",
  title: "List debts",
  description:
    "Payable and receivable debts with amounts due/settled and the service's `sum`.",
  toolset: "finance",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    status: codeInput(DEBT_STATUSES, "Debt status"),
    customer_id: z.string().max(64).optional().describe("Shop customer id"),
    limit: limitInput(100, 30),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({
    currency: z.string().optional(),
    sum: z.union([z.number(), z.record(z.string(), z.unknown())]).optional().describe("As the service reports it over the matching debts"),
    total: z.number().optional(),
    debts: z.array(row),
    next_cursor: z.string().optional(),
  }),
  async handler(input, ctx) {
    const status = optionalCode(DEBT_STATUSES, "status", input.status);
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    let sum: unknown;
    const page = await listPage(ctx, input, {
      tool: "list_debts",
      query: { status, shop_customer_id: input.customer_id },
      fetch: async (params) => {
        const result = await ctx.pos.listDebts(shopId, params);
        sum ??= result.sum;
        return result;
      },
      project: (d) => {
        const due = num(d.money_must_pay_or_collect);
        const settled = num(d.money_payed_or_collected);
        const customer = (d.shop_customer ?? {}) as { name?: unknown };
        return {
          id: String(d.id),
          display_id: id(d.display_id),
          name: sanitizeName(d.name_debt),
          description: sanitizeText(d.description, { max: 300 }),
          type: typeof d.type === "number" ? (DEBT_TYPES[d.type] ?? String(d.type)) : undefined,
          status: statusName(DEBT_STATUSES, d.status),
          amount_due: due,
          amount_settled: settled,
          remaining: due !== undefined && settled !== undefined ? due - settled : undefined,
          customer_id: id(d.shop_customer_id),
          customer_name: sanitizeName(customer.name),
          order_id: id(d.order_id),
          expires_at: recordTime(d.expired_at, tz),
          inserted_at: recordTime(d.inserted_at, tz),
        };
      },
    });
    const cleanSum = typeof sum === "number" || (typeof sum === "object" && sum !== null) ? (sum as number | Record<string, unknown>) : undefined;
    return { currency, sum: cleanSum, total: page.total, debts: page.rows, next_cursor: page.next_cursor };
  },
});
