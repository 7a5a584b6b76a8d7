import { z } from "zod";
import { DEBT_STATUSES, findStatus, statusName } from "../../clients/pos-codes.js";
import type { PosDebt } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { orderNumber, upstreamRecord } from "../../format/orders.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";
import { recordTime } from "../../format/time.js";
import { encodeCursor } from "../cursor.js";
import { defineTool, READ } from "../define.js";
import { cursorInput, detailRowsInput, limitInput, shopIdInput } from "../inputs.js";
import { codeInput, optionalCode } from "../pos/codes.js";
import { customerId } from "../pos/customer-ref.js";
import { pagedList } from "../pos/paging.js";
import { shopScope } from "../pos/shop-scope.js";

/** Debt `type`: 0 the shop owes (payable), 1 owed to the shop (receivable). */
const DEBT_TYPES = ["payable", "receivable"] as const;
/** Upstream pages of 100 read for the totals; past them the totals say they are partial. */
const TOTAL_PAGES = 20;
const PAGE = 100;

const row = z.looseObject({ id: z.string(), amount_due: z.number().optional(), amount_settled: z.number().optional(), remaining: z.number().optional() });
const sums = z.object({ count: z.number(), due: z.number(), settled: z.number(), remaining: z.number() });
const payableSums = sums.extend({ to_suppliers: sums.optional(), to_customers: sums.optional() });

type Query = { status?: number; shop_customer_id?: string; type?: number };

const amounts = (d: PosDebt) => {
  const due = num(d.money_must_pay_or_collect);
  const settled = num(d.money_payed_or_collected);
  return { due, settled, remaining: due !== undefined && settled !== undefined ? due - settled : undefined };
};

/**
 * Count and money of each direction asked for (both when none is): the upstream `sum` adds both
 * directions together, and a payable figure beside a receivable question reads as part of it.
 */
type Sums = z.infer<typeof sums>;
const CANCELLED = findStatus(DEBT_STATUSES, "cancelled")!.code;
const zero = (): Sums => ({ count: 0, due: 0, settled: 0, remaining: 0 });

function add(t: Sums, d: PosDebt) {
  const a = amounts(d);
  t.count += 1;
  t.due += a.due ?? 0;
  t.settled += a.settled ?? 0;
  t.remaining += a.remaining ?? 0;
}

/** Who a debt is with: a supplier (supplier_products_id) or a customer. */
const partyOf = (d: PosDebt) => ((d as Record<string, unknown>).supplier_products_id == null ? "customers" : "suppliers");

/**
 * Count and money of each direction asked for (both when none is): the upstream `sum` adds both
 * directions together, and a payable figure beside a receivable question reads as part of it.
 * What the shop owes is split by party: refunds due to customers are not debts to suppliers.
 * Cancelled debts are left out unless they are what was asked for.
 */
function totalsOf(debts: PosDebt[], direction: (typeof DEBT_TYPES)[number] | undefined, status: number | undefined) {
  const totals: Partial<Record<(typeof DEBT_TYPES)[number], Sums & { to_suppliers?: Sums; to_customers?: Sums }>> = Object.fromEntries(
    (direction ? [direction] : DEBT_TYPES).map((t) => [t, t === "payable" ? { ...zero(), to_suppliers: zero(), to_customers: zero() } : zero()]),
  );
  for (const d of debts) {
    // A cancelled debt is owed by nobody: summed in, it read as money still due.
    if (d.status === CANCELLED && status !== CANCELLED) continue;
    const t = totals[DEBT_TYPES[d.type ?? -1] ?? "receivable"];
    if (!t || DEBT_TYPES[d.type ?? -1] === undefined) continue;
    add(t, d);
    const party = partyOf(d) === "suppliers" ? t.to_suppliers : t.to_customers;
    if (party) add(party, d);
  }
  return totals;
}

