import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import { requireStatus, TRANSACTION_STATUSES, statusName } from "../../clients/pos-codes.js";
import type { PosTransaction } from "../../clients/schemas/pos.js";
import { id, num } from "../../format/compact.js";
import { upstreamRecord } from "../../format/orders.js";
import { sanitizeName, sanitizeText } from "../../text/sanitize.js";
import { recordTime, toIsoInZone } from "../../format/time.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import { defineTool, READ, type ToolContext } from "../define.js";
import { cursorInput, detailRowsInput, shopIdInput, sinceInput, totalsLimitInput, untilInput } from "../inputs.js";
import { listPage } from "../pos/list-page.js";
import { everyRow, MAX_PAGE_SIZE, SUM_MAX } from "../pos/paging.js";
import { unixRange } from "../pos/open-range.js";
import { shopScope } from "../pos/shop-scope.js";
import { withOrderNumbers } from "../orders/order-ref.js";
import { entriesIncurred, incurredCursor, type IncurredQuery, READ_MAX } from "./incurred.js";

const row = z.looseObject({ id: z.string(), name: z.string().optional(), amount: z.number().optional() });
const sums = z.object({ income: z.number(), expense: z.number(), net: z.number() });
const statusSums = z.object({ count: z.number() }).extend(sums.partial().shape);
type Sums = z.infer<typeof sums>;

/** The upstream's "all statuses" filter value. */
const ALL = -1;
/** Every real status, in the table's order: what "all" stands for. */
const EVERY = TRANSACTION_STATUSES.map((s) => s.code).filter((c) => c !== ALL);

/** Upstream pages of 100 one call reads for a few statuses (the list filters one or all). */
const FILTER_PAGES = 10;

/** What the cash book counts when no status is named: the entries in effect (approved). */
const IN_EFFECT = 1;
/** Entered, not yet approved: money an owner may count as spent, so its sums are given beside. */
const NEW = 0;

const leftOutSchema = z
  .object({ new: statusSums, cancelled: z.number().optional(), deleted: z.number().optional() })
  .describe("No status asked: the span's other entries, not in totals");

/** What the default answer (in effect) says it counted and left out. */
const DEFAULT_FIGURES =
  'totals: entries in effect (approved); left_out: new ones (entered, not yet approved) with their money, cancelled and deleted counted; status ["all"] sums each status apart.';

/**
 * The entries of the other statuses beside an answer by the default (in effect): the new ones
 * summed (a month's new entries moved its net by +890,000), cancelled and deleted ones counted.
 */
function leftOutOf(others: ReadonlyMap<number, { count: number } & Partial<Sums>>) {
  const counted = [...others].filter(([code, s]) => code !== NEW && s.count > 0).map(([code, s]) => [statusName(TRANSACTION_STATUSES, code), s.count]);
  return { new: others.get(NEW) ?? { count: 0 }, ...Object.fromEntries(counted) };
}

/** Income, expense (as a positive sum) and net of every matching row. */
function totalsOf(rows: readonly Record<string, unknown>[]) {
  const amounts = rows.map((r) => num(r.amount) ?? 0);
  const income = amounts.filter((a) => a > 0).reduce((t, a) => t + a, 0);
  const expense = -amounts.filter((a) => a < 0).reduce((t, a) => t + a, 0);
  return { income, expense, net: income - expense };
}

type Range = { startDateTime?: number | undefined; endDateTime?: number | undefined };

/**
 * One status's count (the list's own total) and, up to SUM_MAX entries, its money: the first page
 * is read at the largest size, the rest only when the total says more follow.
 */
async function statusTotals(pos: PosClient, shopId: string, status: number, range: Range, known?: number): Promise<{ count: number } & Partial<Sums>> {
  const read = (page: number, page_size: number) => pos.listTransactions(shopId, { ...range, status, page, page_size });
  const first = known === undefined ? await read(1, MAX_PAGE_SIZE) : undefined;
  const count = known ?? first!.total_entries ?? first!.data.length;
  if (count > SUM_MAX) return { count };
  return { count, ...totalsOf(first && count <= first.data.length ? first.data : await everyRow(count, read)) };
}

/** The statuses asked for, as codes, each once; "all" is every one of them, each summed apart. */
function statusCodes(values: readonly (string | number)[] | undefined): number[] {
  const codes = (values ?? [IN_EFFECT]).flatMap((v, i) => {
    const code = requireStatus(`status[${i}]`, TRANSACTION_STATUSES, v);
    return code === ALL ? EVERY : [code];
  });
  return [...new Set(codes)];
}

