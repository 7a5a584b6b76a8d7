import { z } from "zod";
import { pageMemory } from "../../clients/list-checks.js";
import { InputError } from "../../clients/errors.js";
import { DEBT_STATUSES, findStatus, statusName } from "../../clients/pos-codes.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosDebt } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { orderNumber, upstreamRecord } from "../../format/orders.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";
import { recordDate, recordTime } from "../../format/time.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { defineTool, READ, type ToolContext } from "../define.js";
import { cursorInput, detailRowsInput, shopIdInput, totalsLimitInput } from "../inputs.js";
import { codeInput, optionalCode } from "../pos/codes.js";
import { customerId } from "../pos/customer-ref.js";
import { shopScope } from "../pos/shop-scope.js";

/** Debt `type`: 0 the shop owes (payable), 1 owed to the shop (receivable). */
const DEBT_TYPES = ["payable", "receivable"] as const;
/** Upstream pages of 100 read per call; past them the totals say they are partial. */
const TOTAL_PAGES = 20;
const PAGE = 100;

/** What a list sorts on, each a row field: money still owed or first due, the due date, the day written. */
const SORTS = ["remaining", "amount_due", "expires_at", "inserted_at"] as const;
type Sort = (typeof SORTS)[number];

const row = z.looseObject({ id: z.string(), amount_due: z.number().optional(), amount_settled: z.number().optional(), remaining: z.number().optional() });
const sums = z.object({
  count: z.number(),
  due: z.number(),
  settled: z.number(),
  remaining: z.number(),
  overdue: z.object({ count: z.number(), remaining: z.number() }).describe("Open, past expires_at, money still owed"),
});
const payableSums = sums.extend({ to_suppliers: sums.optional(), to_customers: sums.optional() });

type Query = { status?: number | undefined; shop_customer_id?: string | undefined; type?: number | undefined };

const amounts = (d: PosDebt) => {
  const due = num(d.money_must_pay_or_collect);
  const settled = num(d.money_payed_or_collected);
  return { due, settled, remaining: due !== undefined && settled !== undefined ? due - settled : undefined };
};

type Sums = z.infer<typeof sums>;
const OPEN = findStatus(DEBT_STATUSES, "open")!.code;
const CANCELLED = findStatus(DEBT_STATUSES, "cancelled")!.code;
const zero = (): Sums => ({ count: 0, due: 0, settled: 0, remaining: 0, overdue: { count: 0, remaining: 0 } });

/** An open debt past its due date with money still owed: what "overdue" means in rows and totals. */
const isOverdue = (d: PosDebt, now: number) =>
  d.status === OPEN && (amounts(d).remaining ?? 0) > 0 && (recordDate(d.expired_at)?.getTime() ?? Number.POSITIVE_INFINITY) < now;

function add(t: Sums, d: PosDebt, now: number) {
  const a = amounts(d);
  t.count += 1;
  t.due += a.due ?? 0;
  t.settled += a.settled ?? 0;
  t.remaining += a.remaining ?? 0;
  if (isOverdue(d, now)) {
    t.overdue.count += 1;
    t.overdue.remaining += a.remaining ?? 0;
  }
}

/** Who a debt is with: a supplier (supplier_products_id) or a customer. */
const partyOf = (d: PosDebt) => ((d as Record<string, unknown>).supplier_products_id == null ? "customers" : "suppliers");

/**
 * Count and money of each direction asked for (both when none is): the upstream `sum` adds both
 * directions together, and a payable figure beside a receivable question reads as part of it.
 * What the shop owes is split by party: refunds due to customers are not debts to suppliers.
 * Cancelled debts are left out unless they are what was asked for.
 */
function totalsOf(debts: PosDebt[], direction: (typeof DEBT_TYPES)[number] | undefined, status: number | undefined, now: number) {
  const totals: Partial<Record<(typeof DEBT_TYPES)[number], Sums & { to_suppliers?: Sums; to_customers?: Sums }>> = Object.fromEntries(
    (direction ? [direction] : DEBT_TYPES).map((t) => [t, t === "payable" ? { ...zero(), to_suppliers: zero(), to_customers: zero() } : zero()]),
  );
  for (const d of debts) {
    // A cancelled debt is owed by nobody: summed in, it read as money still due.
    if (d.status === CANCELLED && status !== CANCELLED) continue;
    const t = totals[DEBT_TYPES[d.type ?? -1] ?? "receivable"];
    if (!t || DEBT_TYPES[d.type ?? -1] === undefined) continue;
    add(t, d, now);
    const party = partyOf(d) === "suppliers" ? t.to_suppliers : t.to_customers;
    if (party) add(party, d, now);
  }
  return totals;
}

/** A debt's value for a sort: its money, or its time (ms); none sorts last either way. */
function sortValue(d: PosDebt, sort: Sort): number | undefined {
  if (sort === "remaining") return amounts(d).remaining;
  if (sort === "amount_due") return amounts(d).due;
  return recordDate(sort === "expires_at" ? d.expired_at : d.inserted_at)?.getTime();
}

