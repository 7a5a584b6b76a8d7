import { describe, expect, it } from "vitest";
import { sweep } from "../../../src/tools/pos/sweep.js";

// The parallel page reader behind grouped answers, against lists that behave as the live ones are
// reported to: some serve fewer rows a page than asked, some give no total, and rows move between
// pages while they are read. The tool-level tests (test/tools/orders/order-groups.test.ts) drive
// it through the sandbox.

type Row = { id: number };
const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: i + 1 }));
const bounds = { rows: 10_000, ms: 20_000, lastPage: 100, parallel: 3 };

/** A list of `all` rows serving at most `cap` a page, with or without its total; records each read. */
function list(all: Row[], options: { cap?: number; total?: boolean } = {}) {
  const reads: { page: number; size: number }[] = [];
  let inFlight = 0;
  let most = 0;
  const fetch = async (_client: object, page: number, size: number) => {
    reads.push({ page, size });
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    inFlight--;
    const served = Math.min(size, options.cap ?? size);
    return { data: all.slice((page - 1) * served, page * served), total_entries: options.total === false ? undefined : all.length };
  };
  return { fetch, reads, most: () => most };
}

describe("sweep", () => {
  it("reads every page its total announces, each once, a few at a time", async () => {
    const l = list(rows(950));
    const read = await sweep({}, bounds, l.fetch);
    expect(read.rows.map((r) => r.id)).toEqual(rows(950).map((r) => r.id));
    expect(read).toMatchObject({ total: 950, complete: true });
    expect(l.reads.map((r) => r.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(l.most()).toBe(3);
  });

  it("asks for the page size the list serves when it serves fewer than asked", async () => {
    const l = list(rows(230), { cap: 50 });
    const read = await sweep({}, bounds, l.fetch);
    expect(read.rows).toHaveLength(230);
    expect(read.complete).toBe(true);
    expect(l.reads.filter((r) => r.page > 1).every((r) => r.size === 50)).toBe(true);
  });

  it("without a total, reads until a short page", async () => {
    const l = list(rows(420), { total: false });
    const read = await sweep({}, { ...bounds, lastPage: 20 }, l.fetch);
    expect(read.rows).toHaveLength(420);
    expect(read.complete).toBe(true);
  });

  it("stops at its row bound and says so", async () => {
    const read = await sweep({}, { ...bounds, rows: 250 }, list(rows(950)).fetch);
    expect(read.rows.map((r) => r.id)).toEqual(rows(200).map((r) => r.id));
    expect(read).toMatchObject({ complete: false, stopped: "bound" });
  });

  it("is not complete when rows moved between pages while they were read", async () => {
    const all = rows(300);
    const l = list(all);
    // A new row at the top after page 1 was read moves every later row down one place: row 100 is read twice, row 300 never.
    const fetch = async (client: object, page: number, size: number) => {
      if (page === 2) all.unshift({ id: 0 });
      return l.fetch(client, page, size);
    };
    const read = await sweep({}, { ...bounds, parallel: 1 }, fetch);
    expect(new Set(read.rows.map((r) => r.id)).size).toBe(read.rows.length);
    expect(read.complete).toBe(false);
    expect(read.stopped).toBeUndefined();
  });

  it("reads again at the size a later page served when a page after it, already asked, holds rows", async () => {
    // A list capped by bytes rather than rows, had one ever been seen (defensive: issue 21's 94 of
    // 100 were this server's own result budget): 100 on page 1, then 90 a page.
    const all = rows(950);
    const reads: { page: number; size: number }[] = [];
    const fetch = async (_c: object, page: number, size: number) => {
      reads.push({ page, size });
      const served = Math.min(size, page === 1 ? 100 : 90);
      return { data: all.slice((page - 1) * size, (page - 1) * size + served), total_entries: all.length };
    };
    const read = await sweep({}, bounds, fetch);
    expect(read.rows.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(read).toMatchObject({ total: 950, complete: true });
    expect(read.stopped).toBeUndefined();
    expect(reads.filter((r) => r.size === 90).map((r) => r.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it("stops with its own reason when the list keeps serving fewer than asked, counting only what it read in order", async () => {
    const all = rows(950);
    // Every page serves a few rows fewer than asked, whatever was asked: no size reads it without gaps.
    const fetch = async (_c: object, page: number, size: number) => ({ data: all.slice((page - 1) * size, (page - 1) * size + size - (page === 1 ? 0 : 3)), total_entries: all.length });
    const read = await sweep({}, bounds, fetch);
    expect(read).toMatchObject({ complete: false, stopped: "short" });
    // Page 1 and the short page after it, each row once and none past the gap.
    const ids = read.rows.map((r) => r.id);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
  });

  it("ends at the first short page, whatever a total says, unless a page after it already asked holds rows", async () => {
    const all = rows(420);
    const short3 = (total: boolean) => async (_c: object, page: number, size: number) => {
      const served = page === 3 ? size - 5 : size;
      return { data: all.slice((page - 1) * size, (page - 1) * size + served), total_entries: total ? all.length : undefined };
    };
    // One page at a time: page 3 is the end, and with a total the answer says the total disagreed.
    const reads: number[] = [];
    const counted = short3(true);
    const ended = await sweep({}, { ...bounds, parallel: 1 }, async (c: object, page: number, size: number) => {
      reads.push(page);
      return counted(c, page, size);
    });
    expect(ended).toMatchObject({ complete: false, note: "the list's total said 420; its pages ended at 3" });
    expect(ended.rows).toHaveLength(295);
    expect(Math.max(...reads)).toBe(3);
    // Without a total nothing says otherwise.
    expect(await sweep({}, { ...bounds, parallel: 1 }, short3(false))).toMatchObject({ complete: true });
    // Pages read at once: page 4 holds rows, so page 3 was not the end.
    const read = await sweep({}, bounds, short3(false));
    expect(read.complete).toBe(false);
    expect(read.stopped).toBe("short");
    // And a list whose first page is short: the page after it, read alone, says whether there is more.
    const capped = list(rows(230), { cap: 50, total: false });
    const whole = await sweep({}, bounds, capped.fetch);
    expect(whole.rows).toHaveLength(230);
    expect(whole.complete).toBe(true);
  });

  it("ends at the first empty page whatever the total says, and says the total disagreed", async () => {
    // The total counts 1,418; the list serves page 1 and nothing after it.
    const reads: number[] = [];
    const fetch = async (_c: object, page: number, size: number) => {
      reads.push(page);
      return { data: page === 1 ? rows(Math.min(size, 100)) : [], total_entries: 1_418 };
    };
    const read = await sweep({}, bounds, fetch);
    expect(read).toMatchObject({ total: 1_418, complete: false, note: "the list's total said 1,418; its pages ended at 1" });
    expect(read.stopped).toBeUndefined();
    expect(read.rows).toHaveLength(100);
    // The pages in flight when page 2 came back empty, none after.
    expect(reads.length).toBeLessThanOrEqual(1 + bounds.parallel);
    // A first page of 1 row of the 100 asked (the vendor's example): the page after it alone.
    reads.length = 0;
    const example = await sweep({}, bounds, async (_c: object, page: number) => {
      reads.push(page);
      return { data: page === 1 ? rows(1) : [], total_entries: 1_418 };
    });
    expect(example).toMatchObject({ complete: false, note: "the list's total said 1,418; its pages ended at 1" });
    expect(reads).toEqual([1, 2]);
  });

  it("stops at a page that repeats an earlier one, keeping the rows before it", async () => {
    // Past its end (page 4) the list answers its first page again, and its total says more.
    const all = rows(400);
    const fetch = async (_c: object, page: number, size: number) => ({ data: page <= 4 ? all.slice((page - 1) * size, page * size) : all.slice(0, size), total_entries: 2_000 });
    const read = await sweep({}, { ...bounds, parallel: 1 }, fetch);
    expect(read).toMatchObject({ complete: false, note: "the list answered page 5 with page 1's rows again" });
    expect(read.rows.map((r) => r.id)).toEqual(all.map((r) => r.id));
  });

  it("stops at a row the check finds outside what was asked, keeping the pages before it", async () => {
    const all = rows(500);
    const reads: number[] = [];
    const fetch = async (_c: object, page: number, size: number) => {
      reads.push(page);
      return { data: all.slice((page - 1) * size, page * size), total_entries: all.length };
    };
    const check = (row: Row) => (row.id > 250 ? "the list ignored startDateTime" : undefined);
    const read = await sweep({}, { ...bounds, parallel: 1 }, fetch, undefined, check);
    expect(read).toMatchObject({ complete: false, note: "the list ignored startDateTime" });
    expect(read.rows.map((r) => r.id)).toEqual(rows(200).map((r) => r.id));
    expect(Math.max(...reads)).toBe(3);
  });
});