/** A cash-book entry as a row: signed amount, status by name, both its dates. */
const entryRow = (tz: string) => (t: PosTransaction) => ({
  id: String(t.id),
  display_id: id(t.display_id),
  name: sanitizeName(t.name),
  amount: num(t.amount),
  status: statusName(TRANSACTION_STATUSES, t.status),
  payments: t.payments ?? undefined,
  note: sanitizeText(t.note, { max: 300 }),
  ad_cost_id: id(t.advertising_cost_id),
  order_id: id((t as { orderId?: unknown }).orderId),
  time_incurred: recordTime(t.time_incurred, tz),
  inserted_at: recordTime(t.inserted_at, tz),
});

const isoOf = (unix: number | undefined, tz: string) => (unix === undefined ? undefined : toIsoInZone(new Date(unix * 1000), tz));

/** A cursor of a list by the day incurred, or undefined for one of the list as the POS pages it. */
function incurredState(input: { cursor?: string | undefined }) {
  if (!input.cursor) return undefined;
  try {
    return decodeCursor("list_transactions", input, incurredCursor);
  } catch {
    return undefined;
  }
}

/**
 * The cash book by the day incurred: the entries written around the span read whole (the list
 * filters by the day written only), kept by their day, newest first, summed per status asked.
 */
async function byIncurred(
  input: { limit: number; cursor?: string | undefined; detail: "compact" | "full"; shop_id?: string | undefined },
  ctx: ToolContext,
  q: IncurredQuery,
  at: number,
  defaulted = false,
) {
  const tz = ctx.config.timezone;
  const { shopId, currency } = await shopScope(ctx, input.shop_id);
  const { entries, others, window, complete } = await entriesIncurred(ctx.pos, shopId, q);
  const shown = entries.slice(at, at + input.limit);
  const out = {
    currency,
    total: entries.length,
    transactions: input.detail === "full" ? shown.map(upstreamRecord) : await withOrderNumbers(ctx.pos, shopId, shown.map(entryRow(tz))),
    next_cursor: at + input.limit < entries.length && input.limit > 0 ? encodeCursor("list_transactions", input, { inc: q, at: at + input.limit }) : undefined,
  };
  if (input.cursor) return out;
  const of = (code: number, from = entries) => from.filter((t) => (t.status ?? ALL) === code);
  const sums =
    q.codes.length > 1
      ? { by_status: Object.fromEntries(q.codes.map((code) => [statusName(TRANSACTION_STATUSES, code)!, { count: of(code).length, ...totalsOf(of(code)) }])) }
      : { totals: totalsOf(entries) };
  const left = defaulted ? leftOutOf(new Map(EVERY.map((code) => [code, { count: of(code, others).length, ...totalsOf(of(code, others)) }]))) : undefined;
  const until = window.endDateTime === undefined || window.endDateTime * 1000 > Date.now() ? "now" : isoOf(window.endDateTime, tz)!.slice(0, 10);
  const written = `${isoOf(window.startDateTime, tz)?.slice(0, 10) ?? "the first"} to ${until}`;
  return {
    ...out,
    range: { since: isoOf(q.from, tz), until: isoOf(q.to, tz), by: "time_incurred" },
    ...sums,
    left_out: left,
    complete: complete ? undefined : false,
    note: complete
      ? `Kept by time_incurred from the entries written ${written} (the POS filters by the day written only).`
      : `More than ${READ_MAX} entries were written ${written}: the newest ${READ_MAX} were read. Narrow since/until.`,
    figures: defaulted ? DEFAULT_FIGURES : undefined,
  };
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
    status: z
      .array(z.union([z.string().max(40), z.number().int()]))
      .max(TRANSACTION_STATUSES.length)
      .optional()
      .describe(`Default in_effect: ${TRANSACTION_STATUSES.map((r) => r.name).join(", ")}`),
    since: sinceInput,
    until: untilInput,
    time_field: z.enum(["incurred", "entered"]).default("incurred").describe("Day ranged: incurred (ad cost: cost date) or entered"),
    limit: totalsLimitInput(100, 30),
    cursor: cursorInput,
    detail: detailRowsInput,
  }),
  output: z.object({
    currency: z.string().optional(),
    total: z.number().optional(),
    totals: sums.optional().describe("Of the one status asked"),
    left_out: leftOutSchema.optional(),
    by_status: z.record(z.string(), statusSums).optional().describe("Several statuses: each apart (money only up to 300 entries)"),
    transactions: z.array(row),
    next_cursor: z.string().optional(),
    range: z.object({ since: z.string().optional(), until: z.string().optional(), by: z.string() }).optional(),
    complete: z.boolean().optional(),
    note: z.string().optional(),
    figures: z.string().optional(),
  }),
  async handler(input, ctx) {
    // The cash book's money is what is in effect: new, cancelled and deleted entries summed in
    // flipped a month's net from -170,000 to +660,000. Several statuses (or "all") are summed each
    // apart, never together. By default the others are said beside (left_out): an owner reading
    // "in effect" alone missed two new entries worth +1,190,000 / -300,000.
    if (input.limit === 0 && input.cursor) throw new InputError("limit", "0 asks for the totals alone, and a cursor continues rows", "Drop cursor, or pass a limit above 0.");
    const codes = statusCodes(input.status);
    const defaulted = input.status === undefined;
    const several = codes.length > 1;
    const range = unixRange(input.since, input.until, ctx.config.timezone);
    const resumed = incurredState(input);
    if (resumed) return byIncurred(input, ctx, resumed.inc, resumed.at);
    const ranged = range.from !== undefined || range.to !== undefined;
    if (ranged && input.time_field === "incurred" && !input.cursor) return byIncurred(input, ctx, { from: range.from, to: range.to, codes }, 0, defaulted);
    const { shopId, currency } = await shopScope(ctx, input.shop_id);
    const tz = ctx.config.timezone;
    // The list takes one status or all of them: a few of them are all of them, kept here.
    const only = several && codes.length < EVERY.length ? codes : undefined;
    const query = { status: several ? ALL : codes[0], startDateTime: range.from, endDateTime: range.to, only };
    const page =
      input.limit === 0
        ? undefined
        : await listPage(ctx, input, {
            tool: "list_transactions",
            query,
            fetch: ({ only: _only, ...params }) => ctx.pos.listTransactions(shopId, params),
            filter: { active: (q) => q.only !== undefined, keep: (t, q) => (q.only as number[]).includes(t.status ?? ALL), maxPages: FILTER_PAGES },
            project: entryRow(tz),
          });
    const listed = page?.rows ?? [];
    // An entry for an order is shown with the order's number, as the shop knows it.
    const rows = input.detail === "full" ? listed : await withOrderNumbers(ctx.pos, shopId, listed as ReturnType<ReturnType<typeof entryRow>>[]);
    const dated = ranged ? { since: isoOf(range.from, tz), until: isoOf(range.to, tz), by: "inserted_at" } : undefined;
    const out = { currency, transactions: rows, next_cursor: page?.next_cursor, range: input.cursor ? undefined : dated };
    // A cursor's page is part of an answer whose totals its first call gave.
    if (input.cursor) return { ...out, total: page?.total };
    const dates = { startDateTime: range.from, endDateTime: range.to };
    if (several) {
      const each = await Promise.all(codes.map((code) => statusTotals(ctx.pos, shopId, code, dates)));
      const by_status = Object.fromEntries(codes.map((code, i) => [statusName(TRANSACTION_STATUSES, code)!, each[i]!]));
      const unsummed = each.some((s) => s.income === undefined);
      return {
        ...out,
        total: each.reduce((t, s) => t + s.count, 0),
        by_status,
        note: unsummed ? `Money only for statuses of up to ${SUM_MAX} entries: narrow since/until to have the others summed.` : undefined,
      };
    }
    // Summed over every match (reading them when this answer shows fewer), so "spent this year"
    // is never the sum of the first page.
    const other = defaulted ? EVERY.filter((code) => code !== IN_EFFECT) : [];
    const [{ count, ...money }, ...others] = await Promise.all([
      page && !page.next_cursor ? { count: page.total ?? rows.length, ...totalsOf(rows) } : statusTotals(ctx.pos, shopId, codes[0]!, dates, page?.total),
      ...other.map((code) => statusTotals(ctx.pos, shopId, code, dates)),
    ]);
    const summed = money.income === undefined ? undefined : (money as Sums);
    return {
      ...out,
      total: count,
      totals: summed,
      left_out: defaulted ? leftOutOf(new Map(other.map((code, i) => [code, others[i]!]))) : undefined,
      note: summed ? undefined : `No totals over ${SUM_MAX} matches: narrow since/until to have them summed.`,
      figures: defaulted ? DEFAULT_FIGURES : undefined,
    };
  },
});