/** Debts sorted, largest or latest first (or the other way), ties and the valueless in the list's order. */
function sorted(debts: PosDebt[], sort: Sort | undefined, ascending: boolean | undefined): PosDebt[] {
  if (!sort) return debts;
  const keyed = debts.map((d, i) => ({ d, i, v: sortValue(d, sort) }));
  keyed.sort((a, b) => {
    if (a.v === undefined || b.v === undefined) return a.v === b.v ? a.i - b.i : a.v === undefined ? 1 : -1;
    return (ascending ? a.v - b.v : b.v - a.v) || a.i - b.i;
  });
  return keyed.map((k) => k.d);
}

/** Every debt of a query, read once: the totals, the sort and every page of rows come from the same read. */
async function readDebts(pos: PosClient, shopId: string, q: Query, progress: ToolContext["progress"]) {
  const read: PosDebt[] = [];
  let complete = false;
  const seen = pageMemory();
  for (let page = 1; page <= TOTAL_PAGES && !complete; page++) {
    // The list has no direction filter: `type` is matched here.
    const { type: _type, ...params } = q;
    const got = await pos.listDebts(shopId, { ...params, page, page_size: PAGE });
    // A page served again is the list's end (issue 43), not more debts.
    if (seen(page, got.data) !== undefined) break;
    read.push(...got.data);
    complete = got.data.length < PAGE || (got.total_entries !== undefined && read.length >= got.total_entries);
    if (!complete) await progress(read.length, got.total_entries, `page ${page}`);
  }
  return { read, complete, matched: read.filter((d) => q.type === undefined || d.type === q.type) };
}

/** Where a list stands: its query, its sort, and how many rows were shown. */
const debtCursor = z.object({
  q: z.object({ status: z.number().optional(), shop_customer_id: z.string().optional(), type: z.number().optional() }),
  s: z.enum(SORTS).optional(),
  asc: z.boolean().optional(),
  at: z.number().int().min(1).max(TOTAL_PAGES * PAGE),
});

export const listDebts = defineTool({
  name: "list_debts",
  title: "List debts",
  description: "Debts, and totals (overdue too) of every match but cancelled. Who owes most: direction receivable, status open, sort_by remaining.",
  toolset: "finance",
  annotations: READ,
  input: z.object({
    shop_id: shopIdInput,
    direction: z.enum(DEBT_TYPES).optional().describe("receivable: owed to the shop; payable: the shop owes"),
    status: codeInput(DEBT_STATUSES, "Debt status"),
    customer_id: z.string().max(120).optional().describe("Customer id, phone or name"),
    sort_by: z.enum(SORTS).optional().describe("Largest/latest first (default newest)"),
    ascending: z.boolean().optional().describe("Smallest/earliest first"),
    limit: totalsLimitInput(100, 30),
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
    if (input.ascending !== undefined && !input.sort_by) throw new InputError("ascending", "orders what sort_by sorts, and none is given", `Pass sort_by: ${SORTS.join(", ")}.`);
    if (input.limit === 0 && input.cursor) throw new InputError("limit", "0 asks for the totals alone, and a cursor continues rows", "Drop cursor, or pass a limit above 0.");
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    const now = Date.now();
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
        overdue: isOverdue(d, now) || undefined,
        inserted_at: recordTime(d.inserted_at, tz),
      };
    };
    // Every call reads every matching debt (a shop holds few): the totals come with every page,
    // and a sort is over all of them, not over one upstream page.
    const state = input.cursor ? decodeCursor("list_debts", input, debtCursor) : undefined;
    const status = state ? state.q.status : optionalCode(DEBT_STATUSES, "status", input.status);
    const customer = state || input.customer_id === undefined ? state?.q.shop_customer_id : await customerId(ctx.pos, shopId, "customer_id", input.customer_id);
    const q: Query = state?.q ?? { status, shop_customer_id: customer, type: input.direction && DEBT_TYPES.indexOf(input.direction) };
    const [sort, ascending, at] = state ? [state.s, state.asc, state.at] : [input.sort_by, input.ascending, 0];
    const { read, complete, matched } = await readDebts(ctx.pos, shopId, q, ctx.progress);
    const direction = q.type === undefined ? undefined : DEBT_TYPES[q.type];
    const list = sorted(matched, sort, ascending);
    const end = at + input.limit;
    return {
      currency,
      totals: { ...totalsOf(read, direction, q.status, now), partial: complete ? undefined : true },
      total: complete ? matched.length : undefined,
      debts: list.slice(at, end).map(project),
      next_cursor: input.limit > 0 && end < list.length ? encodeCursor("list_debts", input, { q, s: sort, asc: ascending, at: end }) : undefined,
    };
  },
});
