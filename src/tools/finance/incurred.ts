import { z } from "zod";
import type { PosClient } from "../../clients/pos.js";
import type { PosTransaction } from "../../clients/schemas/pos.js";
import { recordDate } from "../../format/time.js";
import { everyRow, MAX_PAGE_SIZE } from "../pos/paging.js";

// The cash book by the day money was incurred. The list's startDateTime/endDateTime filter on
// the day an entry was written (inserted_at), and an entry is mostly written after its day
// (yesterday's ad cost recorded today, last month's rent this month): asked by the entry date,
// an ad cost recorded for 3 December was not found by 3 December and the write looked failed.
// The list has no filter on time_incurred, so the entries written around the span are read (a
// bounded window) and filtered here; the answer says which window was read.

const DAY = 86_400;
/** Entries written this long before the span are read: a cost is seldom written ahead of its day. */
export const WRITTEN_BEFORE_DAYS = 31;
/** And this long after it: the late entries of a month, written up to a quarter later. */
export const WRITTEN_AFTER_DAYS = 92;
/** Most entries one call reads to filter by the day incurred (pages of MAX_PAGE_SIZE, in parallel). */
export const READ_MAX = 3_000;

/** Where a list by the day incurred stands: its span, statuses, and how many rows were shown. */
export const incurredCursor = z.object({
  inc: z.object({ from: z.number().optional(), to: z.number().optional(), codes: z.array(z.number().int()).max(10) }),
  at: z.number().int().min(0).max(READ_MAX),
});
export type IncurredQuery = z.infer<typeof incurredCursor>["inc"];

/** The day an entry counts on: when it was incurred, else (an entry without one) when it was written. */
const incurredAt = (t: PosTransaction) => (recordDate(t.time_incurred) ?? recordDate(t.inserted_at))?.getTime() ?? Number.NaN;

/**
 * The entries of `q` (statuses, span by the day incurred), latest incurred first, from every entry
 * written within the window around the span, and (`others`) the span's entries of the other
 * statuses; `complete` false when the window held more than READ_MAX (the newest written are read).
 */
export async function entriesIncurred(pos: PosClient, shopId: string, q: IncurredQuery) {
  const window = {
    startDateTime: q.from === undefined ? undefined : q.from - WRITTEN_BEFORE_DAYS * DAY,
    endDateTime: q.to === undefined ? undefined : q.to + WRITTEN_AFTER_DAYS * DAY,
  };
  const read = (page: number, page_size: number) => pos.listTransactions(shopId, { ...window, status: -1, page, page_size });
  const first = await read(1, MAX_PAGE_SIZE);
  const total = first.total_entries ?? first.data.length;
  const rows = total <= first.data.length ? first.data : await everyRow(Math.min(total, READ_MAX), read);
  const inSpan = (t: PosTransaction) => {
    const at = incurredAt(t) / 1000;
    return (q.from === undefined || at >= q.from) && (q.to === undefined || at <= q.to);
  };
  const spanned = rows.filter(inSpan).sort((a, b) => incurredAt(b) - incurredAt(a) || String(b.inserted_at).localeCompare(String(a.inserted_at)));
  const asked = (t: PosTransaction) => q.codes.includes(t.status ?? -1);
  return { entries: spanned.filter(asked), others: spanned.filter((t) => !asked(t)), window, complete: total <= READ_MAX };
}
