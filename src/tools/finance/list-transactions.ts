import { z } from "zod";
import { TRANSACTION_STATUSES, statusName } from "../../clients/pos-codes.js";
import { id, num } from "../../format/compact.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, limitInput, shopIdInput, sinceInput, untilInput } from "../inputs.js";
import { codeInput, optionalCode } from "../pos/codes.js";
import { listPage } from "../pos/list-page.js";
import { everyRow, SUM_MAX } from "../pos/paging.js";
import { unixRange } from "../pos/open-range.js";
import { shopScope } from "../pos/shop-scope.js";

const row = z.looseObject({ id: z.string(), name: z.string().optional(), amount: z.number().optional() });

/** Income, expense (as a positive sum) and net of every matching row. */
function totalsOf(rows: readonly Record<string, unknown>[]) {
  const amounts = rows.map((r) => num(r.amount) ?? 0);
  const income = amounts.filter((a) => a > 0).reduce((t, a) => t + a, 0);
  const expense = -amounts.filter((a) => a < 0).reduce((t, a) => t + a, 0);
  return { income, expense, net: income - expense };
}

export const listTransactions = defineTool({
  name: "list_transactions",
  title: "List income/expense transactions",
  description:
    "Cash-book transactions, newest first: amount > 0 income, < 0 expense; ad costs carry ad_cost_id.",
  toolset: "finance",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    status: codeInput(TRANSACTION_STATUSES, "Default in_effect"),
    since: sinceInput,
    until: untilInput,
    limit: limitInput(100, 30),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({
    currency: z.string().optional(),
    total: z.number().optional(),
    totals: z.object({ income: z.number(), expense: z.number(), net: z.number() }).optional(),
    transactions: z.array(row),
    next_cursor: z.string().optional(),
    note: z.string().optional(),
  }),
  async handler(input, ctx) {
    // The cash book's money is what is in effect: new, cancelled and deleted entries summed in
    // flipped a month's net from -170,000 to +660,000. "all" lists every entry.
    const status = optionalCode(TRANSACTION_STATUSES, "status", input.status ?? "in_effect");
    const range = unixRange(input.since, input.until, ctx.config.timezone);
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    const query = { status, startDateTime: range.from, endDateTime: range.to };
    const page = await listPage(ctx, input, {
      tool: "list_transactions",
      query,
      fetch: (params) => ctx.pos.listTransactions(shopId, params),
      project: (t) => ({
        id: String(t.id),
        display_id: id(t.display_id),
        name: sanitizeName(t.name),
        amount: num(t.amount),
        status: statusName(TRANSACTION_STATUSES, t.status),
        payments: t.payments ?? undefined,
        note: sanitizeText(t.note, { max: 300 }),
        ad_cost_id: id(t.advertising_cost_id),
        time_incurred: recordTime(t.time_incurred, tz),
        inserted_at: recordTime(t.inserted_at, tz),
      }),
    });
    // Summed over every match (reading them when this answer shows fewer), so "spent this year"
    // is never the sum of the first page; a first call only, a cursor's page is part of one.
    let totals: ReturnType<typeof totalsOf> | undefined;
    let note: string | undefined;
    if (!input.cursor && !page.next_cursor) totals = totalsOf(page.rows);
    else if (!input.cursor && page.total !== undefined && page.total <= SUM_MAX) {
      const all = await everyRow(page.total, (p, page_size) => ctx.pos.listTransactions(shopId, { ...query, page: p, page_size }));
      totals = totalsOf(all.map((t) => ({ amount: t.amount })));
    } else if (!input.cursor) note = `No totals over ${SUM_MAX} matches: narrow since/until to have them summed.`;
    return { currency, total: page.total, totals, transactions: page.rows, next_cursor: page.next_cursor, note };
  },
});