export const listDebts = defineTool({
  name: "list_debts",
  title: "List debts",
  description:
    "Debts with amounts due/settled/remaining; totals over all that match but cancelled (first call). Who owes us: direction receivable, status open.",
  toolset: "finance",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    direction: z.enum(DEBT_TYPES).optional().describe("receivable: owed to the shop; payable: the shop owes"),
    status: codeInput(DEBT_STATUSES, "Debt status"),
    customer_id: z.string().max(120).optional().describe("Customer id, phone or name"),
    limit: limitInput(100, 30),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({
    currency: z.string().optional(),
    totals: z.object({ receivable: sums.optional(), payable: payableSums.optional(), partial: z.boolean().optional() }).optional(),
    total: z.number().optional(),
    debts: z.array(row),
    next_cursor: z.string().optional(),
  }),
  async handler(input, ctx) {
    const status = optionalCode(DEBT_STATUSES, "status", input.status);
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    const project = (d: PosDebt) => {
      if (input.detail === "full") return upstreamRecord(d);
      const customer = (d.shop_customer ?? {}) as { name?: unknown };
      const a = amounts(d);
      return {
        id: String(d.id),
        display_id: id(d.display_id),
        name: sanitizeName(d.name_debt),
        description: sanitizeText(d.description, { max: 300 }),
        type: typeof d.type === "number" ? (DEBT_TYPES[d.type] ?? String(d.type)) : undefined,
        status: statusName(DEBT_STATUSES, d.status),
        amount_due: a.due,
        amount_settled: a.settled,
        remaining: a.remaining,
        party: partyOf(d) === "suppliers" ? "supplier" : "customer",
        customer_id: id(d.shop_customer_id),
        customer_name: sanitizeName(customer.name),
        supplier_id: id((d as Record<string, unknown>).supplier_products_id),
        order: orderNumber((d as { order?: { display_id?: unknown } | null }).order?.display_id),
        order_id: id(d.order_id),
        expires_at: recordTime(d.expired_at, tz),
        inserted_at: recordTime(d.inserted_at, tz),
      };
    };
    // The list has no direction filter: `type` is matched here, and travels in the cursor.
    const fetch = ({ type: _type, ...q }: Query, page: number, page_size: number) => ctx.pos.listDebts(shopId, { ...q, page, page_size });
    const keep = (d: PosDebt, q: Query) => q.type === undefined || d.type === q.type;
    if (input.cursor) {
      const page = await pagedList("list_debts", input, () => ({}) as Query, fetch, ctx.progress, {
        active: (q) => q.type !== undefined,
        keep,
        maxPages: TOTAL_PAGES,
      });
      return { currency, total: page.total, debts: page.rows.map(project), next_cursor: page.next_cursor };
    }

    // First call: every matching debt is read once, for the totals and the first rows alike.
    const customer = input.customer_id === undefined ? undefined : await customerId(ctx.pos, shopId, "customer_id", input.customer_id);
    const q: Query = { status, shop_customer_id: customer, type: input.direction && DEBT_TYPES.indexOf(input.direction) };
    const read: PosDebt[] = [];
    let complete = false;
    for (let page = 1; page <= TOTAL_PAGES && !complete; page++) {
      const got = await fetch(q, page, PAGE);
      read.push(...got.data);
      complete = got.data.length < PAGE || (got.total_entries !== undefined && read.length >= got.total_entries);
      if (!complete) await ctx.progress(read.length, got.total_entries, `page ${page}`);
    }
    const matched = read.flatMap((d, index) => (keep(d, q) ? [{ d, index }] : []));
    const after = matched[input.limit];
    const resume = after ? { pg: Math.floor(after.index / PAGE) + 1, off: after.index % PAGE } : complete ? undefined : { pg: TOTAL_PAGES + 1, off: 0 };
    return {
      currency,
      totals: { ...totalsOf(read, input.direction, status), partial: complete ? undefined : true },
      total: complete ? matched.length : undefined,
      debts: matched.slice(0, input.limit).map(({ d }) => project(d)),
      next_cursor: resume && encodeCursor("list_debts", input, { q, ...resume, ps: PAGE }),
    };
  },
});
